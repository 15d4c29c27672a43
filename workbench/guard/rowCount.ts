/**
 * Counts the rows of requests whose rows per symbol the free status cannot tell apart (ticks
 * and option chains, where a liquid name has many times the average; some reference data),
 * with one small paid read per ticker that the estimate reports and counts:
 *
 * - eq-taq (ticks): the ticker's 1-minute bars over the same days, three columns only. Every
 *   bar counts its trades (`TotalTrades`, off-exchange ones included under the default
 *   aggregation) and its NBBO updates (`NBBOQuoteCount`), so a day's ticks are their sums;
 *   trade cancels (a few per thousand trades) are the only rows left out.
 * - option chains (opt-greeks-daily, opt-open-interest): the request itself with only its date
 *   column, on every asked day up to `MAX_SAMPLED_DAYS`, else on that many days spread evenly
 *   from the first to the last, the days between interpolated (a chain changes slowly: a few
 *   expiries listed or expired a week).
 * - reference data whose rows per symbol vary (occ-eq-spec-settl: one row per delivery
 *   component of an adjusted root; eq-lookup-files: one per security a ticker named), asked
 *   for by symbol: the request itself with only the symbol column. For eq-lookup-files the
 *   lookup files the session already holds give it for free.
 *
 * Chain and reference counts keep the request's other filters (a `Strike` range). A tick count
 * keeps an `EventType` filter for trades or quotes (the bars count each); the bars split
 * neither quote sides nor seconds, so a filter on one quote side, on cancels or on another
 * column is counted as the whole days (or all quotes): an upper bound.
 */
import pl from "nodejs-polars";
import { isTradingDay, tradingDays } from "../../calendar/calendar.ts";
import type { DatasetStatus } from "../../contract/mod.ts";
import type { DataEndpoint } from "../query/endpoints.ts";
import { MAX_PAGE_SIZE, type PreparedRequest, type WireCondition } from "../query/prepare.ts";
import type { FilterSpec, Query } from "../query/query.ts";
import { askedDates } from "./estimate.ts";
import type { TickerBook } from "./tickers.ts";

/** How rows were counted: from the ticker's 1-minute bars, from the request on some of its days, or from the request's symbol column. */
export type CountBasis = "minute-bars" | "sampled-days" | "symbol-rows";

/** The datasets whose rows are counted, and how. */
export const COUNTED_DATASETS: Readonly<Record<string, CountBasis>> = {
  "eq-taq": "minute-bars",
  "opt-greeks-daily": "sampled-days",
  "opt-open-interest": "sampled-days",
  "occ-eq-spec-settl": "symbol-rows",
  "eq-lookup-files": "symbol-rows",
};

/** Days an option-chain count reads at most per request; a range of no more is counted exactly. */
export const MAX_SAMPLED_DAYS = 16;

/** Sends a read of the workbench's own (checked against the rules and schema, paged); its caller tallies what it spends. */
export type CountRead = (dataset: string, pathValues: string[], query: Query) => Promise<pl.DataFrame>;

/** The rows of each request of a call, counted. */
export interface RowCount {
  /** How the rows were counted. */
  basis: CountBasis;
  /** Rows of each request, in the order given. */
  rows: number[];
  /** Trading days whose rows were read, and the trading days asked (interpolated between when fewer); absent for reference data. */
  days?: { counted: number; asked: number };
}

/**
 * Counts the rows of `requests` (the units of one call of `endpoint`) with the reads above, or
 * gives undefined for a dataset whose rows the status sizes well enough (and for reference
 * requests naming no symbol: the whole dataset, the status's row count).
 * A failed read (not entitled to the 1-minute bars, a quota hit) rejects: the caller falls back.
 *
 * @example
 * ```ts
 * const count = await countRows(read, dataEndpoint("eq-taq"), [request], status);
 * count?.rows[0]; // the day's ticks, give or take the cancels
 * ```
 */
