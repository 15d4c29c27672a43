/**
 * Ticker checks before sending: lowercase tickers are refused with the right spelling; a
 * ticker the service does not know (resolved through `eq-lookup-files` where the identity may
 * read it, loaded once per session) is refused with the nearest known ones ("did you mean
 * AAPL?"); a ticker asked for wholly after it was renamed says what it trades as from when.
 * `resolveTickers` is the one entry point, for single and multi-ticker calls alike.
 */

import pl from "nodejs-polars";
import { addDays } from "../../calendar/nyTime.ts";
import type { TickerAsk } from "../query/prepare.ts";
import { EQUITY_TICKER_DATASETS, type TickerSource } from "../service/facts.ts";
import { QueryError } from "../errors/base.ts";
import { UnknownTickerError } from "../errors/unknown.ts";
import { didYouMean, nearestNames } from "../errors/nearest.ts";
import { checkRootsInBook, loadedRootBook, OPTION_ROOT_DATASETS, rootBook } from "./optionRoots.ts";

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

  /** The lookup rows, one per ticker and span. */
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

  /** Every ticker the lookup knows. */
  get tickers(): string[] {
    return [...this.byTicker.keys()];
  }

  /** Whether `ticker` is known, at any date. */
  has(ticker: string): boolean {
    return this.byTicker.has(ticker);
  }

  /**
   * The spans a ticker maps to a security: from the day after the security's previous ticker
   * ended (undefined: from its first listing), to its own end date.
   */
  spans(ticker: string): { from?: string; to: string }[] {
    return (this.byTicker.get(ticker) ?? []).map((m) => {
      const before = (this.bySecId.get(m.secId) ?? []).filter((o) => o.endDate < m.endDate && o.ticker !== ticker).at(-1);
      return { from: before ? addDays(before.endDate, 1) : undefined, to: m.endDate };
    });
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

  /**
   * Why a ticker has no data up to `to` (it only began after, as a security's new name), or
   * undefined when it maps to a security by then. The lookup files give each mapping's end;
   * a ticker's first day is the day after its security's previous ticker ended.
   */
  startedAfter(ticker: string, to: string): string | undefined {
    const spans = this.byTicker.get(ticker);
    if (!spans) return undefined;
    const starts = spans.map((m) => {
      const before = (this.bySecId.get(m.secId) ?? []).filter((o) => o.endDate < m.endDate && o.ticker !== ticker).at(-1);
      return { m, before, first: before ? addDays(before.endDate, 1) : undefined };
    });
    if (starts.some((s) => s.first === undefined || s.first <= to)) return undefined;
    const earliest = starts.reduce((a, b) => (a.first! < b.first! ? a : b));
    return `${ticker} begins on ${earliest.first}: until ${earliest.before!.endDate} its security ${earliest.m.secId} traded as ${
      earliest.before!.ticker
    }; ask for ${earliest.before!.ticker}`;
  }
}

/** Tickers being probed, so the probe's own (empty) answer is not judged again, in any dataset. */
const probing = new WeakMap<TickerSource, Set<string>>();

/**
 * Without the lookup files: a ticker with no row at any date is unknown (an UnknownTickerError
 * with the nearest tickers of the identity's universe, when it has one). Returns the tickers
 * no probe could judge, for a warning that says so.
 */
async function judgeByProbe(source: TickerSource, dataset: string, absent: readonly string[]): Promise<string[]> {
  const mine = probing.get(source) ?? new Set<string>();
  probing.set(source, mine);
  const todo = absent.filter((t) => !mine.has(t));
  if (!source.probe || todo.length === 0) return source.probe ? [] : [...absent];
  todo.forEach((t) => mine.add(t));
  try {
    const unknown: string[] = [];
    const unjudged: string[] = [];
    for (const t of todo) {
      const known = await source.probe(dataset, t);
      if (known === undefined) unjudged.push(t);
      else if (!known) unknown.push(t);
    }
    if (unknown.length === 0) return unjudged;
    const universe = (await source.rules()).find((r) => r.dataset_text_id === dataset)?.universe_identifiers ?? [];
    const suggestions = Object.fromEntries(unknown.map((t) => [t, nearestNames(t, universe)]));
    const [noun, book] = OPTION_ROOT_DATASETS.includes(dataset) ? ["option root", "opt-sec-master"] : ["ticker", "eq-lookup-files"];
    throw new UnknownTickerError(
      `${dataset}: no row for ${noun}${unknown.length > 1 ? "s" : ""} ${
        unknown.map((t) => `${t}${didYouMean(t, universe)}`).join(", ")
      } at any date: the service does not know ${unknown.length > 1 ? "them" : "it"} ` +
        `(this account cannot read ${book}, which would name the nearest ${noun}s)`,
      unknown,
      suggestions,
    );
  } finally {
    todo.forEach((t) => mine.delete(t));
  }
}

const books = new WeakMap<TickerSource, Promise<TickerBook | undefined>>();
const loaded = new WeakMap<TickerSource, TickerBook | undefined>();

/** The lookup files as a TickerBook, once per source; undefined when the identity may not read them. */
export function tickerBook(source: TickerSource): Promise<TickerBook | undefined> {
  let book = books.get(source);
  if (!book) {
    book = source.rules().then(async (
      rules,
    ) => (rules.some((r) => r.dataset_text_id === "eq-lookup-files") ? TickerBook.fromFrame(await source.lookup()) : undefined));
    book.then((b) => loaded.set(source, b), () => books.delete(source));
    books.set(source, book);
  }
  return book;
}

