/**
 * What a download would take (requests, rows, bytes) against the remaining quotas, from free
 * metadata only (dataset status and schema, and the lookup files when the session already has
 * them), so estimating spends no quota. Rows are scaled from the dataset's row count by the
 * share of its ticker-days the query keeps: an estimate, not a count. Where a dataset's rows
 * per ticker and day are even (1-minute bars, daily bars) it is close to exact; where they
 * vary by ticker (ticks, option chains) it is the average ticker's, which the status cannot
 * refine: `wb.estimate` counts those with a small read of its own (rowCount.ts, estimateCall.ts),
 * while the quota guard, which judges every call, stays on this free estimate.
 */
import { tradingDays } from "../../calendar/calendar.ts";
import type { DatasetStatus, Quotas, QuotaValues } from "../../contract/mod.ts";
import type { DataEndpoint } from "../query/endpoints.ts";
import type { ColumnInfo } from "../frames/frames.ts";
import type { PreparedRequest } from "../query/prepare.ts";
import { EQUITY_TICKER_DATASETS, type ServiceFacts } from "../service/facts.ts";
import { loadedTickerBook, type TickerBook } from "./tickers.ts";

/**
 * What `wb.estimate(...)` gives: a call's requests, rows and bytes against the quotas left,
 * and how the rows were found (`basis`): scaled from free metadata, or counted by a small
 * read of the estimate's own, whose cost `lookupRequests` and `lookupBytes` give.
 */
export interface Estimate {
  /** The dataset's id, e.g. `eq-taq-1min`. */
  dataset: string;
  /** Rows the call would return: scaled from the dataset's row count, or counted (see `basis`). */
  rows: number;
  /** Requests it would send (pages, per ticker or ticker-day). */
  requests: number;
  /** Bytes it would download, as CSV. */
  bytes: number;
  /** The quotas left now (limit minus usage). */
  remaining: QuotaValues;
  /** Whether the monthly request and byte quotas left can take it. */
  fitsMonthlyQuota: boolean;
  /** Minutes the requests take at the per-minute quota. */
  minutesAtRateLimit: number;
  /**
   * How `rows` was found: `"metadata"`, scaled from the dataset's status (free; exact where
   * every ticker has the same rows a day, the average ticker's where rows vary by ticker);
   * `"minute-bars"`, a tick call's rows counted from the ticker's 1-minute bars (their trades
   * and NBBO updates per day; trade cancels left out); `"sampled-days"`, an option chain's
   * rows counted on its days (see `countedDays`), interpolated between when there are many;
   * `"symbol-rows"`, reference data whose rows per symbol vary (occ-eq-spec-settl,
   * eq-lookup-files) counted by reading the asked symbols' rows with one column (for
   * eq-lookup-files, from the lookup files the session holds, free). A tick count keeps an
   * `EventType` filter for trades or quotes; other filters leave it an upper bound.
   */
  basis: "metadata" | "minute-bars" | "sampled-days" | "symbol-rows";
  /** Requests the estimate itself sent to count rows (0 when it tried none): spent from the same quotas, already out of `remaining`. */
  lookupRequests: number;
  /** Bytes those requests returned. */
  lookupBytes: number;
  /** For a count: the trading days whose rows were read, and the days asked (`counted < asked`: the rest interpolated). */
  countedDays?: { counted: number; asked: number };
  /** Why a count was tried and could not be made (e.g. not entitled to the 1-minute bars), leaving `basis` at `"metadata"`. */
  lookupFailure?: string;
}

/** How an estimate's rows were found and what finding them spent. */
export type EstimateBasis = Pick<Estimate, "basis" | "lookupRequests" | "lookupBytes" | "countedDays" | "lookupFailure">;

/** Bytes per CSV field by type, measured on the sandbox's data. */
const FIELD_BYTES: Record<ColumnInfo["data_type"], number> = {
  date: 11,
  datetime_ns: 36,
  datetime_ms: 30,
  int64: 8,
  float64: 9,
  string: 7,
  list_string: 24,
};

/** NYSE trading days from a to b, both inclusive (0 when b is before a). */
const days = (a: string, b: string) => (a > b ? 0 : tradingDays(a, b).length);

/**
 * What sizes a per-ticker estimate beyond the dataset's status: the ticker-days the dataset's
 * rows spread over, and the lookup files' book, which says when each ticker traded under its
 * name. Both optional: without them rows spread evenly over `ticker_count` tickers.
 */
