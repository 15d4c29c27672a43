/**
 * What a data call asks for, as a notebook user writes it, and its translation into the
 * service's query parameters.
 */
import { QueryError } from "../errors/base.ts";
import type { WireFormat } from "../frames/frames.ts";
import type { ProgressEvent } from "../progress/progress.ts";

/** A filter value: text, a number, or a JS Date (a date column takes its UTC calendar date). */
export type FilterValue = string | number | bigint | Date;

/** The filter operators the service understands. */
export const OPERATORS = ["eq", "gt", "ge", "lt", "le", "in", "like", "ilike"] as const;
/** A filter operator: `eq`, `gt`, `ge`, `lt`, `le`, `in`, `like` or `ilike`. */
export type Operator = (typeof OPERATORS)[number];

/** `value` is equality, an array is `in`, an object combines operators: `{ ge: "2023-11-21", le: "2023-11-22" }`. */
export type FilterSpec = FilterValue | FilterValue[] | Partial<Record<Operator, FilterValue | FilterValue[]>>;

/** What a data call may ask besides its path values: filters, columns, sort, limits, format, progress. */
export interface Query {
  /** Column filters: `{ Ticker: "AAPL", TradeDate: { ge: "2023-11-21", le: "2023-11-22" } }`. */
  filters?: Record<string, FilterSpec>;
  /** Columns to return, in this order. */
  columns?: string[];
  /** Sort columns, `-` for descending: `"-Volume"` or `["TradeDate", "-Volume"]`. */
  sort?: string | string[];
  /** Stop after this many rows. */
  maxRows?: number;
  /** `aggregation_logic` of eq-taq-1min: `core` (default) or `no_finra_trf`. */
  aggregation?: string;
  /**
   * Wire format; all give identical frames. Without it the call chooses plain CSV where the
   * connection is fast and `csv_gzip` where bytes cost more than CPU, from what its pages
   * measure (http/wireChoice.ts), and says which in its progress (`wireFormat`).
   */
  format?: WireFormat;
  /** Rows per request (1 to 100000; default 100000). */
  pageSize?: number;
  /**
   * Requests in flight, within the per-minute quota: units (tickers, days) run at once, and
   * pages at once after each unit's first. Default: a call of several units keeps eight in
   * flight in all (up to eight units, their pages sharing the eight); a call of one unit pages
   * four at once (fetch/inFlight.ts).
   */
  concurrency?: number;
  /** Called as pages arrive. */
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Stops the call when it fires (an AbortController's signal, `AbortSignal.timeout(ms)`): its
   * requests are aborted and it ends with an InterruptedError keeping the rows fetched so far.
   * In a notebook the kernel's interrupt (the stop button) does the same without one.
   */
  signal?: AbortSignal;
}

/** One filter condition, flattened. */
export interface Condition {
  /** The column filtered. */
  column: string;
  /** The operator: `eq`, `in`, `ge`, ... */
  op: string;
  /** The values, as given. */
  values: FilterValue[];
}

/** Flattens the filter object into conditions, in the order written. */
export function conditions(filters: Query["filters"] = {}): Condition[] {
  const out: Condition[] = [];
  for (const [column, spec] of Object.entries(filters)) {
    if (Array.isArray(spec)) out.push({ column, op: "in", values: spec });
    else if (spec !== null && typeof spec === "object" && !(spec instanceof Date)) {
      for (const [op, v] of Object.entries(spec)) out.push({ column, op, values: Array.isArray(v) ? v : [v as FilterValue] });
    } else out.push({ column, op: "eq", values: [spec as FilterValue] });
  }
  return out;
}

/** A value as the service reads it: dates `YYYY-MM-DD`, date-times ISO 8601. */
export function wireValue(value: FilterValue, type: string | undefined): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) {
      throw new QueryError("Invalid Date given as a filter value: give a real Date or a date as YYYY-MM-DD");
    }
    return type === "date" ? value.toISOString().slice(0, 10) : value.toISOString();
  }
  return String(value);
}

/** The sort list as `-Col,+Col`. */
export function sortList(sort: Query["sort"]): string[] {
  if (sort === undefined) return [];
  return (Array.isArray(sort) ? sort : sort.split(",")).map((s) => s.trim()).filter(Boolean);
}
