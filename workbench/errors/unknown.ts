/** Names the workbench or the service does not know: dataset ids and tickers, with the nearest known ones. */
import { QueryError, WorkbenchError } from "./base.ts";

/**
 * A dataset id the workbench does not know: names the id, the nearest known ones and all of them.
 *
 * @example
 * ```ts
 * try {
 *   await wb.meta.status("eq-taq-1mn");
 * } catch (e) {
 *   if (e instanceof UnknownDatasetError) console.log(e.dataset, e.known);
 *   else throw e;
 * }
 * ```
 */
export class UnknownDatasetError extends WorkbenchError {
  /** The id asked for. */
  readonly dataset: string;
  /** Every dataset id the workbench knows. */
  readonly known: readonly string[];
  /**
   * An unknown dataset id, with the known ones.
   *
   * @param message the id, the nearest known ones and all of them
   * @param context the id asked for and every known id
   */
  constructor(message: string, context: { dataset: string; known: readonly string[] }) {
    super(message);
    this.dataset = context.dataset;
    this.known = context.known;
  }
}

/**
 * A ticker the service does not know (refused before sending); `suggestions` holds the nearest
 * known ones per ticker.
 *
 * @example
 * ```ts
 * try {
 *   await wb.data.eqTaq1Min("APPL", { filters: { TradeDate: "2023-11-21" } });
 * } catch (e) {
 *   if (e instanceof UnknownTickerError) console.log(e.suggestions["APPL"]); // ["AAPL", ...]
 *   else throw e;
 * }
 * ```
 */
export class UnknownTickerError extends QueryError {
  /** The unknown tickers, as given. */
  readonly tickers: readonly string[];
  /** For each unknown ticker, the nearest known ones (possibly none). */
  readonly suggestions: Readonly<Record<string, readonly string[]>>;
  /**
   * Unknown tickers, with the nearest known ones.
   *
   * @param message the tickers and their nearest known ones
   * @param tickers the unknown tickers
   * @param suggestions the nearest known tickers of each
   */
  constructor(message: string, tickers: readonly string[], suggestions: Record<string, string[]>) {
    super(message);
    this.tickers = tickers;
    this.suggestions = suggestions;
  }
}