export interface EstimateContext {
  /** Ticker-days over the dataset's dates (e.g. eq-daily-ohlc's row count: one row per ticker and day). */
  tickerDays?: number;
  /** The lookup files, when the session has them: each ticker counts only the days it traded as that name. */
  book?: TickerBook;
}

/**
 * The context of an estimate from what is free: the lookup files if this session has loaded
 * them (never loaded for an estimate), else, for an equity dataset, eq-daily-ohlc's row count
 * as its ticker-days (one row per ticker and trading day) when the identity may read it over
 * the same dates.
 *
 * @example
 * ```ts
 * const context = await estimateContext(facts, await facts.guardStatus("eq-taq-1min"));
 * ```
 */
export async function estimateContext(facts: ServiceFacts, status: DatasetStatus): Promise<EstimateContext> {
  const dataset = status.dataset_text_id, first = status.first_available_date, last = status.last_available_date;
  if (!EQUITY_TICKER_DATASETS.includes(dataset) || !first || !last) return {};
  const book = loadedTickerBook(facts);
  if (book) return { book, tickerDays: tickerDaysOf(book, first, last) };
  if (!(await facts.rules()).some((r) => r.dataset_text_id === "eq-daily-ohlc")) return {};
  const daily = await facts.guardStatus("eq-daily-ohlc").catch(() => undefined);
  const sameDates = daily?.first_available_date === first && daily?.last_available_date === last;
  return sameDates ? { tickerDays: daily!.row_count } : {};
}

/** The dates a request asks for on the dataset's date column: listed ones, or a range, within the data's dates. */
export function askedDates(
  endpoint: DataEndpoint,
  request: PreparedRequest,
  pathValues: readonly string[],
  first: string,
  last: string,
): { listed?: string[]; low: string; high: string } {
  const dateColumn = endpoint.dateColumn!;
  let low = first, high = last;
  let listed: string[] | undefined; // dates named one by one (eq, in, or the trade_date path)
  const pathDate = pathValues[endpoint.pathParams.indexOf("trade_date")];
  const pathCondition = pathDate ? [{ column: dateColumn, op: "eq", texts: [pathDate] }] : [];
  for (const { column, op, texts } of [...request.conditions, ...pathCondition]) {
    if (column !== dateColumn) continue;
    const values = [...texts].sort();
    if (op === "eq" || op === "in") listed = listed ? listed.filter((d) => values.includes(d)) : values;
    if (op === "ge" || op === "gt") low = values[0] > low ? values[0] : low;
    if (op === "le" || op === "lt") high = values[0] < high ? values[0] : high;
  }
  return { listed: listed?.filter((d) => d >= low && d <= high), low, high };
}

/** The symbols a request names (its ticker path value, or an eq/in filter on its symbol column), if any. */
function askedSymbols(endpoint: DataEndpoint, request: PreparedRequest, pathValues: readonly string[]): string[] | undefined {
  const pathTicker = pathValues[endpoint.pathParams.indexOf("ticker")];
  if (endpoint.pathParams.includes("ticker") && pathTicker !== undefined) return [pathTicker];
  const column = endpoint.tickerColumn ?? endpoint.symbol?.column;
  const filter = request.conditions.find((c) => c.column === column && (c.op === "eq" || c.op === "in"));
  return filter ? [...new Set(filter.texts)] : undefined;
}

/** Trading days of `asked` within [from, to] (either open). */
function daysWithin(asked: { listed?: string[]; low: string; high: string }, from = "0000-01-01", to = "9999-12-31"): number {
  if (asked.listed) return asked.listed.filter((d) => d >= from && d <= to && tradingDays(d, d).length === 1).length;
  return days(asked.low > from ? asked.low : from, asked.high < to ? asked.high : to);
}

/**
 * The ticker-days over a dataset's dates, from the lookup files: each ticker's trading days
 * under its name within [first, last].
 */
function tickerDaysOf(book: TickerBook, first: string, last: string): number {
  const all = { low: first, high: last };
  return book.tickers.reduce((n, t) => n + book.spans(t).reduce((m, s) => m + daysWithin(all, s.from, s.to), 0), 0);
}

/**
 * The estimate of one request from free metadata. Rows spread evenly over the dataset's
 * ticker-days (from `context`, else `ticker_count` times its trading days); a ticker counts
 * the days it traded under that name when the lookup files are known. A dataset without a
 * trade date (reference data) gives at least one row per symbol asked.
 *
 * @example
 * ```ts
 * const e = estimateDownload(dataEndpoint("eq-taq-1min"), request, status, quotas, ["AAPL"]);
 * e.rows; e.requests; e.fitsMonthlyQuota;
 * ```
 */
