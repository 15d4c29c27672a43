/**
 * The shape of a data call, checked before anything is sent: option names (an unknown one
 * is named with the nearest known one), each option's type, every filter value, and the path
 * values. A mistake is a QueryError naming the option or value and what is allowed, never a
 * TypeError from deep inside, a request sent with "null" in it, or a filter silently dropped.
 */
import type { DataEndpoint } from "./endpoints.ts";
import { QueryError } from "../errors/base.ts";
import { didYouMean } from "../errors/nearest.ts";
import { OPERATORS, type Query } from "./query.ts";

/** The options a data call takes (a call adding options adds their names here). */
const QUERY_OPTIONS: string[] = [
  "filters",
  "columns",
  "sort",
  "maxRows",
  "aggregation",
  "format",
  "pageSize",
  "concurrency",
  "onProgress",
  "signal",
  "start",
  "end",
  "force",
];

/** A value as a message shows it: `null`, `true (boolean)`, `{} (object)`, `'x'`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "string") return `'${value}'`;
  if (typeof value === "number" && !Number.isFinite(value)) return `${value} (number)`; // JSON would say null
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "an Invalid Date" : value.toISOString();
  if (typeof value === "function") return "a function";
  let text: string;
  try {
    text = typeof value === "bigint" ? `${value}n` : JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return `${text.length > 60 ? `${text.slice(0, 57)}...` : text} (${Array.isArray(value) ? "array" : typeof value})`;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date);

/** One filter value: text, a finite number, a BigInt or a valid Date. */
function checkFilterValue(where: string, value: unknown): void {
  const ok = typeof value === "string" || typeof value === "bigint" || (typeof value === "number" && Number.isFinite(value)) ||
    (value instanceof Date && !Number.isNaN(value.getTime()));
  if (!ok) {
    throw new QueryError(
      `${where} is ${describeValue(value)}: a filter value is text, a finite number or a valid Date` +
        (value === null || value === undefined ? "; to drop the filter, leave the column out" : ""),
    );
  }
}

function checkFilters(filters: unknown): void {
  if (!isPlainObject(filters)) {
    throw new QueryError(
      `filters is ${describeValue(filters)}: give an object such as { Ticker: "AAPL", TradeDate: { ge: "2023-11-21" } }`,
    );
  }
  for (const [column, spec] of Object.entries(filters)) {
    const where = `filters.${column}`;
    if (Array.isArray(spec)) {
      if (spec.length === 0) throw new QueryError(`${where} is an empty list: an 'in' filter needs at least one value`);
      spec.forEach((v, i) => checkFilterValue(`${where}[${i}]`, v));
    } else if (isPlainObject(spec)) {
      const ops = Object.keys(spec);
      if (ops.length === 0) {
        throw new QueryError(
          `${where} is {} (no operator): give a value, a list, or operators such as { ge: ..., le: ... } (${OPERATORS.join(", ")})`,
        );
      }
      for (const op of ops) {
        if (!(OPERATORS as readonly string[]).includes(op)) {
          throw new QueryError(`Unknown operator '${op}' in ${where}${didYouMean(op, OPERATORS)}: operators are ${OPERATORS.join(", ")}`);
        }
        const v = spec[op];
        if (Array.isArray(v)) {
          if (v.length === 0) throw new QueryError(`${where}.${op} is an empty list`);
          v.forEach((x, i) => checkFilterValue(`${where}.${op}[${i}]`, x));
        } else checkFilterValue(`${where}.${op}`, v);
      }
    } else checkFilterValue(where, spec);
  }
}

function checkNameList(option: "columns" | "sort", value: unknown, allowText: boolean): void {
  if (typeof value === "string" && allowText) return;
  if (!Array.isArray(value)) {
    const hint = typeof value === "string" ? ` (did you mean ["${value}"]?)` : "";
    throw new QueryError(
      `${option} is ${describeValue(value)}${hint}: give a list of column names${allowText ? ' or one name such as "-Volume"' : ""}`,
    );
  }
  if (value.length === 0) {
    throw new QueryError(
      `${option} is an empty list: name at least one column${option === "columns" ? ", or leave columns out for all of them" : ""}`,
    );
  }
  value.forEach((v, i) => {
    if (typeof v !== "string" || v.trim() === "") throw new QueryError(`${option}[${i}] is ${describeValue(v)}: column names are text`);
  });
}

function checkNumber(option: string, value: unknown): void {
  if (typeof value !== "number") throw new QueryError(`${option} is ${describeValue(value)}: give a whole number`);
}

/**
 * The query, checked for shape: names and types of options and filters (values' meaning is
 * checked against the dataset's schema later, in prepareRequest).
 *
 * @example
 * ```ts
 * checkQuery({ filter: { Ticker: "AAPL" } }); // QueryError: Unknown option 'filter' (did you mean 'filters'?) ...
 * ```
 */
