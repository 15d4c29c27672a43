/**
 * Turns a data request (path parameters and query string) into a checked DataQuery, or a 422
 * listing every problem found. Reserved parameters are `sort`, `columns`, `offset`, `limit`,
 * `response_format` and the dataset's variant parameter; every other parameter is a column
 * filter, `Column=value` or `Column.op=value`.
 */
import type { Column } from "../../market/schema.ts";
import type { Dataset } from "../../market/catalog.ts";
import { unknownColumnsError, validationError, type ValidationIssue } from "../errors.ts";
import { type FilterValue, parseValue } from "./values.ts";

export const OPERATORS = ["eq", "gt", "ge", "lt", "le", "in", "like", "ilike"] as const;
export type Operator = (typeof OPERATORS)[number];
export const FORMATS = ["json", "csv", "csv_gzip"] as const;
export type ResponseFormat = (typeof FORMATS)[number];

export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 100_000;

export interface Filter {
  column: Column;
  op: Operator;
  values: FilterValue[];
  /** Where the filter came from, for error locations: ["query", "TradeDate.ge"] or ["path", "ticker"]. */
  loc: (string | number)[];
}

export interface DataQuery {
  offset: number;
  limit: number;
  format: ResponseFormat;
  variant?: string;
  columns?: string[];
  sort: { column: string; descending: boolean }[];
  filters: Filter[];
}

const quoteList = (values: readonly string[]) =>
  values.length === 1 ? `'${values[0]}'` : `${values.slice(0, -1).map((v) => `'${v}'`).join(", ")} or '${values.at(-1)}'`;

function enumIssue(name: string, value: string, allowed: readonly string[]): ValidationIssue {
  return { type: "enum", loc: ["query", name], msg: `Input should be ${quoteList(allowed)}`, input: value, ctx: { expected: quoteList(allowed) } };
}

function integerParam(name: string, value: string, min: number, max: number, issues: ValidationIssue[]): number | undefined {
  // Decimal digits with an optional sign, nothing else: no spaces, no 0x, no exponent.
  if (!/^[+-]?[0-9]+$/.test(value)) {
    issues.push({ type: "int_parsing", loc: ["query", name], msg: "Input should be a valid integer, unable to parse string as an integer", input: value });
    return undefined;
  }
  const n = Number(value);
  if (n < min) issues.push({ type: "greater_than_equal", loc: ["query", name], msg: `Input should be greater than or equal to ${min}`, input: value, ctx: { ge: min } });
  else if (n > max) issues.push({ type: "less_than_equal", loc: ["query", name], msg: `Input should be less than or equal to ${max}`, input: value, ctx: { le: max } });
  else return n;
  return undefined;
}

/** Splits a comma list, refusing empty names. */
function nameList(name: string, value: string, issues: ValidationIssue[]): string[] {
  const items = value.split(",").map((s) => s.trim());
  if (items.some((s) => s === "" || s === "+" || s === "-")) {
    issues.push({ type: "value_error", loc: ["query", name], msg: `'${name}' has an empty column name in '${value}'`, input: value });
  }
  const seen = new Set<string>();
  for (const item of items) {
    const bare = item.replace(/^[+-]/, "");
    if (seen.has(bare)) issues.push({ type: "value_error", loc: ["query", name], msg: `'${name}' lists the column '${bare}' more than once`, input: value });
    seen.add(bare);
  }
  return items.filter((s) => s !== "" && s !== "+" && s !== "-");
}

/**
 * Parses a request for a dataset; throws an HttpError(422) naming every bad parameter.
 *
 * @example
 * ```ts
 * parseDataQuery(datasetByTextId("eq-daily-ohlc"), {}, new URLSearchParams("Ticker=AAPL&limit=10"));
 * ```
 */
