/** Names the workbench or the service does not know: dataset ids and tickers, with the nearest known ones. */
import { type CallState, QueryError, WorkbenchError } from "./base.ts";

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
  constructor(message: string, context: { dataset: string; known: readonly string[] } & CallState) {
    super(message, context);
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
   * @param state what the call it stopped keeps
   */
  constructor(message: string, tickers: readonly string[], suggestions: Record<string, string[]>, state: CallState = {}) {
    super(message, state);
    this.tickers = tickers;
    this.suggestions = suggestions;
  }

  /** The same refusal, made again with what its call keeps. */
  override keeping(state: CallState): UnknownTickerError {
    return new UnknownTickerError(this.message, this.tickers, this.suggestions as Record<string, string[]>, {
      partial: this.partial,
      resume: this.resume,
      ...state,
    });
  }
}
