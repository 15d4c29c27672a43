/**
 * Checks a data call before anything is sent, so no quota is spent on a doomed request, and
 * turns it into the request's path and parameters. Every refusal names the bad value and
 * what is allowed: unknown columns (filters, columns, sort), unknown operators, malformed
 * dates and numbers, values outside a column's closed list (CallPut C or P: domains.ts),
 * limits out of range, and anything outside the identity's data access rules (dataset, date
 * window, ticker universe).
 */
import { isWireDate, RESPONSE_FORMATS, wireDateTimeToEpochNs } from "../../contract/mod.ts";
import { type DataEndpoint, dataPath, PATH_PARAM_COLUMNS } from "./endpoints.ts";
import { QueryError } from "../errors/base.ts";
import { NotEntitledError } from "../errors/http.ts";
import type { ColumnInfo, WireFormat } from "../frames/frames.ts";
import type { MetaDatasetAccessRuleOut as AccessRule } from "../../contract/mod.ts";
import { didYouMean } from "../errors/nearest.ts";
import { checkDomain } from "./domains.ts";
import { conditions, OPERATORS, type Query, sortList, wireValue } from "./query.ts";

/** The largest page the service sends (its `limit`'s maximum). */
export const MAX_PAGE_SIZE = 100_000;
/**
 * The format the workbench asks for when a call names none: CSV, which the client parses
 * fastest (the service's own default, when a request names none, is JSON: contract/formats.ts).
 */
const REQUEST_FORMAT: WireFormat = "csv";

/** One filter condition as the service reads it: a column, an operator, and its values as text. */
export interface WireCondition {
  /** The column filtered. */
  column: string;
  /** The operator: `eq`, `in`, `ge`, ... */
  op: string;
  /** The values, as text in the URL. */
  texts: string[];
}

/** The tickers a call asked for, and the first date it asked for (judged from the answer when absent from it). */
export interface TickerAsk {
  /** The tickers asked for. */
  asked: string[];
  /** The first date asked for, `YYYY-MM-DD`. */
  from?: string;
  /** The last date asked for, when known. */
  to?: string;
}

/** Pages in flight after the first, by default, for a call of one unit (fetch/inFlight.ts). */
export const PAGES_IN_FLIGHT = 4;

/** A checked request of one unit: what to ask, typed; its URL parameters are derived only when it is sent. */
export interface PreparedRequest {
  /** The dataset's text id. */
  dataset: string;
  /** The path values (ticker, trade date), checked, in URL order. */
  pathValues: string[];
  /** The request's path, path values in place. */
  path: string;
  /** The filter conditions, in the order written (path values are not among them). */
  conditions: WireCondition[];
  /** The `columns` the call chose, when it chose. */
  chosenColumns?: string[];
  /** Sort columns, `-` for descending. */
  sort: string[];
  /** The variant parameter and value (`aggregation_logic=no_finra_trf`), when chosen. */
  variant?: [string, string];
  /** The columns the frame will have, in order. */
  columns: ColumnInfo[];
  /** The wire format: the caller's `format`, else CSV, which the call may change per page (`formatGiven` false: http/wireChoice.ts). */
  format: WireFormat;
  /** Whether the caller gave `format` (else the call chooses it from the line it measures). */
  formatGiven?: boolean;
  /** The rows asked per page at most (the call's `pageSize`). */
  pageSize: number;
  /** The most rows to fetch (the call's `maxRows`; Infinity: all). */
  maxRows: number;
  /** Pages in flight after the first (the caller's `concurrency`, else 4). */
  concurrency: number;
  /** Whether the caller gave `concurrency` (else the call chooses its units in flight: fetch/inFlight.ts). */
  concurrencyGiven: boolean;
  /** The tickers asked for (set by the service checks), judged from the answer when absent from it. */
  tickers?: TickerAsk;
}

/**
 * The request's query parameters, without the pager's (offset, limit, format): filters in the
 * order written, then columns, sort and variant.
 *
 * @example
 * ```ts
 * requestParams(request).toString(); // "Ticker=AAPL&TradeDate.ge=2023-11-21"
 * ```
 */
export function requestParams(request: PreparedRequest): URLSearchParams {
  const params = new URLSearchParams();
  for (const c of request.conditions) params.append(c.op === "eq" ? c.column : `${c.column}.${c.op}`, c.texts.join(","));
  if (request.chosenColumns) params.set("columns", request.chosenColumns.join(","));
  if (request.sort.length > 0) params.set("sort", request.sort.join(","));
  if (request.variant) params.set(request.variant[0], request.variant[1]);
  return params;
}

/**
 * The conditions a request sends, its path values included (as `eq` on their columns).
 *
 * @example
 * ```ts
 * sentConditions(dataEndpoint("eq-taq-1min"), request); // [{ column: "Ticker", op: "eq", texts: ["AAPL"] }, ...]
 * ```
 */