export function parseDataQuery(dataset: Dataset, pathValues: Record<string, string>, params: URLSearchParams): DataQuery {
  const issues: ValidationIssue[] = [];
  const unknown: string[] = [];
  const byName = new Map(dataset.columns.map((c) => [c.name, c]));
  const query: DataQuery = { offset: 0, limit: DEFAULT_LIMIT, format: "json", sort: [], filters: [] };
  const counts = new Map<string, number>();
  for (const key of params.keys()) counts.set(key, (counts.get(key) ?? 0) + 1);
  const reserved = new Set(["sort", "columns", "offset", "limit", "response_format", ...(dataset.variant ? [dataset.variant.param] : [])]);
  for (const [key, n] of counts) {
    if (reserved.has(key) && n > 1) issues.push({ type: "value_error", loc: ["query", key], msg: `Parameter '${key}' is given ${n} times; give it once`, input: params.getAll(key) });
  }

  for (const [name, rawValue] of params) {
    if (name === "offset") query.offset = integerParam(name, rawValue, 0, Number.MAX_SAFE_INTEGER, issues) ?? 0;
    else if (name === "limit") query.limit = integerParam(name, rawValue, 0, MAX_LIMIT, issues) ?? DEFAULT_LIMIT;
    else if (name === "response_format") {
      if ((FORMATS as readonly string[]).includes(rawValue)) query.format = rawValue as ResponseFormat;
      else issues.push(enumIssue(name, rawValue, FORMATS));
    } else if (dataset.variant && name === dataset.variant.param) {
      if (dataset.variant.values.includes(rawValue)) query.variant = rawValue;
      else issues.push(enumIssue(name, rawValue, dataset.variant.values));
    } else if (name === "columns") {
      query.columns = nameList(name, rawValue, issues);
      unknown.push(...query.columns.filter((c) => !byName.has(c)));
    } else if (name === "sort") {
      // A leading '+' arrives as a space when the client did not percent-encode it.
      query.sort = nameList(name, rawValue, issues).map((item) => ({ column: item.replace(/^[+-]/, ""), descending: item.startsWith("-") }));
      unknown.push(...query.sort.map((s) => s.column).filter((c) => !byName.has(c)));
    } else {
      const dot = name.indexOf(".");
      const columnName = dot < 0 ? name : name.slice(0, dot);
      const op = dot < 0 ? "eq" : name.slice(dot + 1);
      const column = byName.get(columnName);
      if (!column) {
        unknown.push(columnName);
        continue;
      }
      if (!(OPERATORS as readonly string[]).includes(op)) {
        issues.push({ type: "value_error", loc: ["query", name], msg: `Unsupported filter operator '${op}' in '${name}': use ${OPERATORS.join(", ")}`, input: rawValue, ctx: { cause: "UnprocessableEntityException" } });
        continue;
      }
      addFilter(query, column, op as Operator, rawValue, ["query", name], issues);
    }
  }
  for (const p of dataset.pathParams) {
    const value = pathValues[p.name];
    if (value !== undefined) addFilter(query, byName.get(p.column)!, "eq", value, ["path", p.name], issues);
  }
  if (unknown.length > 0) throw unknownColumnsError([...new Set(unknown)]);
  if (issues.length > 0) throw validationError(...issues);
  query.variant ??= dataset.variant?.values[0];
  return query;
}

function addFilter(query: DataQuery, column: Column, op: Operator, rawValue: string, loc: (string | number)[], issues: ValidationIssue[]): void {
  if ((op === "like" || op === "ilike") && column.type !== "string") {
    issues.push({ type: "value_error", loc, msg: `Operator '${op}' needs a text column; '${column.name}' is ${column.type}`, input: rawValue });
    return;
  }
  if (column.type === "list_string" && op !== "eq") {
    issues.push({ type: "value_error", loc, msg: `List column '${column.name}' only supports equality (the list contains the value)`, input: rawValue });
    return;
  }
  const texts = op === "in" ? rawValue.split(",") : [rawValue];
  const values: FilterValue[] = [];
  for (const text of texts) {
    const parsed = op === "like" || op === "ilike" ? { ok: true as const, value: text } : parseValue(column.type, text, loc);
    if (parsed.ok) values.push(parsed.value);
    else issues.push(parsed.issue);
  }
  query.filters.push({ column, op, values, loc });
}
