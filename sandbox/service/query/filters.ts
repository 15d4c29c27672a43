/** Filters and entitlement constraints as Polars expressions. */
import pl from "nodejs-polars";
import type { Column } from "../../market/schema.ts";
import type { Constraints } from "./entitlement.ts";
import type { Filter } from "./parse.ts";
import type { FilterValue } from "./values.ts";

/** The column as something comparable with parsed values (date-times as epoch integers). */
function comparable(column: Column): pl.Expr {
  const c = pl.col(column.name);
  if (column.type === "datetime_ns" || column.type === "datetime_ms") return c.cast(pl.Int64);
  return c;
}

const dateLiteral = (date: string) => pl.lit(date).str.strptime(pl.Date, "%Y-%m-%d");

const INT64_MAX = 2n ** 63n - 1n;
const clampToInt64 = (v: bigint) => (v > INT64_MAX ? INT64_MAX : v < -INT64_MAX ? -INT64_MAX : v);

function literal(column: Column, value: FilterValue): pl.Expr {
  if (column.type === "date") return dateLiteral(String(value));
  // Parsed date-times are epoch nanoseconds; millisecond columns compare in milliseconds.
  if (column.type === "datetime_ms") return pl.lit(Number((value as bigint) / 1_000_000n));
  // nodejs-polars drops a BigInt's sign and wraps it past 64 bits, so the value goes as text,
  // clamped to Int64: no stored time lies beyond it, so every comparison keeps its meaning.
  if (column.type === "datetime_ns") return pl.lit(String(clampToInt64(value as bigint))).cast(pl.Int64);
  return pl.lit(value as string | number);
}

/**
 * The values of an `in` list as one Series of the type the column compares as (see
 * `comparable`), for a set lookup: `is_in` costs one pass over the rows whatever the length
 * of the list, where a chain of `eq` joined by `or` costs a pass per value (and Polars'
 * optimiser more than that).
 */
function valueSeries(column: Column, values: readonly FilterValue[]): pl.Series {
  switch (column.type) {
    case "date":
      return pl.Series("values", values.map(String), pl.String).str.strptime(pl.Date, "%Y-%m-%d");
    case "datetime_ms":
      return pl.Series("values", values.map((v) => String((v as bigint) / 1_000_000n)), pl.String).cast(pl.Int64);
    case "datetime_ns":
      return pl.Series("values", values.map((v) => String(clampToInt64(v as bigint))), pl.String).cast(pl.Int64);
    case "int64":
      return pl.Series("values", values as number[], pl.Int64);
    case "float64":
      return pl.Series("values", values as number[], pl.Float64);
    default:
      return pl.Series("values", values.map(String), pl.String);
  }
}

/**
 * `*` is the wildcard of like/ilike; everything else matches itself. A run of wildcards is one
 * (thousands of `.*` in a row passed the regex engine's size limit: a 500).
 */
function likeRegex(pattern: string, caseInsensitive: boolean): string {
  const body = pattern.replace(/\*+/g, "*").split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return `${caseInsensitive ? "(?i)" : ""}^${body}$`;
}

export function filterExpr(f: Filter): pl.Expr {
  const c = comparable(f.column);
  const v = f.values;
  if (f.column.type === "list_string") return pl.col(f.column.name).lst.contains(pl.lit(String(v[0])));
  switch (f.op) {
    case "eq":
      return c.eq(literal(f.column, v[0]));
    case "gt":
      return c.gt(literal(f.column, v[0]));
    case "ge":
      return c.gtEq(literal(f.column, v[0]));
    case "lt":
      return c.lt(literal(f.column, v[0]));
    case "le":
      return c.ltEq(literal(f.column, v[0]));
    case "in":
      return c.isIn(valueSeries(f.column, v).implode());
    case "like":
      return pl.col(f.column.name).str.contains(likeRegex(String(v[0]), false));
    case "ilike":
      return pl.col(f.column.name).str.contains(likeRegex(String(v[0]), true));
  }
}

export function constraintExprs(constraints: Constraints): pl.Expr[] {
  const exprs: pl.Expr[] = [];
  const w = constraints.window;
  if (w) {
    exprs.push(pl.col(w.column).gtEq(dateLiteral(w.start)));
    if (w.end !== null) exprs.push(pl.col(w.column).ltEq(dateLiteral(w.end)));
  }
  const u = constraints.universe;
  if (u) exprs.push(pl.col(u.column).isIn(u.tickers));
  return exprs;
}
