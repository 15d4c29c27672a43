/**
 * Universe and range calls: turns "these tickers (and dates), from `start` to `end`" into the
 * list of single requests (units) the service answers, in the order asked: tickers in the
 * order given, dates ascending within each ticker. A `start`/`end` range becomes a TradeDate
 * filter, or (for a dataset whose trade date is in the path) the NYSE trading days between.
 */
import { tradingDays } from "../../calendar/calendar.ts";
import type { DataEndpoint } from "./endpoints.ts";
import { QueryError } from "../errors/base.ts";
import { conditions, type FilterSpec, type Query } from "./query.ts";
import { type DateLike, type DateRange, dateRange, isoDate } from "./dates.ts";
import { checkPathArgs, checkQuery } from "./checkInput.ts";

/** A data call: the query, plus a `start`/`end` range and `force` (past the quota guard). */
export interface DataQuery extends Query {
  /** First trade date, inclusive (`"2023-11-20"` or a Date: its UTC date). */
  start?: DateLike;
  /** Last trade date, inclusive. */
  end?: DateLike;
  /** Run even when the quota guard judges the call too large for the month. */
  force?: boolean;
}

/** A data call planned: its units (one path-value list per request) and the query each is asked with. */
export interface CallPlan {
  /** The endpoint called. */
  endpoint: DataEndpoint;
  /** One path-value list per single request, in the order asked. */
  units: string[][];
  /** The query of every unit: the call's, with the range as a trade-date filter. */
  base: Query;
  /** The call's `start`/`end`. */
  range: DateRange;
  /** Whether `force` was given: a query larger than the quota guard allows goes ahead. */
  force: boolean;
  /** A query per unit where units differ by more than their path values (a download's date chunks). */
  unitQueries?: Query[];
}

/**
 * Plans a data call: checks its shape (before any request, in the single-call words), turns
 * `start`/`end` into a filter or trade dates, and lists its units.
 *
 * @example
 * ```ts
 * planCall(dataEndpoint("eq-taq-1min"), [["SPY", "QQQ"]], { start: "2023-11-20", end: "2023-11-24" }).units; // [["SPY"], ["QQQ"]]
 * ```
 */
export function planCall(endpoint: DataEndpoint, pathArgs: readonly PathArg[], query: DataQuery): CallPlan {
  checkPathArgs(endpoint, pathArgs);
  const { start, end, force, ...rest } = checkQuery(query) as DataQuery;
  const range = dateRange(start, end);
  const base = withRange(endpoint, rest, range);
  return { endpoint, units: planUnits(endpoint, pathArgs, range), base, range, force: force ?? false };
}

/** One path value, a list of them, or nothing (a trade date filled from `start`/`end`). */
export type PathArg = DateLike | readonly DateLike[] | null | undefined;

const hasRange = (r: DateRange) => r.start !== undefined || r.end !== undefined;

/**
 * The query with the range added as a filter on the dataset's trade-date column. A filter on
 * that column that sets the same bound (or lists dates) conflicts with the range: refused.
 */
function withRange(endpoint: DataEndpoint, query: Query, range: DateRange): Query {
  if (!hasRange(range)) return query;
  const column = endpoint.dateColumn;
  if (!column) {
    throw new QueryError(`${endpoint.dataset} has no trade-date column: start/end do not apply (drop them, or filter another column)`);
  }
  if (endpoint.pathParams.includes("trade_date")) return query; // the dates become path values
  const given = query.filters?.[column];
  const spec: Record<string, unknown> = given === undefined
    ? {}
    : Array.isArray(given)
    ? { in: given }
    : typeof given === "object" && !(given instanceof Date)
    ? { ...given }
    : { eq: given };
  const clash = (bound: string, ops: string[]) =>
    ops.filter((op) => op in spec).map((op) => `filters.${column}.${op}`).map((f) => `${bound} and ${f}`);
  const conflicts = [
    ...(range.start ? clash("start", ["ge", "gt", "eq", "in"]) : []),
    ...(range.end ? clash("end", ["le", "lt", "eq", "in"]) : []),
  ];
  if (conflicts.length > 0) {
    throw new QueryError(
      `The range conflicts with the filters: ${conflicts.join(", ")} both bound ${column}; give each bound once (start/end or the filter)`,
    );
  }
  if (range.start) spec.ge = range.start;
  if (range.end) spec.le = range.end;
  return { ...query, filters: { ...query.filters, [column]: spec as FilterSpec } };
}

