/**
 * What a download would take (requests, rows, bytes) against the remaining quotas, from free
 * metadata only (dataset status and schema), so estimating spends no quota. Rows are scaled
 * from the dataset's row count by the share of its trading days (and tickers) the query keeps:
 * an estimate, not a count.
 */
import { tradingDays } from "../../calendar/calendar.ts";
import type { DatasetStatus, Quotas, QuotaValues } from "../../contract/mod.ts";
import type { DataEndpoint } from "../query/endpoints.ts";
import type { ColumnInfo } from "../frames/frames.ts";
import type { PreparedRequest } from "../query/prepare.ts";

/**
 * What `wb.estimate(...)` gives: a download's requests, rows and bytes (an estimate from free
 * metadata, not a count), against the quotas left.
 */
export interface Estimate {
  /** The dataset's id, e.g. `eq-taq-1min`. */
  dataset: string;
  /** Rows the query would return, scaled from the dataset's row count. */
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
}

/** Bytes per CSV field by type, measured on the sandbox's data. */
const FIELD_BYTES: Record<ColumnInfo["data_type"], number> = { date: 11, datetime_ns: 36, datetime_ms: 30, int64: 8, float64: 9, string: 7, list_string: 24 };

/** NYSE trading days from a to b, both inclusive (0 when b is before a). */
const days = (a: string, b: string) => (a > b ? 0 : tradingDays(a, b).length);

/**
 * The estimate of one request from free metadata.
 *
 * @example
 * ```ts
 * const e = estimateDownload(dataEndpoint("eq-taq-1min"), request, status, quotas, ["AAPL"]);
 * e.rows; e.requests; e.fitsMonthlyQuota;
 * ```
 */
export function estimateDownload(endpoint: DataEndpoint, request: PreparedRequest, status: DatasetStatus, quotas: Quotas, pathValues: readonly string[] = []): Estimate {
  let rows = status.row_count;
  const first = status.first_available_date, last = status.last_available_date;
  const dateColumn = endpoint.dateColumn;
  if (first && last && dateColumn) {
    let low = first, high = last;
    let listed: number | undefined; // dates named one by one (eq, in, or the trade_date path)
    const pathDate = pathValues[endpoint.pathParams.indexOf("trade_date")];
    const pathCondition = pathDate ? [{ column: dateColumn, op: "eq", texts: [pathDate] }] : [];
    for (const { column, op, texts } of [...request.conditions, ...pathCondition]) {
      if (column !== dateColumn) continue;
      const values = [...texts].sort();
      if (op === "eq" || op === "in") listed = Math.min(listed ?? values.length, values.length);
      if (op === "ge" || op === "gt") low = values[0] > low ? values[0] : low;
      if (op === "le" || op === "lt") high = values[0] < high ? values[0] : high;
    }
    const all = Math.max(1, days(first, last));
    rows = listed !== undefined ? (rows * listed) / all : (rows * days(low, high)) / all;
  }
  const tickers = typeof status.ticker_count === "number" ? status.ticker_count : undefined;
  const tickerFilter = request.conditions.find((c) => c.column === endpoint.tickerColumn && (c.op === "eq" || c.op === "in"));
  const pathTicker = endpoint.pathParams.includes("ticker");
  if (tickers && (pathTicker || tickerFilter)) rows = (rows * (pathTicker ? 1 : tickerFilter!.texts.length)) / tickers;
  return finish(endpoint, request, rows, quotas);
}

function finish(endpoint: DataEndpoint, request: PreparedRequest, rawRows: number, quotas: Quotas): Estimate {
  const rows = Math.min(Math.ceil(rawRows), request.maxRows);
  const bytesPerRow = request.columns.reduce((n, c) => n + FIELD_BYTES[c.data_type] + 1, 0);
  const requests = Math.max(1, Math.ceil(rows / request.pageSize) + 1);
  const bytes = rows * bytesPerRow;
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
  };
}