export function estimateDownload(
  endpoint: DataEndpoint,
  request: PreparedRequest,
  status: DatasetStatus,
  quotas: Quotas,
  pathValues: readonly string[] = [],
  context: EstimateContext = {},
): Estimate {
  let rows = status.row_count;
  const first = status.first_available_date, last = status.last_available_date;
  const tickers = typeof status.ticker_count === "number" && status.ticker_count > 0 ? status.ticker_count : undefined;
  const symbols = askedSymbols(endpoint, request, pathValues);
  if (first && last && endpoint.dateColumn) {
    const asked = askedDates(endpoint, request, pathValues, first, last);
    const all = Math.max(1, days(first, last));
    if (symbols && (context.tickerDays || tickers)) {
      const tickerDays = context.tickerDays || tickers! * all;
      const book = context.book;
      const dayCount = symbols.reduce(
        (n, t) => n + (book?.has(t) ? book.spans(t).reduce((m, s) => m + daysWithin(asked, s.from, s.to), 0) : daysWithin(asked)),
        0,
      );
      rows = (rows * dayCount) / Math.max(1, tickerDays);
    } else {
      rows = (rows * daysWithin(asked)) / all;
    }
  } else if (symbols && tickers) {
    // Reference data: about row_count / ticker_count rows per symbol, and a symbol asked for has its row.
    rows = Math.min(rows, symbols.length * Math.max(1, Math.round(rows / tickers)));
  }
  return estimateOfRows(endpoint, request, rows, quotas);
}

/**
 * The estimate of one request known to return about `rawRows` rows: its pages, bytes and the
 * quotas left (basis `"metadata"`; `combineEstimates` sets another).
 *
 * @example
 * ```ts
 * estimateOfRows(dataEndpoint("eq-taq"), request, 23_894, quotas).requests; // 3 pages of 10,000
 * ```
 */
export function estimateOfRows(endpoint: DataEndpoint, request: PreparedRequest, rawRows: number, quotas: Quotas): Estimate {
  const rows = Math.min(Math.round(rawRows), request.maxRows);
  const bytesPerRow = request.columns.reduce((n, c) => n + FIELD_BYTES[c.data_type] + 1, 0);
  // The last page says it is the last (next_offset null), so a full last page needs no empty one after it.
  const requests = Math.max(1, Math.ceil(rows / request.pageSize));
  return againstQuotas(endpoint, rows, requests, rows * bytesPerRow, quotas, { basis: "metadata", lookupRequests: 0, lookupBytes: 0 });
}

/** An estimate of `rows`, `requests` and `bytes`, judged against the quotas left (limit minus usage, never below 0). */
function againstQuotas(
  endpoint: DataEndpoint,
  rows: number,
  requests: number,
  bytes: number,
  quotas: Quotas,
  basis: EstimateBasis,
): Estimate {
  const remaining = Object.fromEntries(
    Object.entries(quotas.quotas_limit).map(([k, limit]) => [k, Math.max(0, limit - quotas.quotas_usage[k as keyof QuotaValues])]),
  ) as unknown as QuotaValues;
  return {
    dataset: endpoint.dataset,
    rows,
    requests,
    bytes,
    remaining,
    fitsMonthlyQuota: requests <= remaining.monthly_requests && bytes <= remaining.monthly_data_returned,
    minutesAtRateLimit: requests / Math.max(1, quotas.quotas_limit.per_minute_requests),
    ...basis,
  };
}

/**
 * The estimate of a call from its requests' estimates: rows, requests and bytes summed, judged
 * against the quotas left, with the call's basis.
 *
 * @example
 * ```ts
 * combineEstimates(endpoint, [monday, tuesday], quotas, { basis: "metadata", lookupRequests: 0, lookupBytes: 0 }).requests;
 * ```
 */
export function combineEstimates(endpoint: DataEndpoint, each: readonly Estimate[], quotas: Quotas, basis: EstimateBasis): Estimate {
  const sum = (f: (e: Estimate) => number) => each.reduce((n, e) => n + f(e), 0);
  return againstQuotas(endpoint, sum((e) => e.rows), sum((e) => e.requests), sum((e) => e.bytes), quotas, basis);
}