export function sentConditions(endpoint: DataEndpoint, request: PreparedRequest): WireCondition[] {
  const path = endpoint.pathParams.map((p, i) => ({ column: PATH_PARAM_COLUMNS[p] ?? p, op: "eq", texts: [request.pathValues[i]] }));
  return [...path, ...request.conditions];
}

/** Decimal notation only: no hex ("0x10"), no surrounding spaces (" 170 "), no "Infinity". */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const [INT64_MIN, INT64_MAX] = [-(2n ** 63n), 2n ** 63n - 1n];

/**
 * The strict integer rule: ASCII decimal digits with an optional sign, nothing else (no hex
 * "0x10", no spaces " 170 ", no "1e3", "1_000" or "170.0"), within Int64 (beyond 2^53 too:
 * the service's integers are 64-bit).
 */
function isInt64Text(text: string): boolean {
  if (!/^[+-]?[0-9]+$/.test(text)) return false;
  const n = BigInt(text);
  return n >= INT64_MIN && n <= INT64_MAX;
}

function checkValue(dataset: string, column: ColumnInfo, text: string): void {
  const bad = (what: string) => new QueryError(`Cannot filter ${dataset}.${column.name} by '${text}': ${what}`);
  if (column.data_type === "date" && !isWireDate(text)) throw bad("expected a real date as YYYY-MM-DD");
  if (column.data_type === "int64" && !isInt64Text(text)) {
    throw bad(
      `expected a whole number written in decimal digits (an optional sign, no spaces), such as 170, from ${INT64_MIN} to ${INT64_MAX}`,
    );
  }
  if (column.data_type === "float64" && !(DECIMAL.test(text) && Number.isFinite(Number(text)))) {
    throw bad("expected a number written in decimal, such as 189.5");
  }
  if (column.data_type.startsWith("datetime") && !isWireDate(text) && wireDateTimeToEpochNs(text) === undefined) {
    throw bad(
      "expected an ISO 8601 date-time such as 2023-11-21T09:30:00 (New York time), 2023-11-21T09:30:00-05:00 or 2023-11-21T14:30:00Z, or a date",
    );
  }
}

function knownColumn(dataset: string, schema: readonly ColumnInfo[], name: string, where: string): ColumnInfo {
  const c = schema.find((s) => s.name === name);
  if (!c) {
    const sameLetters = schema.find((s) => s.name.toLowerCase() === name.toLowerCase());
    const near = sameLetters
      ? ` (did you mean '${sameLetters.name}'? names are case-sensitive)`
      : didYouMean(name, schema.map((s) => s.name));
    throw new QueryError(`Unknown column '${name}' in ${where} of ${dataset}${near}: columns are ${schema.map((s) => s.name).join(", ")}`);
  }
  return c;
}

function checkEntitlement(
  endpoint: DataEndpoint,
  rules: readonly AccessRule[],
  checked: { column: string; op: string; text: string }[],
): void {
  const rule = rules.find((r) => r.dataset_text_id === endpoint.dataset);
  if (!rule) {
    throw new NotEntitledError(
      `Your account is not entitled to ${endpoint.dataset}: it may read ${rules.map((r) => r.dataset_text_id).join(", ") || "no dataset"}`,
    );
  }
  const window = `${rule.start_date} to ${rule.end_date ?? "today"}`;
  // Every reason, not the first: a user fixing the date should learn the ticker is out too (as ent.may() lists them).
  const dates: string[] = [], tickers: string[] = [];
  for (const { column, op, text } of checked) {
    const sameDate = (d: string) => d.includes(` ${text} is outside your access window`); // `date` is ge and le of one day: one reason
    if (
      column === endpoint.dateColumn && (text < rule.start_date || (rule.end_date !== null && text > rule.end_date)) &&
      !dates.some(sameDate)
    ) {
      dates.push(
        `${endpoint.dataset}.${column} ${op} ${text} is outside your access window for ${endpoint.dataset} (${window}); narrow the dates or drop the filter to get the whole window`,
      );
    }
    if (
      column === endpoint.tickerColumn && (op === "eq" || op === "in") && rule.universe_identifiers.length > 0 &&
      !rule.universe_identifiers.includes(text)
    ) {
      tickers.push(
        `Ticker '${text}' is outside your universe for ${endpoint.dataset}${
          didYouMean(text, rule.universe_identifiers)
        }: allowed tickers are ${rule.universe_identifiers.join(", ")}`,
      );
    }
  }
  const reasons = [...tickers, ...dates];
  if (reasons.length === 0) return;
  const message = reasons.length > 1 ? `Refused for ${reasons.length} reasons: ${reasons.join("; ")}` : reasons[0];
  if (tickers.length === 0) throw new QueryError(message);
  throw new NotEntitledError(message, { reasons });
}

