/**
 * The usual case of a row comparison, told without building canonical rows: whether pages
 * hold exactly the expected rows from an offset on. JSON cells are compared with the
 * expected JSON form in place; CSV pages are stacked and compared with the expected CSV form
 * in Polars. True only when the full comparison would find the rows equal (see
 * expectedRows.ts); false sends the caller to that comparison, which names the first
 * differing row.
 */
import pl from "nodejs-polars";
import { type ExpectedRows, NO_SHORTCUT } from "./expectedRows.ts";
import type { WireTable } from "./pagingWire.ts";
import type { ColumnType } from "../../../../sandbox/market/schema.ts";

const sameColumns = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((name, i) => name === b[i]);

function sameJson(table: WireTable, expected: ExpectedRows, from: number): boolean {
  const records = table.records!;
  for (const name of table.columns) {
    const want = expected.json.get(name)!;
    for (let i = 0; i < records.length; i++) {
      const got = records[i][name], w = want[from + i];
      if (got !== w || w === NO_SHORTCUT) return false;
    }
  }
  return true;
}

// Built once per column and type: nodejs-polars makes every Expr a large object of closures,
// and building them again for every walk cost more than the comparison.
const exprs = new Map<string, pl.Expr>();
const cached = (key: string, build: () => pl.Expr) => exprs.get(key) ?? exprs.set(key, build()).get(key)!;
const got = (name: string) => cached(`got ${name}`, () => pl.col(name).alias(`${name}\u0000got`));
const wanted = (name: string) => cached(`want ${name}`, () => pl.col(name).alias(`${name}\u0000want`));

/** The number of rows where a column's CSV text and expected form differ, nulls equal only to nulls. */
function differing(name: string, type: ColumnType): pl.Expr {
  return cached(`differ ${name} ${type}`, () => {
    const raw = pl.col(`${name}\u0000got`), w = pl.col(`${name}\u0000want`);
    const g = type === "float64" ? raw.cast(pl.Float64, false) : raw;
    const same = pl.when(raw.isNull().or(w.isNull())).then(raw.isNull().and(w.isNull())).otherwise(g.eq(w).fillNull(false));
    return same.not().sum().alias(name);
  });
}

/** Text or number equality of CSV cells read as text, nulls equal only to nulls. */
function sameCsv(tables: readonly WireTable[], expected: ExpectedRows, from: number, height: number): boolean {
  const want = expected.csv;
  if (want === null) return false;
  const frames = tables.filter((t) => t.height > 0).map((t) => t.frame!);
  if (frames.length === 0) return true;
  const page = frames.length === 1 ? frames[0] : pl.concat(frames, { how: "vertical" });
  const columns = expected.columns;
  const both = pl.concat([page.select(...columns.map(got)), want.slice(from, height).select(...columns.map(wanted))], {
    how: "horizontal",
  });
  const bad = both.select(...columns.map((name, j) => differing(name, expected.types[j]))).row(0) as number[];
  return bad.every((n) => n === 0);
}

/** Whether the tables (one format, in order) hold exactly `expected`'s rows from `from` on. */
export function sameRowsQuickly(tables: readonly WireTable[], expected: ExpectedRows, from = 0): boolean {
  const height = tables.reduce((n, t) => n + t.height, 0);
  if (height !== expected.height - from) return false;
  if (!tables.every((t) => t.height === 0 || sameColumns(t.columns, expected.columns))) return false;
  if (tables.every((t) => t.format === "json")) {
    let at = from;
    for (const table of tables) {
      if (!sameJson(table, expected, at)) return false;
      at += table.height;
    }
    return true;
  }
  if (tables.every((t) => t.format !== "json")) return sameCsv(tables, expected, from, height);
  return false;
}
