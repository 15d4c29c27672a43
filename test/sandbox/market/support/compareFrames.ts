/**
 * Field-by-field comparison of a recomputed frame with a stored one, reporting each
 * disagreement as a readable line (which row, which field, both values) rather than a
 * boolean, so a failing test says where the derivation went wrong.
 */
import pl from "nodejs-polars";

export interface CompareOptions {
  /** Column identifying a row in both frames. */
  key: string;
  /** Columns to compare. */
  columns: readonly string[];
  /** Columns compared within an absolute tolerance instead of exactly. */
  tolerant: ReadonlySet<string>;
  tolerance: number;
  /** Prefix of each reported line, e.g. "SPY 2023-11-21 core". */
  label: string;
  /** Turns a key value into something a reader recognises (a bar time). */
  describeKey?: (key: unknown) => string;
  /** Mismatching rows reported per column. */
  perColumn?: number;
}

// Expressions are built once per column and rule: nodejs-polars makes every Expr a large
// object of closures, and the tests compare the same columns frame after frame.
const exprCache = new Map<string, pl.Expr>();
const cached = (key: string, build: () => pl.Expr) => exprCache.get(key) ?? exprCache.set(key, build()).get(key)!;

/** The column under a frame's suffix in the joined frame. */
const picked = (c: string, suffix: string) => cached(`pick ${c} ${suffix}`, () => pl.col(c).alias(`${c}${suffix}`));

/** True where a column's expected and stored values disagree (nulls only equal nulls). */
function differs(c: string, tolerance: number | undefined): pl.Expr {
  return cached(`differs ${c} ${tolerance}`, () => {
    const e = pl.col(`${c}__e`), s = pl.col(`${c}__s`);
    const differ = tolerance !== undefined ? e.minus(s).abs().gt(tolerance) : e.neq(s);
    return e.isNull().neq(s.isNull()).or(e.isNotNull().and(s.isNotNull()).and(differ));
  });
}

/** Lines describing every disagreement; empty when the frames agree. Nulls only equal nulls. */
export function frameMismatches(expected: pl.DataFrame, stored: pl.DataFrame, o: CompareOptions): string[] {
  const out: string[] = [];
  const missing = o.columns.filter((c) => !expected.columns.includes(c) || !stored.columns.includes(c));
  if (missing.length) return [`${o.label}: columns missing from a frame: ${missing.join(", ")}`];
  const pick = (df: pl.DataFrame, suffix: string) => df.select(pl.col(o.key), ...o.columns.map((c) => picked(c, suffix)));
  const joined = pick(expected, "__e").join(pick(stored, "__s"), { on: o.key, how: "full", coalesce: true });
  if (joined.height !== expected.height || joined.height !== stored.height) {
    out.push(`${o.label}: ${expected.height} expected rows, ${stored.height} stored, ${joined.height} keys in all`);
  }
  const rule = (c: string) => differs(c, o.tolerant.has(c) ? o.tolerance : undefined);
  // One pass counts the disagreements of every column; only a column with some is listed.
  const counts = joined.select(
    ...o.columns.map((c) => cached(`count ${c} ${o.tolerant.has(c) ? o.tolerance : ""}`, () => rule(c).sum().alias(c))),
  ).row(0) as number[];
  o.columns.forEach((c, j) => {
    if (!(counts[j] > 0)) return;
    const bad = joined.filter(rule(c)).sort(o.key);
    const show = o.describeKey ?? String;
    for (const row of bad.head(o.perColumn ?? 3).toRecords()) {
      out.push(`${o.label} ${show(row[o.key])} ${c}: expected ${row[`${c}__e`]}, stored ${row[`${c}__s`]}`);
    }
    if (bad.height > (o.perColumn ?? 3)) out.push(`${o.label} ${c}: ... ${bad.height} rows differ in all`);
  });
  return out;
}
