/**
 * A data request as a checked DataQuery. The values of parameters are validated by the
 * route's zod schema (api/params.ts, api/routes.ts); what a schema of named parameters cannot
 * say is checked here, before it: parameters given twice, names that are not
 * columns of the dataset (422 naming them), operators a column does not support, and the
 * column lists of `columns` and `sort`. Reserved parameters are `sort`, `columns`, `offset`,
 * `limit`, `response_format` and the dataset's variant parameter; every other parameter is a
 * column filter, `Column=value` or `Column.op=value`.
 */
import type { Column } from "../../market/schema.ts";
import type { Dataset } from "../../market/catalog.ts";
import { operatorsOf } from "./operators.ts";
import { unknownColumnsError, type ValidationIssue } from "../errors.ts";
import type { FilterValue } from "./values.ts";
import { RESPONSE_FORMATS, type ResponseFormat, SERVICE_DEFAULT_FORMAT } from "../../../contract/formats.ts";

const OPERATORS = ["eq", "gt", "ge", "lt", "le", "in", "like", "ilike"] as const;
type Operator = (typeof OPERATORS)[number];
/** The answer formats, as the contract describes them (names, content types, the default). */
export const FORMATS = RESPONSE_FORMATS;
export type { ResponseFormat };

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

/** Splits a comma list, refusing empty and repeated names. */
function nameList(name: string, value: string, issues: ValidationIssue[]): string[] {
  const items = value.split(",").map((s) => s.trim());
  if (items.some((s) => s === "" || s === "+" || s === "-")) {
    issues.push({ type: "value_error", loc: ["query", name], msg: `'${name}' has an empty column name in '${value}'`, input: value });
  }
  const seen = new Set<string>();
  for (const item of items) {
    const bare = item.replace(/^[+-]/, "");
    if (seen.has(bare)) {
      issues.push({ type: "value_error", loc: ["query", name], msg: `'${name}' lists the column '${bare}' more than once`, input: value });
    }
    seen.add(bare);
  }
  return items.filter((s) => s !== "" && s !== "+" && s !== "-");
}

/** A sort item: a leading '+' arrives as a space when the client did not percent-encode it. */
const sortItem = (item: string) => ({ column: item.replace(/^[+-]/, ""), descending: item.startsWith("-") });

function reservedOf(dataset: Dataset): Set<string> {
  return new Set(["sort", "columns", "offset", "limit", "response_format", ...(dataset.variant ? [dataset.variant.param] : [])]);
}

/**
 * Checks the names in a request's query string: throws 422 naming unknown columns (which
 * outranks every other problem), and returns the other problems with names (a parameter
 * given twice, an operator the column does not support), which the app reports
 * together with the value problems the route's schema finds (see inQueryOrder).
 *
 * @example
 * ```ts
 * checkParameterNames(datasetByTextId("eq-daily-ohlc"), new URLSearchParams("Foo=1")); // throws 422: Foo does not exist
 * checkParameterNames(datasetByTextId("eq-daily-ohlc"), new URLSearchParams("Volume.gte=1")); // [{ msg: "Unsupported filter operator 'gte' ..." }]
 * ```
 */