/**
 * Checks a data call and builds its request.
 *
 * @example
 * ```ts
 * const req = prepareRequest(dataEndpoint("eq-daily-ohlc"), [], { filters: { Ticker: "AAPL" } }, schema, rules);
 * ```
 */
export function prepareRequest(
  endpoint: DataEndpoint,
  pathValues: readonly string[],
  query: Query,
  schema: readonly ColumnInfo[],
  rules: readonly AccessRule[] | undefined,
): PreparedRequest {
  const dataset = endpoint.dataset;
  if (rules && !rules.some((r) => r.dataset_text_id === dataset)) checkEntitlement(endpoint, rules, []);
  const wireConditions: WireCondition[] = [];
  const checked: { column: string; op: string; text: string }[] = [];
  endpoint.pathParams.forEach((p, i) => {
    const column = knownColumn(dataset, schema, PATH_PARAM_COLUMNS[p] ?? p, "the path");
    const text = String(pathValues[i] ?? "");
    if (text === "") throw new QueryError(`${dataset} needs a ${p}: none was given`);
    checkValue(dataset, column, text);
    checked.push({ column: column.name, op: "eq", text });
  });
  for (const c of conditions(query.filters)) {
    const column = knownColumn(dataset, schema, c.column, "filters");
    if (!(OPERATORS as readonly string[]).includes(c.op)) {
      throw new QueryError(`Unknown operator '${c.op}' for ${dataset}.${c.column}: use ${OPERATORS.join(", ")}`);
    }
    if (c.values.length === 0) throw new QueryError(`Filter ${c.column}.${c.op} has no value`);
    if (c.op !== "in" && c.values.length > 1) {
      throw new QueryError(`Filter ${c.column}.${c.op} takes one value, got ${c.values.length}; use 'in' for a list`);
    }
    const texts = c.values.map((v) => wireValue(v, column.data_type));
    if (c.op !== "like" && c.op !== "ilike") texts.forEach((t) => checkValue(dataset, column, t));
    checkDomain(dataset, column.name, c.op, texts);
    if (c.op === "in" && texts.some((t) => t.includes(","))) {
      throw new QueryError(`Filter ${c.column}.in values cannot contain a comma: ${texts.find((t) => t.includes(","))}`);
    }
    texts.forEach((text) => checked.push({ column: column.name, op: c.op, text }));
    wireConditions.push({ column: column.name, op: c.op, texts });
  }
  const columns = (query.columns ?? schema.map((s) => s.name)).map((n) => knownColumn(dataset, schema, n, "columns"));
  if (new Set(columns.map((c) => c.name)).size !== columns.length) {
    throw new QueryError(`columns lists a column twice: ${query.columns!.join(", ")}`);
  }
  const sort = sortList(query.sort);
  for (const s of sort) knownColumn(dataset, schema, s.replace(/^[+-]/, ""), "sort");
  let variant: [string, string] | undefined;
  if (query.aggregation !== undefined) {
    if (!endpoint.variant) throw new QueryError(`${dataset} has no aggregation variants; 'aggregation' applies to eq-taq-1min`);
    if (!endpoint.variant.values.includes(query.aggregation)) {
      throw new QueryError(`Unknown aggregation '${query.aggregation}' for ${dataset}: use ${endpoint.variant.values.join(" or ")}`);
    }
    variant = [endpoint.variant.param, query.aggregation];
  }
  const format = query.format ?? REQUEST_FORMAT;
  if (!RESPONSE_FORMATS.includes(format)) throw new QueryError(`Unknown format '${format}': use ${RESPONSE_FORMATS.join(", ")}`);
  const pageSize = query.pageSize ?? MAX_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw new QueryError(`pageSize ${pageSize} is out of range: use a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  const maxRows = query.maxRows ?? Number.POSITIVE_INFINITY;
  if (!(maxRows === Number.POSITIVE_INFINITY || (Number.isInteger(maxRows) && maxRows >= 0))) {
    throw new QueryError(`maxRows ${maxRows} is not a whole number of rows (0 or more)`);
  }
  const concurrency = query.concurrency ?? PAGES_IN_FLIGHT;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
    throw new QueryError(`concurrency ${concurrency} is out of range: use 1 to 16`);
  }
  if (rules) checkEntitlement(endpoint, rules, checked);
  const values = pathValues.map(String);
  return {
    dataset,
    pathValues: values,
    path: dataPath(endpoint, values),
    conditions: wireConditions,
    chosenColumns: query.columns ? [...query.columns] : undefined,
    sort,
    variant,
    columns,
    format,
    pageSize,
    maxRows,
    concurrency,
    concurrencyGiven: query.concurrency !== undefined,
    formatGiven: query.format !== undefined,
  };
}