/** The lookup files' book if this session has loaded it (no request), else undefined. */
export function loadedTickerBook(source: TickerSource): TickerBook | undefined {
  return loaded.get(source);
}

/** Lowercase tickers, refused with the right spelling (every dataset). */
function checkCase(dataset: string, tickers: readonly string[]): void {
  const lower = tickers.filter((t) => t !== t.toUpperCase());
  if (lower.length > 0) {
    throw new QueryError(
      `${dataset}: tickers are upper case: ${lower.map((t) => `'${t}' (did you mean '${t.toUpperCase()}'?)`).join(", ")}`,
    );
  }
}

/** Unknown tickers (nearest known ones named), then tickers asked for wholly after they ended (a rename names the new ticker). */
function checkInBook(book: TickerBook, dataset: string, tickers: readonly string[], from: string | undefined): void {
  const unknown = tickers.filter((t) => !book.has(t));
  if (unknown.length > 0) {
    const suggestions = Object.fromEntries(unknown.map((t) => [t, nearestNames(t, book.tickers)]));
    const named = unknown.map((t) => `${t}${didYouMean(t, book.tickers)}`).join(", ");
    throw new UnknownTickerError(
      `${dataset}: unknown ticker${unknown.length > 1 ? "s" : ""} ${named}; known tickers are ${book.tickers.sort().join(", ")}`,
      unknown,
      suggestions,
    );
  }
  if (from !== undefined) {
    const ended = tickers.map((t) => book.endedBefore(t, from)).filter((x): x is string => x !== undefined);
    if (ended.length > 0) throw new QueryError(`${dataset} from ${from}: ${ended.join("; ")}`);
  }
  // A ticker asked for wholly before it began (the new name of a renamed security) is not
  // refused: a universe member without rows yet is a warning on the frame (frameSink).
}

/**
 * The pre-send check of a single call: case always; the lookup files only once this session
 * has loaded them (so a correct call never pays a request for them). A ticker the book has
 * not judged yet is judged from the answer (explainAbsentTickers).
 */
export function checkTickersBeforeSending(
  source: TickerSource,
  dataset: string,
  tickers: readonly string[],
  from: string | undefined,
): void {
  checkCase(dataset, tickers);
  const book = loaded.get(source);
  if (book && EQUITY_TICKER_DATASETS.includes(dataset)) checkInBook(book, dataset, tickers, from);
  const roots = loadedRootBook(source);
  if (roots && OPTION_ROOT_DATASETS.includes(dataset)) checkRootsInBook(roots, dataset, tickers, from);
}

/**
 * Before sending a call of several requests (a universe, or one ticker over many days): loads
 * the lookup files where the identity may read them (one request, once per session: less than
 * the empty pages a misspelt ticker would cost) and judges every asked ticker with them. An
 * identity without them keeps the judgement from the answer (explainAbsentTickers).
 *
 * @example
 * ```ts
 * await checkTickersUpfront(wb.data.tickers, "eq-taq-1min", [{ asked: ["SPY", "APPL"], from: "2023-11-20" }]);
 * // UnknownTickerError: eq-taq-1min: unknown ticker APPL (did you mean 'AAPL'?); ...
 * ```
 */
export async function checkTickersUpfront(source: TickerSource, dataset: string, asks: readonly (TickerAsk | undefined)[]): Promise<void> {
  const given = asks.filter((a): a is TickerAsk => a !== undefined);
  if (given.length > 0 && OPTION_ROOT_DATASETS.includes(dataset)) {
    const roots = await rootBook(source);
    if (roots) { for (const ask of given) checkRootsInBook(roots, dataset, ask.asked, ask.from); }
    return;
  }
  if (given.length === 0 || !EQUITY_TICKER_DATASETS.includes(dataset)) return;
  const book = await tickerBook(source);
  if (!book) return;
  for (const ask of given) checkInBook(book, dataset, ask.asked, ask.from);
}

/**
 * Judges tickers from the answer: when an asked ticker has no row (and the answer was not cut
 * by maxRows), the lookup files (loaded once per session) say whether it is unknown (an
 * UnknownTickerError with the nearest ones) or ended before the range (renamed: what it trades
 * as now); without them, a one-row probe at any date says whether the service knows it. A
 * known ticker without rows in the range is not an error here. Returns the absent tickers
 * nothing could judge (no lookup files, and no dataset to probe), for a warning that says so.
 *
 * @example
 * ```ts
 * await explainAbsentTickers(wb.data.tickers, "eq-taq-1min", { asked: ["APPL"] }, frame, Infinity);
 * ```
 */
export async function explainAbsentTickers(
  source: TickerSource,
  dataset: string,
  ask: TickerAsk,
  frame: pl.DataFrame,
  maxRows: number,
): Promise<string[]> {
  const options = OPTION_ROOT_DATASETS.includes(dataset);
  if ((!EQUITY_TICKER_DATASETS.includes(dataset) && !options) || frame.height >= maxRows) return [];
  const present = new Set(
    frame.columns.includes("Ticker") ? (frame.getColumn("Ticker").unique().toArray() as string[]) : frame.height > 0 ? ask.asked : [],
  );
  const absent = ask.asked.filter((t) => !present.has(t));
  if (absent.length === 0) return [];
  if (options) {
    // Option roots, by the options security master where the identity may read it.
    const roots = await rootBook(source);
    if (!roots) return await judgeByProbe(source, dataset, absent);
    checkRootsInBook(roots, dataset, absent, ask.from);
    return [];
  }
  const book = await tickerBook(source);
  if (book) {
    checkInBook(book, dataset, absent, ask.from);
    return [];
  }
  return await judgeByProbe(source, dataset, absent);
}
