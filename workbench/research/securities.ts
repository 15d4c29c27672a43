/**
 * One security across its tickers: the equity lookup file (`eq-lookup-files`) maps each ticker
 * to a security id with the last date it was used, so a ticker change (SQ became XYZ) is two
 * rows with one SecId. Here that turns into spans of dates per ticker, and into one continuous
 * series of bars per security.
 */
import pl from "nodejs-polars";
import type { Workbench } from "../client.ts";
import { QueryError } from "../errors/base.ts";

/** A ticker a security used, from the day after the previous ticker's end to `to`. */
export interface TickerSpan {
  /** The security's id (`SecId`, the `ASID` of its bars). */
  secId: number;
  /** The ticker it used in this span. */
  ticker: string;
  /** First date under this ticker (YYYY-MM-DD); undefined for the security's first ticker. */
  from?: string;
  /** Last date under this ticker (YYYY-MM-DD); far in the future while in use. */
  to: string;
}

/** `YYYY-MM-DD` of a date value Polars hands to JS (a UTC-midnight Date). */
export const isoDate = (d: unknown): string => (d instanceof Date ? d.toISOString().slice(0, 10) : String(d).slice(0, 10));

/** The day after an ISO date. */
const nextDay = (iso: string): string => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * Every ticker span of every security in a lookup frame (`wb.data.eqLookupFiles()`), ordered by
 * security and date.
 *
 * @example
 * ```ts
 * tickerSpans(await wb.data.eqLookupFiles()).filter((s) => s.secId === 100013);
 * // [{ ticker: "SQ", to: "2023-11-26" }, { ticker: "XYZ", from: "2023-11-27", to: "2999-12-31" }]
 * ```
 */
export function tickerSpans(lookup: pl.DataFrame): TickerSpan[] {
  const rows = lookup.select("SecId", "Ticker", "EndDate").sort(["SecId", "EndDate"]).toRecords() as unknown as {
    SecId: number | bigint;
    Ticker: string;
    EndDate: Date;
  }[];
  const spans: TickerSpan[] = [];
  for (const row of rows) {
    const secId = Number(row.SecId);
    const previous = spans.at(-1);
    const from = previous && previous.secId === secId ? nextDay(previous.to) : undefined;
    spans.push({ secId, ticker: row.Ticker, from, to: isoDate(row.EndDate) });
  }
  return spans;
}

/**
 * The spans of the security a ticker names (as of `date`, default: its latest use), every
 * ticker of that security included. Throws naming the ticker when the lookup file lacks it.
 *
 * @example
 * ```ts
 * const spans = await securitySpans(wb, "XYZ"); // SQ then XYZ, one SecId
 * ```
 */
export async function securitySpans(wb: Workbench, ticker: string, date?: string): Promise<TickerSpan[]> {
  const spans = tickerSpans(await wb.data.eqLookupFiles());
  const named = spans.filter((s) => s.ticker === ticker && (date === undefined || ((s.from ?? "") <= date && date <= s.to)));
  if (named.length === 0) {
    throw new QueryError(
      `Ticker '${ticker}' is not in the equity lookup file${date ? ` on ${date}` : ""}: known tickers are ${
        [...new Set(spans.map((s) => s.ticker))].sort().join(", ")
      }`,
    );
  }
  const secId = named.at(-1)!.secId;
  return spans.filter((s) => s.secId === secId);
}

/** Which bars `securityBars` fetches, and over which dates. */
export interface SecurityBarsOptions {
  /** `eq-daily-ohlc` (default) or `eq-taq-1min`. */
  dataset?: "eq-daily-ohlc" | "eq-taq-1min";
  /** First and last trade dates (YYYY-MM-DD), inclusive; default: all. */
  from?: string;
  /** Last trade date (YYYY-MM-DD), inclusive; default: all. */
  to?: string;
}

/**
 * Bars of one security under every ticker it used, as one series sorted by time: the SQ bars
 * and the XYZ bars of security 100013 in one frame, whichever of the two tickers is asked.
 * Rows keep the ticker they traded under; `ASID` is the security id throughout.
 *
 * @example
 * ```ts
 * const daily = await securityBars(wb, "XYZ", { from: "2023-11-01" });
 * const minutes = await securityBars(wb, "SQ", { dataset: "eq-taq-1min", from: "2023-11-24", to: "2023-11-27" });
 * ```
 */
export async function securityBars(wb: Workbench, ticker: string, options: SecurityBarsOptions = {}): Promise<pl.DataFrame> {
  const spans = await securitySpans(wb, ticker);
  const secId = spans[0].secId;
  const frames: pl.DataFrame[] = [];
  for (const span of spans) {
    const from = [span.from, options.from].filter((d): d is string => d !== undefined).sort().at(-1);
    const to = [span.to, options.to].filter((d): d is string => d !== undefined).sort()[0];
    if (from !== undefined && from > to) continue;
    const range = { ...(from ? { ge: from } : {}), le: to };
    const frame = options.dataset === "eq-taq-1min"
      ? await wb.data.eqTaq1Min(span.ticker, { filters: { TradeDate: range } })
      : await wb.data.eqDailyOhlc({ filters: { Ticker: span.ticker, TradeDate: range } });
    frames.push(frame.filter(pl.col("ASID").eq(pl.lit(secId))));
  }
  if (frames.length === 0) {
    throw new QueryError(
      `No ticker of security ${secId} (${spans.map((s) => s.ticker).join(", ")}) was in use from ${options.from} to ${options.to}`,
    );
  }
  const time = options.dataset === "eq-taq-1min" ? "BarDateTime" : "TradeDate";
  return pl.concat(frames).sort(time);
}