export function checkParameterNames(dataset: Dataset, params: URLSearchParams): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const unknown: string[] = [];
  const byName = new Map(dataset.columns.map((c) => [c.name, c]));
  const reserved = reservedOf(dataset);
  const counts = new Map<string, number>();
  for (const key of params.keys()) counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const [key, n] of counts) {
    if (n === 1) continue;
    // A filter given twice is refused as a reserved parameter is: merging repetitions would make
    // work of a long query string (thousands of `Ticker.in=AAPL`) and their meaning (all must
    // hold) is rarely what was meant; one parameter per filter bounds the filters of a query.
    const hint = reserved.has(key) ? "" : " (several values go in one 'in' list, ranges in 'ge' and 'le')";
    issues.push({
      type: "value_error",
      loc: ["query", key],
      msg: `Parameter '${key}' is given ${n} times; give it once${hint}`,
      input: params.getAll(key),
    });
  }
  for (const [name, rawValue] of params) {
    if (name === "columns" || name === "sort") {
      const names = nameList(name, rawValue, issues).map((item) => (name === "sort" ? sortItem(item).column : item));
      unknown.push(...names.filter((c) => !byName.has(c)));
      continue;
    }
    if (reserved.has(name)) continue;
    const dot = name.indexOf(".");
    const column = byName.get(dot < 0 ? name : name.slice(0, dot));
    const op = dot < 0 ? "eq" : name.slice(dot + 1);
    if (!column) unknown.push(dot < 0 ? name : name.slice(0, dot));
    else if (!(OPERATORS as readonly string[]).includes(op)) {
      issues.push({
        type: "value_error",
        loc: ["query", name],
        msg: `Unsupported filter operator '${op}' in '${name}': use ${OPERATORS.join(", ")}`,
        input: rawValue,
        ctx: { cause: "UnprocessableEntityException" },
      });
    } else if (!operatorsOf(column.type).includes(op)) {
      const msg = column.type === "list_string"
        ? `List column '${column.name}' only supports equality (the list contains the value)`
        : `Operator '${op}' needs a text column; '${column.name}' is ${column.type}`;
      issues.push({ type: "value_error", loc: ["query", name], msg, input: rawValue });
    }
  }
  if (unknown.length > 0) throw unknownColumnsError([...new Set(unknown)]);
  return issues;
}

/**
 * Issues in the order their parameters appear in the query string (as one pass over it would
 * find them), path parameters last; a parameter given twice is reported before the rest.
 */
export function inQueryOrder(issues: readonly ValidationIssue[], params: URLSearchParams): ValidationIssue[] {
  const order = new Map<string, number>();
  for (const key of params.keys()) if (!order.has(key)) order.set(key, order.size);
  const rank = (
    i: ValidationIssue,
  ) => (i.loc[0] === "path" ? Infinity : i.msg.includes(" times; give it once") ? -1 : order.get(String(i.loc[1])) ?? Infinity);
  return [...issues].sort((a, b) => rank(a) - rank(b));
}

/**
 * The DataQuery of a request whose names passed checkParameterNames and whose values the
 * route's schema parsed (`query`: reserved values and, per filter parameter, one value list
 * per occurrence; `path`: the same for path parameters).
 *
 * @example
 * ```ts
 * toDataQuery(dataset, { limit: 10, Ticker: [["AAPL"]] }, {});
 * ```
 */
export function toDataQuery(dataset: Dataset, query: Record<string, unknown>, path: Record<string, FilterValue[][]>): DataQuery {
  const byName = new Map(dataset.columns.map((c) => [c.name, c]));
  const reserved = reservedOf(dataset);
  const none: ValidationIssue[] = [];
  const result: DataQuery = {
    offset: (query.offset as number | undefined) ?? 0,
    limit: (query.limit as number | undefined) ?? DEFAULT_LIMIT,
    format: (query.response_format as ResponseFormat | undefined) ?? SERVICE_DEFAULT_FORMAT,
    variant: dataset.variant ? (query[dataset.variant.param] as string | undefined) ?? dataset.variant.values[0] : undefined,
    columns: query.columns === undefined ? undefined : nameList("columns", query.columns as string, none),
    sort: query.sort === undefined ? [] : nameList("sort", query.sort as string, none).map(sortItem),
    filters: [],
  };
  for (const [name, lists] of Object.entries(query)) {
    if (reserved.has(name) || lists === undefined) continue;
    const dot = name.indexOf(".");
    const column = byName.get(dot < 0 ? name : name.slice(0, dot))!;
    const op = (dot < 0 ? "eq" : name.slice(dot + 1)) as Operator;
    for (const values of lists as FilterValue[][]) result.filters.push({ column, op, values, loc: ["query", name] });
  }
  for (const p of dataset.pathParams) {
    for (const values of path[p.name] ?? []) {
      result.filters.push({ column: byName.get(p.column)!, op: "eq", values, loc: ["path", p.name] });
    }
  }
  return result;
}