export function checkQuery(query: unknown): Query {
  if (query === undefined) return {};
  if (!isPlainObject(query)) {
    throw new QueryError(
      `The query is ${describeValue(query)}: pass an object of options such as { filters: { TradeDate: "2023-11-21" } }, or nothing`,
    );
  }
  for (const name of Object.keys(query)) {
    if (!QUERY_OPTIONS.includes(name)) {
      throw new QueryError(`Unknown option '${name}'${didYouMean(name, QUERY_OPTIONS)}: options are ${QUERY_OPTIONS.join(", ")}`);
    }
  }
  const q = query as Record<string, unknown>;
  if (q.filters !== undefined) checkFilters(q.filters);
  if (q.columns !== undefined) checkNameList("columns", q.columns, false);
  if (q.sort !== undefined) checkNameList("sort", q.sort, true);
  for (const n of ["maxRows", "pageSize", "concurrency"]) if (q[n] !== undefined) checkNumber(n, q[n]);
  for (const n of ["aggregation", "format"]) {
    if (q[n] !== undefined && typeof q[n] !== "string") throw new QueryError(`${n} is ${describeValue(q[n])}: give its name as text`);
  }
  if (q.force !== undefined && typeof q.force !== "boolean") {
    throw new QueryError(`force is ${describeValue(q.force)}: give true (run past the quota guard) or false`);
  }
  if (q.onProgress !== undefined && typeof q.onProgress !== "function") {
    throw new QueryError(`onProgress is ${describeValue(q.onProgress)}: give a function (event) => ...`);
  }
  if (q.signal !== undefined && !(q.signal instanceof AbortSignal)) {
    throw new QueryError(
      `signal is ${describeValue(q.signal)}: give an AbortSignal, such as new AbortController().signal or AbortSignal.timeout(60_000)`,
    );
  }
  return query as Query;
}

/**
 * The path values of a call, checked: a list with exactly one value per path parameter, each
 * non-empty text (a trade date may be a valid Date: its UTC calendar date is sent).
 *
 * @example
 * ```ts
 * checkPathValues(dataEndpoint("eq-taq"), [new Date("2023-11-21"), "AAPL"]); // ["2023-11-21", "AAPL"]
 * ```
 */
export function checkPathValues(endpoint: DataEndpoint, pathValues: unknown): string[] {
  const params = endpoint.pathParams;
  checkPathShape(endpoint, pathValues);
  if ((pathValues as unknown[]).length !== params.length) throw wrongPathCount(endpoint, pathValues as unknown[]);
  return (pathValues as unknown[]).map((v, i) => checkPathValue(endpoint, params[i], v));
}

/**
 * The universe form of path values, before they are expanded into requests: each value may be
 * a list, and the trade date may be left out (`null`) when `start`/`end` give the dates.
 */
export function checkPathArgs(endpoint: DataEndpoint, pathArgs: unknown): void {
  checkPathShape(endpoint, pathArgs);
  const args = pathArgs as unknown[];
  if (args.length > endpoint.pathParams.length) throw wrongPathCount(endpoint, args);
  args.forEach((arg, i) => {
    const param = endpoint.pathParams[i];
    if (param === "trade_date" && (arg === null || arg === undefined)) return;
    for (const v of Array.isArray(arg) ? arg : [arg]) checkPathValue(endpoint, param, v);
  });
}

const expectedPath = (endpoint: DataEndpoint) =>
  endpoint.pathParams.length ? `[${endpoint.pathParams.map((p) => `<${p}>`).join(", ")}]` : "[] (none)";

function checkPathShape(endpoint: DataEndpoint, pathValues: unknown): void {
  if (Array.isArray(pathValues)) return;
  throw new QueryError(
    `Path values of ${endpoint.dataset} are ${describeValue(pathValues)}: give a list ${expectedPath(endpoint)}${
      typeof pathValues === "string" ? `, e.g. ["${pathValues}"]` : ""
    }`,
  );
}

function wrongPathCount(endpoint: DataEndpoint, pathValues: unknown[]): QueryError {
  return new QueryError(
    `${endpoint.dataset} takes ${endpoint.pathParams.length} path value(s) ${expectedPath(endpoint)}, got ${pathValues.length}: ${
      pathValues.map(describeValue).join(", ") || "none"
    }`,
  );
}

function checkPathValue(endpoint: DataEndpoint, p: string, v: unknown): string {
  if (p === "trade_date" && v instanceof Date) {
    if (Number.isNaN(v.getTime())) {
      throw new QueryError(`The ${p} of ${endpoint.dataset} is an Invalid Date: give a date as YYYY-MM-DD or a valid Date`);
    }
    return v.toISOString().slice(0, 10);
  }
  if (typeof v !== "string" || v.trim() === "") {
    throw new QueryError(
      `The ${p} of ${endpoint.dataset} is ${describeValue(v)}: give ${
        p === "ticker" ? 'a ticker as text, such as "AAPL"' : "a date as YYYY-MM-DD"
      }`,
    );
  }
  return v;
}