export async function countRows(
  read: CountRead,
  endpoint: DataEndpoint,
  requests: readonly PreparedRequest[],
  status: DatasetStatus,
  book?: TickerBook,
): Promise<RowCount | undefined> {
  const basis = COUNTED_DATASETS[endpoint.dataset];
  if (basis === "symbol-rows") return await countSymbolRows(read, endpoint, requests, book);
  const first = status.first_available_date, last = status.last_available_date;
  if (!basis || !endpoint.dateColumn || !first || !last) return undefined;
  const answers = basis === "minute-bars"
    ? await countTicks(read, requests, first, last)
    : await Promise.all(requests.map((r) => countSampled(read, endpoint, r, first, last)));
  return {
    basis,
    rows: answers.flatMap((a) => a.rows),
    days: { counted: answers.reduce((n, a) => n + a.counted, 0), asked: answers.reduce((n, a) => n + a.asked, 0) },
  };
}

/**
 * Reference data asked for by symbol, counted by the request with only the symbol column, or,
 * for lookup-file rows asked by ticker alone, from the lookup files' `book` when the session
 * holds it (one row per security a ticker named: its spans); undefined when a request names
 * no symbol (the whole dataset: the status's row count).
 */
async function countSymbolRows(
  read: CountRead,
  endpoint: DataEndpoint,
  requests: readonly PreparedRequest[],
  book?: TickerBook,
): Promise<RowCount | undefined> {
  const column = endpoint.symbol.column;
  const bySymbol = (c: WireCondition) => c.column === column && (c.op === "eq" || c.op === "in");
  if (!requests.every((r) => r.conditions.some(bySymbol))) return undefined;
  if (book && endpoint.dataset === "eq-lookup-files" && requests.every((r) => r.conditions.every(bySymbol))) {
    const rows = requests.map((r) => [...symbolsOf(r.conditions)].reduce((n, t) => n + book.spans(t).length, 0));
    return { basis: "symbol-rows", rows };
  }
  const rows: number[] = [];
  for (const r of requests) {
    rows.push(
      (await read(endpoint.dataset, r.pathValues, { filters: filtersOf(r.conditions, ""), columns: [column], pageSize: MAX_PAGE_SIZE }))
        .height,
    );
  }
  return { basis: "symbol-rows", rows };
}

/** The symbols every eq/in condition allows (their intersection). */
function symbolsOf(conditions: readonly WireCondition[]): Set<string> {
  return conditions.map((c) => new Set(c.texts)).reduce((a, b) => new Set([...a].filter((t) => b.has(t))));
}

interface Part {
  rows: number[];
  counted: number;
  asked: number;
}

/** Values of `column` as YYYY-MM-DD, for counting rows per day. */
const dayTexts = (frame: pl.DataFrame, column: string): string[] =>
  frame.height === 0 ? [] : (frame.getColumn(column).cast(pl.String).toArray() as string[]);

/**
 * Which kinds of ticks a request keeps, from an eq/in filter on `EventType`: trades (`TRADE`)
 * and quotes (either side). Anything else it cannot split (a cancel, another operator) keeps
 * every kind: the whole days, an upper bound.
 */
function tickKinds(conditions: readonly WireCondition[]): { trades: boolean; quotes: boolean } {
  let kinds = { trades: true, quotes: true };
  for (const { column, op, texts } of conditions) {
    if (column !== "EventType") continue;
    if ((op !== "eq" && op !== "in") || texts.some((t) => !["TRADE", "QUOTE BID", "QUOTE ASK"].includes(t))) {
      return { trades: true, quotes: true };
    }
    kinds = { trades: kinds.trades && texts.includes("TRADE"), quotes: kinds.quotes && texts.some((t) => t.startsWith("QUOTE")) };
  }
  return kinds;
}

/**
 * Ticks of eq-taq requests (path: trade date, ticker), one 1-minute read per ticker over its
 * days; a request that keeps only trades (or only quotes) by `EventType` counts those. Returns
 * one part holding every request's rows in order.
 */