const asList = (arg: PathArg): DateLike[] => (arg === null || arg === undefined ? [] : Array.isArray(arg) ? [...arg] : [arg as DateLike]);

/**
 * The units of a call: one path-value list per single request, tickers in the order asked
 * (duplicates once), dates ascending within each ticker.
 *
 * @example
 * ```ts
 * planUnits(dataEndpoint("eq-taq"), [null, ["AAPL", "MSFT"]], { start: "2023-11-21", end: "2023-11-22" });
 * // [["2023-11-21","AAPL"], ["2023-11-22","AAPL"], ["2023-11-21","MSFT"], ["2023-11-22","MSFT"]]
 * ```
 */
function planUnits(endpoint: DataEndpoint, pathArgs: readonly PathArg[], range: DateRange): string[][] {
  if (pathArgs.length > endpoint.pathParams.length) {
    throw new QueryError(
      `${endpoint.dataset} takes ${endpoint.pathParams.length} path value(s) (${
        endpoint.pathParams.join(", ") || "none"
      }), got ${pathArgs.length}`,
    );
  }
  const lists = endpoint.pathParams.map((param, i) => {
    const given = asList(pathArgs[i]);
    if (param !== "trade_date") {
      if (given.length === 0) throw new QueryError(`${endpoint.dataset} needs a ${param}: none was given`);
      for (const v of given) if (typeof v !== "string") throw new QueryError(`${endpoint.dataset} ${param} must be text, got ${String(v)}`);
      return [...new Set(given as string[])];
    }
    if (given.length > 0 && hasRange(range)) {
      throw new QueryError(`Give ${endpoint.dataset}'s trade dates either as path values or as start/end, not both`);
    }
    if (given.length > 0) return [...new Set(given.map((d) => isoDate(d, "trade date")))].sort();
    if (!hasRange(range)) throw new QueryError(`${endpoint.dataset} needs a trade date (or start and end): none was given`);
    if (!range.start || !range.end) {
      throw new QueryError(
        `${endpoint.dataset} needs both start and end to list its trade dates (got ${range.start ? "start" : "end"} only)`,
      );
    }
    return tradingDays(range.start, range.end).map((d) => d.date);
  });
  let units: string[][] = [[]];
  for (const list of lists) units = units.flatMap((u) => list.map((v) => [...u, v]));
  const tickerAt = endpoint.pathParams.indexOf("ticker");
  const dateAt = endpoint.pathParams.indexOf("trade_date");
  if (tickerAt >= 0 && dateAt >= 0) {
    const order = new Map(lists[tickerAt].map((t, i) => [t, i]));
    units.sort((a, b) => order.get(a[tickerAt])! - order.get(b[tickerAt])! || (a[dateAt] < b[dateAt] ? -1 : a[dateAt] > b[dateAt] ? 1 : 0));
  }
  return units;
}

/**
 * The tickers (or option roots) each unit of a plan asks for: its ticker path value, else the
 * values its query's ticker filter lists (none when it lists none: every ticker).
 *
 * @example
 * ```ts
 * unitTickers(planCall(dataEndpoint("eq-taq-1min"), [["SPY", "QQQ"]], { start: "2023-11-21", end: "2023-11-21" })); // [["SPY"], ["QQQ"]]
 * ```
 */
export function unitTickers(plan: CallPlan): string[][] {
  const at = plan.endpoint.pathParams.indexOf("ticker");
  if (at >= 0) return plan.units.map((u) => [u[at]]);
  const column = plan.endpoint.tickerColumn;
  const listed = (query: Query) =>
    conditions(query.filters).filter((c) => c.column === column && (c.op === "eq" || c.op === "in")).flatMap((c) => c.values.map(String));
  return plan.units.map((_, i) => (column ? listed(plan.unitQueries?.[i] ?? plan.base) : []));
}
