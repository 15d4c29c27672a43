/**
 * Summary statistics for any frame, Date and Datetime columns included (nodejs-polars' own
 * `describe()` fails on them). Numeric columns give count, nulls, mean, std, min, quartiles
 * and max as numbers (the counts shown without decimals); dates and times give count, nulls, min, median and max as New York text;
 * text columns give count, nulls, distinct values, min and max.
 */
import pl from "nodejs-polars";
import { datetimeTexts } from "../display/cellText.ts";
import { markWholeRows } from "../display/wholeRows.ts";

const STATISTICS = ["count", "null_count", "mean", "std", "min", "25%", "50%", "75%", "max", "unique"] as const;
type Statistic = typeof STATISTICS[number];

const NUMERIC = /^(Int|UInt|Float)\d+$/;

function numeric(s: pl.Series): Partial<Record<Statistic, number | null>> {
  const c = pl.col("v");
  const row = pl.DataFrame([s.cast(pl.Float64).alias("v")]).select(
    c.count().cast(pl.Float64).alias("count"),
    c.nullCount().cast(pl.Float64).alias("null_count"),
    c.mean().alias("mean"),
    c.std().alias("std"),
    c.min().alias("min"),
    c.quantile(0.25, "linear").alias("25%"),
    c.median().alias("50%"),
    c.quantile(0.75, "linear").alias("75%"),
    c.max().alias("max"),
  ).toRecords()[0] as Record<string, number | null>;
  return row;
}

function textual(frame: pl.DataFrame, name: string): Partial<Record<Statistic, string | null>> {
  const s = frame.getColumn(name);
  const variant = s.dtype.variant;
  const count = String(s.length - s.nullCount()), nulls = String(s.nullCount());
  if (variant === "Date" || variant === "Datetime") {
    const fmt = variant === "Date" ? "%Y-%m-%d" : "%Y-%m-%d %H:%M:%S%.9f";
    const present = frame.select(pl.col(name)).dropNulls().sort(name);
    // The lower median, as an actual value of the column: dates and instants have no mean.
    const at = (i: number) => (present.height ? present.select(pl.col(name).dt.strftime(fmt)).getColumn(name).get(i) as string : null);
    const picked = [at(0), at(Math.floor((present.height - 1) / 2)), at(present.height - 1)];
    const [min, median, max] = variant === "Date" ? picked : datetimeTexts(picked);
    return { count, null_count: nulls, min, "50%": median, max };
  }
  if (variant === "String" || variant === "Utf8" || variant === "Categorical" || variant === "Bool") {
    const text = s.cast(pl.String).dropNulls();
    const sorted = text.sort();
    return {
      count,
      null_count: nulls,
      unique: String(text.nUnique()),
      min: text.length ? sorted.get(0) : null,
      max: text.length ? sorted.get(text.length - 1) : null,
    };
  }
  return { count, null_count: nulls };
}

/**
 * One row per statistic, one column per column of `frame`.
 *
 * @example
 * ```ts
 * import { describe } from "./kernel-helpers/mod.ts";
 * const bars = await wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-11-21" } });
 * describe(bars); // works with TradeDate (Date) and BarDateTime (Datetime, New York)
 * ```
 */
export function describe(frame: pl.DataFrame): pl.DataFrame {
  const columns = frame.columns.map((name) => {
    const s = frame.getColumn(name);
    if (NUMERIC.test(s.dtype.variant)) {
      const stats = numeric(s);
      return pl.Series(name, STATISTICS.map((k) => stats[k] ?? null), pl.Float64);
    }
    const stats = textual(frame, name);
    return pl.Series(name, STATISTICS.map((k) => stats[k] ?? null), pl.String);
  });
  // count and null_count are counts: the table shows them without decimals.
  return markWholeRows(pl.DataFrame([pl.Series("statistic", [...STATISTICS]), ...columns]), [0, 1]);
}
