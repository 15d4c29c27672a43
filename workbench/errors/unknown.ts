/** Names the workbench or the service does not know: dataset ids and tickers, with the nearest known ones. */
import { QueryError, WorkbenchError } from "./base.ts";

/** A dataset id the workbench does not know: names the id, the nearest known ones and all of them. */

export class UnknownDatasetError extends WorkbenchError {
  /** The id asked for. */
  readonly dataset: string;
  /** Every dataset id the workbench knows. */
  readonly known: readonly string[];
  constructor(message: string, context: { dataset: string; known: readonly string[] }) {
    super(message);
    this.dataset = context.dataset;
    this.known = context.known;
  }
}

/** A ticker the service does not know (refused before sending); `suggestions` holds the nearest known ones per ticker. */
export class UnknownTickerError extends QueryError {
  readonly tickers: readonly string[];
  readonly suggestions: Readonly<Record<string, readonly string[]>>;
  constructor(message: string, tickers: readonly string[], suggestions: Record<string, string[]>) {
    super(message);
    this.tickers = tickers;
    this.suggestions = suggestions;
  }
}
