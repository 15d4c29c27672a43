/**
 * A quick check that every cell of a response body would pass pagingWire.ts's cell-by-cell
 * reading: the same patterns, vectorised in Polars for CSV, and plain type tests for JSON. It
 * is at least as strict as that reading (a doubt only sends the body to it, which then throws
 * naming the cell, or accepts it), so it never lets a bad cell through.
 *
 * Polars' regex engine reads `\d` as any Unicode digit, JavaScript's as 0-9: the patterns
 * spell `[0-9]` so both mean the same.
 */
import pl from "nodejs-polars";
import type { ColumnType } from "../../../../sandbox/market/schema.ts";

const D = "[0-9]";
const DATE = `^${D}{4}-${D}{2}-${D}{2}$`;
const dateTime = (digits: number) => `^${D}{4}-${D}{2}-${D}{2}T${D}{2}:${D}{2}:${D}{2}\\.${D}{${digits}}[+-]${D}{2}:${D}{2}$`;

/** The pattern a CSV cell of each type must match, as pagingWire.ts's canonicalCell requires. */
const CSV_PATTERNS: Partial<Record<ColumnType, string>> = {
  date: DATE,
  datetime_ns: dateTime(9),
  datetime_ms: dateTime(3),
  int64: `^-?${D}+$`,
  float64: `^-?(${D}+(\\.${D}*)?|\\.${D}+)([eE][+-]?${D}+)?$`,
};

// Built once per column and type: nodejs-polars makes every Expr a large object of closures,
// and building them again for every page cost more than reading the pages.
const badCounts = new Map<string, pl.Expr>();
const badCount = (name: string, pattern: string) => {
  const key = `${name}\u0000${pattern}`;
  return badCounts.get(key) ?? badCounts.set(key, pl.col(name).str.contains(pattern).not().sum().alias(name)).get(key)!;
};

/** Whether every non-empty cell of a CSV body read as text matches its column type. */
export function csvCellsValid(frame: pl.DataFrame, types: ColumnType[]): boolean {
  // Lists are parsed as JSON text cell by cell: left to the full reading.
  if (types.includes("list_string")) return false;
  const checks = frame.columns.flatMap((name, j) => {
    const pattern = CSV_PATTERNS[types[j]];
    return pattern === undefined ? [] : [badCount(name, pattern)];
  });
  if (checks.length === 0 || frame.height === 0) return true;
  const bad = frame.select(...checks).row(0) as number[];
  return bad.every((n) => n === 0);
}

const JSON_DATE = /^\d{4}-\d{2}-\d{2}$/;
const JSON_DATE_TIME: Partial<Record<ColumnType, RegExp>> = {
  datetime_ns: new RegExp(dateTime(9)),
  datetime_ms: new RegExp(dateTime(3)),
};

/** Whether a JSON value passes as a cell of its column type (null always does). */
function jsonCellValid(type: ColumnType, value: unknown): boolean {
  if (value === null) return true;
  switch (type) {
    case "date":
      return typeof value === "string" && JSON_DATE.test(value);
    case "datetime_ns":
    case "datetime_ms":
      return typeof value === "string" && JSON_DATE_TIME[type]!.test(value);
    case "int64":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "float64":
      return typeof value === "number";
    case "string":
      return typeof value === "string";
    case "list_string":
      return Array.isArray(value);
  }
}

/** Whether every record has exactly the columns and every cell its column's type. */
export function jsonCellsValid(data: Record<string, unknown>[], columns: string[], types: ColumnType[]): boolean {
  for (const record of data) {
    if (Object.keys(record).length !== columns.length) return false;
    for (let j = 0; j < columns.length; j++) {
      const name = columns[j];
      if (!(name in record) || !jsonCellValid(types[j], record[name])) return false;
    }
  }
  return true;
}
