/**
 * A ticker of a range that stops trading (delisted, merged) or changes its name inside the
 * range, or begins inside it as a security's new name: it has rows for part of the range only.
 * A data call returns those rows and a download fetches those days, and both say so in the
 * same words: the ticker, the date and the reason, from the lookup files (`eq-lookup-files`).
 */
import pl from "nodejs-polars";
import { addDays } from "../../calendar/nyTime.ts";
import { tradingDays } from "../../calendar/calendar.ts";
import type { TickerAsk } from "../query/prepare.ts";
import { EQUITY_TICKER_DATASETS, type TickerSource } from "../service/facts.ts";
import { loadedTickerBook, type TickerBook, tickerBook } from "./tickers.ts";

/** The part of a range a ticker maps to a security: from `since` and up to `until` (undefined: the range's own bound), and why. */
export interface TickerCut {
  /** The ticker asked for. */
  ticker: string;
  /** From this date, `YYYY-MM-DD`. */
  since?: string;
  /** Up to this date, `YYYY-MM-DD`. */
  until?: string;
  /** Why the range is cut, in words. */
  why: string[];
}

/**
 * How the lookup files cut `ticker`'s range `from`..`to` (either open): where it ends inside the
 * range (delisted, merged, renamed) and where it begins inside it (a new name); undefined when
 * it maps to a security over the whole range, or over none of it (refused elsewhere).
 *
 * @example
 * ```ts
 * tickerCut(book, "HES", "2023-12-01", "2024-01-31");
 * // { ticker: "HES", until: "2023-12-19", why: ["HES maps to no security after 2023-12-19 (delisted or merged)"] }
 * ```
 */
export function tickerCut(book: TickerBook, ticker: string, from: string | undefined, to: string | undefined): TickerCut | undefined {
  const spans = book.spans(ticker);
  if (spans.length === 0) return undefined;
  const cut: TickerCut = { ticker, why: [] };
  const lastEnd = spans.map((s) => s.to).sort().at(-1)!;
  if (lastEnd < "2999-01-01" && (from === undefined || lastEnd >= from) && (to === undefined || lastEnd < to)) {
    cut.until = lastEnd;
    cut.why.push(book.endedBefore(ticker, addDays(lastEnd, 1)) ?? `${ticker} maps to no security after ${lastEnd}`);
  }
  const firstStart = spans.some((s) => s.from === undefined) ? undefined : spans.map((s) => s.from!).sort()[0];
  if (firstStart !== undefined && (from === undefined || firstStart > from) && (to === undefined || firstStart <= to)) {
    cut.since = firstStart;
    cut.why.push(book.startedAfter(ticker, addDays(firstStart, -1)) ?? `${ticker} begins on ${firstStart}`);
  }
  return cut.why.length ? cut : undefined;
}

/**
 * The warning of a cut ticker, the same for a data call and a download.
 *
 * @example
 * ```ts
 * cutWarning("eq-daily-ohlc", cut, "2023-12-01", "2024-01-31");
 * // "HES has rows in eq-daily-ohlc only up to 2023-12-19 of 2023-12-01 to 2024-01-31: HES maps to no security after 2023-12-19 (delisted or merged)"
 * ```
 */
export function cutWarning(dataset: string, cut: TickerCut, from: string | undefined, to: string | undefined): string {
  const part = [cut.since ? `from ${cut.since}` : "", cut.until ? `up to ${cut.until}` : ""].filter(Boolean).join(" ");
  return `${cut.ticker} has rows in ${dataset} only ${part} of ${from ?? "its first date"} to ${to ?? "its last date"}: ${
    cut.why.join("; ")
  }`;
}

/**
 * The days of `days` a cut ticker has rows on.
 *
 * @example
 * ```ts
 * daysWithin(cut, ["2023-12-18", "2023-12-19", "2023-12-20"]); // ["2023-12-18", "2023-12-19"] for HES
 * ```
 */
export function daysWithin(cut: TickerCut, days: readonly string[]): string[] {
  return days.filter((d) => (cut.since === undefined || d >= cut.since) && (cut.until === undefined || d <= cut.until));
}

/** The last trading day on or before `date`. */
function lastTradingDay(date: string): string | undefined {
  return tradingDays(addDays(date, -14), date).at(-1)?.date;
}

/**
 * Warnings for the tickers of a data call that the lookup files cut inside the range asked.
 * The lookup files are used when the session holds them, and loaded (one request, once per
 * session) only when an asked ticker's rows end before the range does, or begin after it
 * starts: a call whose tickers all trade throughout pays nothing.
 *
 * @example
 * ```ts
 * await cutWarnings(facts, "eq-daily-ohlc", [{ asked: ["AAPL", "HES"], from: "2023-12-01", to: "2024-01-31" }], [frame]);
 * ```
 */
export async function cutWarnings(
  source: TickerSource,
  dataset: string,
  asks: readonly (TickerAsk | undefined)[],
  frames: readonly pl.DataFrame[],
): Promise<string[]> {
  if (!EQUITY_TICKER_DATASETS.includes(dataset)) return [];
  const warnings: string[] = [];
  for (const [i, ask] of asks.entries()) {
    if (!ask || ask.from === undefined || ask.to === undefined || ask.from === ask.to) continue;
    let book = loadedTickerBook(source);
    if (!book && rowsCutShort(frames[i], ask)) book = await tickerBook(source);
    if (!book) continue;
    for (const ticker of ask.asked) {
      const cut = tickerCut(book, ticker, ask.from, ask.to);
      if (cut) warnings.push(cutWarning(dataset, cut, ask.from, ask.to));
    }
  }
  return [...new Set(warnings)];
}

/** Whether an asked ticker's rows begin after the range's first trading day or end before its last. */
function rowsCutShort(frame: pl.DataFrame | undefined, ask: TickerAsk): boolean {
  if (!frame || frame.height === 0 || !frame.columns.includes("Ticker") || !frame.columns.includes("TradeDate")) return false;
  const last = lastTradingDay(ask.to!);
  const first = tradingDays(ask.from!, addDays(ask.from!, 14))[0]?.date;
  const spans = frame.groupBy("Ticker").agg(
    pl.col("TradeDate").min().cast(pl.String).alias("min"),
    pl.col("TradeDate").max().cast(pl.String).alias("max"),
  );
  const bounds = new Map((spans.toRecords() as { Ticker: string; min: string; max: string }[]).map((r) => [r.Ticker, r]));
  return ask.asked.some((t) => {
    const b = bounds.get(t);
    return b !== undefined && ((last !== undefined && b.max < last) || (first !== undefined && b.min > first));
  });
}
