/**
 * Ticker checks before sending: lowercase tickers are refused with the right spelling; a
 * ticker the service does not know (resolved through `eq-lookup-files` where the identity may
 * read it, loaded once per session) is refused with the nearest known ones ("did you mean
 * AAPL?"); a ticker asked for wholly after it was renamed says what it trades as from when.
 * `resolveTickers` is the one entry point, for single and multi-ticker calls alike.
 */

import pl from "nodejs-polars";
import { addDays } from "../../calendar/nyTime.ts";
import type { AccessRule } from "../api/account.ts";
import { QueryError } from "../errors/base.ts";
import { UnknownTickerError } from "../errors/unknown.ts";
import { didYouMean, nearestNames } from "./nearest.ts";

/** One row of `eq-lookup-files`: the ticker maps to the security until `endDate`. */
interface Mapping {
  ticker: string;
  secId: string;
  endDate: string;
}

/** What the lookup files say about tickers: which exist, and what each became after its end. */
export class TickerBook {
  private readonly byTicker = new Map<string, Mapping[]>();
  private readonly bySecId = new Map<string, Mapping[]>();

  constructor(rows: readonly Mapping[]) {
    for (const m of rows) {
      this.byTicker.set(m.ticker, [...(this.byTicker.get(m.ticker) ?? []), m]);
      this.bySecId.set(m.secId, [...(this.bySecId.get(m.secId) ?? []), m].sort((a, b) => a.endDate.localeCompare(b.endDate)));
    }
  }

  /** The book of an `eq-lookup-files` frame (columns Ticker, EndDate, SecId). */
  static fromFrame(frame: pl.DataFrame): TickerBook {
    const tickers = frame.getColumn("Ticker").toArray() as string[];
    const ends = frame.getColumn("EndDate").cast(pl.String).toArray() as string[];
    const ids = frame.getColumn("SecId").cast(pl.String).toArray() as string[];
    return new TickerBook(tickers.map((ticker, i) => ({ ticker, endDate: String(ends[i]), secId: String(ids[i]) })));
  }

  get tickers(): string[] {
    return [...this.byTicker.keys()];
  }

  has(ticker: string): boolean {
    return this.byTicker.has(ticker);
  }

  /** The last day a ticker maps to a security (the latest mapping), if it ever ends. */
  private lastDay(ticker: string): Mapping | undefined {
    const spans = this.byTicker.get(ticker);
    if (!spans) return undefined;
    const latest = spans.reduce((a, b) => (a.endDate > b.endDate ? a : b));
    return latest.endDate >= "2999-01-01" ? undefined : latest;
  }

  /**
   * Why a ticker has no data from `from` on (it ended before), or undefined while it trades.
   * A rename names the new ticker and the first day of it.
   */
  endedBefore(ticker: string, from: string): string | undefined {
    const last = this.lastDay(ticker);
    if (!last || from <= last.endDate) return undefined;
    const next = (this.bySecId.get(last.secId) ?? []).find((m) => m.endDate > last.endDate && m.ticker !== ticker);
    const firstDay = addDays(last.endDate, 1);
    return next
      ? `${ticker} was renamed: it trades as ${next.ticker} from ${firstDay} (${ticker} maps to security ${last.secId} until ${last.endDate}); ask for ${next.ticker}`
      : `${ticker} maps to no security after ${last.endDate} (delisted or merged)`;
  }
}

/** Where tickers are resolved from: the identity's rules and the lookup files, loaded on demand. */
export interface TickerSource {
  rules(): Promise<readonly AccessRule[]>;
  /** Every row of `eq-lookup-files` (spends one request, once per session). */
  lookup(): Promise<pl.DataFrame>;
}

const books = new WeakMap<TickerSource, Promise<TickerBook | undefined>>();

/** The lookup files as a TickerBook, once per source; undefined when the identity may not read them. */
export function tickerBook(source: TickerSource): Promise<TickerBook | undefined> {
  let book = books.get(source);
  if (!book) {
    book = source.rules().then(async (rules) => (rules.some((r) => r.dataset_text_id === "eq-lookup-files") ? TickerBook.fromFrame(await source.lookup()) : undefined));
    book.catch(() => books.delete(source));
    books.set(source, book);
  }
  return book;
}

/** Datasets whose tickers are equity tickers (the lookup files' tickers); option datasets use roots. */
export const EQUITY_TICKER_DATASETS: readonly string[] = ["eq-taq-1min", "eq-daily-ohlc", "eq-taq"];

/**
 * Refuses tickers that cannot be right, before sending: lowercase ones (with the right
 * spelling), for every dataset; and for equity datasets, tickers the lookup files do not know
 * (with the nearest known ones) and tickers asked for wholly after they stopped (a rename
 * names the new ticker). `from` is the first date asked for, when known.
 *
 * @example
 * ```ts
 * await resolveTickers(source, "eq-taq-1min", ["SPY", "APPL"]);
 * // UnknownTickerError: eq-taq-1min: unknown ticker APPL (did you mean 'AAPL'?); known tickers are AAPL, CVX, ...
 * ```
 */
export async function resolveTickers(source: TickerSource, dataset: string, tickers: readonly string[], range: { from?: string } = {}): Promise<void> {
  const lower = tickers.filter((t) => t !== t.toUpperCase());
  if (lower.length > 0) {
    throw new QueryError(`${dataset}: tickers are upper case: ${lower.map((t) => `'${t}' (did you mean '${t.toUpperCase()}'?)`).join(", ")}`);
  }
  if (!EQUITY_TICKER_DATASETS.includes(dataset)) return;
  const book = await tickerBook(source);
  if (!book) return;
  const unknown = tickers.filter((t) => !book.has(t));
  if (unknown.length > 0) {
    const suggestions = Object.fromEntries(unknown.map((t) => [t, nearestNames(t, book.tickers)]));
    const named = unknown.map((t) => `${t}${didYouMean(t, book.tickers)}`).join(", ");
    throw new UnknownTickerError(`${dataset}: unknown ticker${unknown.length > 1 ? "s" : ""} ${named}; known tickers are ${book.tickers.sort().join(", ")}`, unknown, suggestions);
  }
  if (range.from !== undefined) {
    const ended = tickers.map((t) => book.endedBefore(t, range.from!)).filter((x): x is string => x !== undefined);
    if (ended.length > 0) throw new QueryError(`${dataset} from ${range.from}: ${ended.join("; ")}`);
  }
}