async function countTicks(read: CountRead, requests: readonly PreparedRequest[], first: string, last: string): Promise<Part[]> {
  const rows = new Array<number>(requests.length).fill(0);
  const byTicker = new Map<string, number[]>();
  requests.forEach((r, i) => {
    const [date, ticker] = r.pathValues;
    if (date >= first && date <= last && isTradingDay(date)) byTicker.set(ticker, [...(byTicker.get(ticker) ?? []), i]);
  });
  let counted = 0;
  for (const [ticker, indices] of byTicker) {
    const dates = indices.map((i) => requests[i].pathValues[0]).sort();
    const bars = await read("eq-taq-1min", [ticker], {
      filters: { TradeDate: { ge: dates[0], le: dates[dates.length - 1] } },
      columns: ["TradeDate", "TotalTrades", "NBBOQuoteCount"],
      pageSize: MAX_PAGE_SIZE,
    });
    const perDay = new Map<string, { trades: number; quotes: number }>();
    const days = dayTexts(bars, "TradeDate");
    const trades = bars.height === 0 ? [] : bars.getColumn("TotalTrades").toArray() as (number | bigint | null)[];
    const quotes = bars.height === 0 ? [] : bars.getColumn("NBBOQuoteCount").toArray() as (number | bigint | null)[];
    days.forEach((d, k) => {
      const day = perDay.get(d) ?? { trades: 0, quotes: 0 };
      perDay.set(d, { trades: day.trades + Number(trades[k] ?? 0), quotes: day.quotes + Number(quotes[k] ?? 0) });
    });
    for (const i of indices) {
      const day = perDay.get(requests[i].pathValues[0]) ?? { trades: 0, quotes: 0 };
      const kinds = tickKinds(requests[i].conditions);
      rows[i] = (kinds.trades ? day.trades : 0) + (kinds.quotes ? day.quotes : 0);
    }
    counted += new Set(dates).size;
  }
  return [{ rows, counted, asked: counted }];
}

/** The days to read of `n` asked ones: all of them up to MAX_SAMPLED_DAYS, else that many spread evenly, both ends included. */
export function sampledIndices(n: number, most = MAX_SAMPLED_DAYS): number[] {
  if (n <= most) return [...Array(n).keys()];
  return [...new Set([...Array(most).keys()].map((i) => Math.round((i * (n - 1)) / (most - 1))))];
}

/** The request's filters, as a query's, without those on `skip`. */
function filtersOf(conditions: readonly WireCondition[], skip: string): Record<string, FilterSpec> {
  const filters: Record<string, Record<string, string | string[]>> = {};
  for (const { column, op, texts } of conditions) {
    if (column === skip) continue;
    (filters[column] ??= {})[op] = op === "in" ? [...texts] : texts[0];
  }
  return filters as Record<string, FilterSpec>;
}

/** One request of an option chain, counted on some of its days with only the date column. */
async function countSampled(read: CountRead, endpoint: DataEndpoint, request: PreparedRequest, first: string, last: string): Promise<Part> {
  const column = endpoint.dateColumn!;
  const asked = askedDates(endpoint, request, request.pathValues, first, last);
  const days = asked.listed
    ? asked.listed.filter(isTradingDay)
    : asked.low > asked.high
    ? []
    : tradingDays(asked.low, asked.high).map((d) => d.date);
  if (days.length === 0) return { rows: [0], counted: 0, asked: 0 };
  const picked = sampledIndices(days.length);
  const frame = await read(endpoint.dataset, request.pathValues, {
    filters: { ...filtersOf(request.conditions, column), [column]: { in: picked.map((i) => days[i]) } },
    columns: [column],
    pageSize: MAX_PAGE_SIZE,
    ...(request.variant ? { aggregation: request.variant[1] } : {}),
  });
  const perDay = new Map<string, number>();
  for (const d of dayTexts(frame, column)) perDay.set(d, (perDay.get(d) ?? 0) + 1);
  const at = picked.map((i) => perDay.get(days[i]) ?? 0);
  let rows = 0;
  for (let k = 0; k < picked.length; k++) {
    rows += at[k];
    if (k === picked.length - 1) break;
    // The days between two read ones, on the line between their counts.
    const [a, b] = [picked[k], picked[k + 1]];
    for (let i = a + 1; i < b; i++) rows += at[k] + ((at[k + 1] - at[k]) * (i - a)) / (b - a);
  }
  return { rows: [rows], counted: picked.length, asked: days.length };
}
