/**
 * Weighted means with day-clustered standard errors, against numbers worked out by hand in the
 * comments: three groups of trades, one with equal day weights (where the pooled CR1 error and
 * the mean-of-days error coincide), one with unequal weights (where they differ), one of a
 * single day (no standard error: null, not NaN).
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { clusteredMeans, dayTotals, QueryError, totalColumns } from "../../../workbench/mod.ts";

// Group, day, weight w, value x.
const TRADES = pl.DataFrame({
  Group: ["A", "A", "A", "A", "A", "B", "B", "C", "C"],
  TradeDate: ["d1", "d1", "d2", "d2", "d3", "d1", "d2", "d1", "d1"],
  DollarVolume: [1, 3, 2, 2, 4, 1, 3, 1, 1],
  X: [2, 4, 1, 3, 0, 10, 2, 5, null],
});

const row = (frame: pl.DataFrame, group: string) =>
  frame.filter(pl.col("Group").eq(pl.lit(group))).toRecords()[0] as Record<string, number | null>;

describe("dayTotals and clusteredMeans", () => {
  const totals = dayTotals(TRADES, { measures: ["X"], by: ["Group"] });
  const estimates = clusteredMeans(totals, { measures: ["X"], by: ["Group"] });

  it("sums w·x and w per day over the rows where the measure is present", () => {
    const a = totals.filter(pl.col("Group").eq(pl.lit("A"))).sort("TradeDate");
    // A: d1 1·2 + 3·4 = 14 over 4; d2 2·1 + 2·3 = 8 over 4; d3 0 over 4
    expect(a.getColumn(totalColumns("X").sum).toArray()).toEqual([14, 8, 0]);
    expect(a.getColumn(totalColumns("X").weight).toArray()).toEqual([4, 4, 4]);
    // C: the null value counts neither in the sum nor in the weight nor as an observation
    expect(row(totals, "C")).toMatchObject({ Observations: 1, [totalColumns("X").sum]: 5, [totalColumns("X").weight]: 1 });
  });

  it("equal day weights: pooled 22/12, both standard errors sqrt(1.5·(888/9)/144)", () => {
    // θ = 22/12; u_g = S_g − θ·W_g = 20/3, 2/3, −22/3; Σu² = 888/9; SE² = 3/2 · (888/9) / 12²
    const a = row(estimates, "A");
    expect(a.Pooled).toBeCloseTo(22 / 12, 12);
    expect(a.PooledSe).toBeCloseTo(Math.sqrt((1.5 * 888) / 9 / 144), 12);
    // day means 3.5, 2, 0: mean 11/6; sd² = (25/9 + 1/36 + 121/36)/2 = 37/12; SE = sqrt(37/12/3)
    expect(a.DayMean).toBeCloseTo(11 / 6, 12);
    expect(a.DayMeanSe).toBeCloseTo(Math.sqrt(37 / 12 / 3), 12);
    expect(a.PooledSe).toBeCloseTo(a.DayMeanSe!, 12);
    expect(a).toMatchObject({ Days: 3, Observations: 5, Weight: 12 });
  });

  it("unequal day weights: pooled 4 ± 3, mean of days 6 ± 4", () => {
    // S = 10, 6; W = 1, 3; θ = 16/4 = 4; u = 10 − 4 = 6, 6 − 12 = −6; SE² = 2/1 · 72 / 16 = 9
    // day means 10 and 2: mean 6, sd = sqrt(32), SE = sqrt(32)/sqrt(2) = 4
    expect(row(estimates, "B")).toMatchObject({ Pooled: 4, PooledSe: 3, DayMean: 6, DayMeanSe: 4, Days: 2 });
  });

  it("one day: the estimate, and null standard errors", () => {
    const c = row(estimates, "C");
    expect(c).toMatchObject({ Pooled: 5, DayMean: 5, Days: 1, PooledSe: null, DayMeanSe: null });
  });

  it("day totals of finer groups add up to the coarser estimate; no `by` is one estimate", () => {
    const overall = clusteredMeans(totals, { measures: ["X"] }).toRecords()[0] as Record<string, number>;
    // all groups by day: d1 S = 14 + 10 + 5 = 29, W = 4 + 1 + 1 = 6; d2 S = 8 + 6 = 14, W = 7; d3 S = 0, W = 4
    expect(overall.Pooled).toBeCloseTo(43 / 17, 12);
    const theta = 43 / 17;
    const u2 = (29 - theta * 6) ** 2 + (14 - theta * 7) ** 2 + (0 - theta * 4) ** 2;
    expect(overall.PooledSe).toBeCloseTo(Math.sqrt(1.5 * u2) / 17, 12);
    expect(overall.DayMean).toBeCloseTo((29 / 6 + 2 + 0) / 3, 12);
  });

  it("keeps the measures' order and refuses a frame without the columns it needs", () => {
    const two = dayTotals(TRADES.withColumns(pl.col("X").mul(2).alias("Y")), { measures: ["Y", "X"], by: ["Group"] });
    const est = clusteredMeans(two, { measures: ["Y", "X"], by: ["Group"] });
    expect(est.filter(pl.col("Group").eq(pl.lit("B"))).select("Measure", "Pooled").toRecords()).toEqual([{ Measure: "Y", Pooled: 8 }, {
      Measure: "X",
      Pooled: 4,
    }]);
    expect(() => dayTotals(TRADES, { measures: ["Z"] })).toThrow(QueryError);
    expect(() => clusteredMeans(TRADES, { measures: ["X"] })).toThrow(/needs the column\(s\) X__wx, X__w/);
  });
});
