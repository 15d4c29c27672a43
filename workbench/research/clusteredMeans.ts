/**
 * Weighted means over many days with standard errors clustered by day, the way trading costs
 * are reported (e.g. Hendershott, Jones and Menkveld 2011): trades of one day share the day's
 * news and liquidity, so they are not independent draws, while days roughly are.
 *
 * Two estimates of a measure x with weights w (dollar volume) over G days:
 *
 * - pooled: θ = Σᵢ wᵢxᵢ / Σᵢ wᵢ over every trade of every day. Its clustered standard error
 *   is the sandwich (CR1) estimator of a weighted regression of x on a constant with day
 *   clusters: SE² = G/(G−1) · Σ_g (S_g − θ·W_g)² / (Σ_g W_g)², with S_g = Σ_{i∈g} wᵢxᵢ and
 *   W_g = Σ_{i∈g} wᵢ (Cameron and Miller 2015);
 * - mean of days: x̄_g = S_g / W_g each day, then their plain mean; SE = sd(x̄_g) / √G.
 *
 * Both need only S_g and W_g, so a long sample is reduced day by day (`dayTotals`) and the
 * day totals of finer groups add up to those of coarser ones (`clusteredMeans` sums them).
 * With one day there is no standard error: it is null, never NaN.
 */
import pl from "nodejs-polars";
import { QueryError } from "../errors/base.ts";

/** How observations are grouped and weighted. */
export interface ClusterOptions {
  /** The measures (columns) to average. */
  measures: string[];
  /** Columns that split the estimates (e.g. `["Ticker", "Venue"]`); none for one estimate. */
  by?: string[];
  /** The cluster column (default `TradeDate`). */
  cluster?: string;
  /** The weight column (default `DollarVolume`). */
  weight?: string;
}

/** The day-total columns of a measure: Σ w·x and Σ w over its non-null values. */
export const totalColumns = (measure: string): { sum: string; weight: string } => ({ sum: `${measure}__wx`, weight: `${measure}__w` });

function check(frame: pl.DataFrame, columns: string[], what: string): void {
  const missing = columns.filter((c) => !frame.columns.includes(c));
  if (missing.length > 0) {
    throw new QueryError(`${what} needs the column(s) ${missing.join(", ")}; the frame has ${frame.columns.join(", ")}`);
  }
}

/**
 * Per cluster (day) and group: `Observations` (rows with the first measure present) and, for
 * each measure, Σ w·x and Σ w over the rows where it is present (`totalColumns` names them).
 *
 * @example
 * ```ts
 * const day = tradeSpreads(await wb.data.eqTaq("2023-11-21", "AAPL")).withColumns(pl.lit("AAPL").alias("Ticker"), pl.lit("2023-11-21").alias("TradeDate"));
 * const totals = dayTotals(day, { measures: ["EffectiveBps", "RealizedBps"], by: ["Ticker", "Venue"] });
 * ```
 */
export function dayTotals(frame: pl.DataFrame, options: ClusterOptions): pl.DataFrame {
  const { measures, by = [], cluster = "TradeDate", weight = "DollarVolume" } = options;
  if (measures.length === 0) throw new QueryError("dayTotals needs at least one measure");
  check(frame, [...measures, ...by, cluster, weight], "dayTotals");
  const w = pl.col(weight).cast(pl.Float64);
  return frame
    .groupBy([...by, cluster])
    .agg(
      pl.col(measures[0]).isNotNull().sum().cast(pl.Int64).alias("Observations"),
      ...measures.flatMap((m) => {
        const present = pl.col(m).isNotNull().and(w.isNotNull());
        return [
          pl.when(present).then(w.mul(pl.col(m))).otherwise(pl.lit(0)).sum().alias(totalColumns(m).sum),
          pl.when(present).then(w).otherwise(pl.lit(0)).sum().alias(totalColumns(m).weight),
        ];
      }),
    );
}

/**
 * Estimates with clustered standard errors from `dayTotals` (any finer grouping is summed up to
 * `by`). One row per group and measure: the `by` columns, Measure, Pooled, PooledSe, DayMean,
 * DayMeanSe (in the measure's units; the standard errors null with fewer than two days), Days
 * (with the measure present), Observations and Weight (Σ w).
 *
 * @example
 * ```ts
 * const day = tradeSpreads(await wb.data.eqTaq("2023-11-21", "AAPL")).withColumns(pl.lit("AAPL").alias("Ticker"), pl.lit("2023-11-21").alias("TradeDate"));
 * const totals = dayTotals(day, { measures: ["EffectiveBps"], by: ["Ticker"] });
 * const estimates = clusteredMeans(totals, { measures: ["EffectiveBps"], by: ["Ticker"] });
 * ```
 */
export function clusteredMeans(totals: pl.DataFrame, options: ClusterOptions): pl.DataFrame {
  const { measures, by = [], cluster = "TradeDate" } = options;
  const columns = measures.flatMap((m) => [totalColumns(m).sum, totalColumns(m).weight]);
  check(totals, [...columns, ...by, cluster, "Observations"], "clusteredMeans");
  const keys = by.length > 0 ? by : ["__all"];
  const days = totals
    .withColumns(pl.lit(1).alias("__all"))
    .groupBy([...keys, cluster])
    .agg(pl.col("Observations").sum(), ...columns.map((c) => pl.col(c).sum()));
  const perMeasure = measures.map((m, order) => {
    const { sum, weight } = totalColumns(m);
    const [S, W] = [pl.col(sum), pl.col(weight)];
    const theta = S.sum().over(keys[0], ...keys.slice(1)).div(W.sum().over(keys[0], ...keys.slice(1)));
    return days
      .filter(W.gt(0))
      .withColumns(S.sub(theta.mul(W)).pow(2).alias("__u2"), S.div(W).alias("__day"))
      .groupBy(keys)
      .agg(
        S.sum().div(W.sum()).alias("Pooled"),
        pl.col("__u2").sum().alias("__u2"),
        pl.col("__day").mean().alias("DayMean"),
        pl.col("__day").std().alias("__sd"),
        pl.len().cast(pl.Int64).alias("Days"),
        pl.col("Observations").sum().cast(pl.Int64),
        W.sum().alias("Weight"),
      )
      .withColumns(pl.lit(m).alias("Measure"), pl.lit(order).alias("__order"));
  });
  const G = pl.col("Days").cast(pl.Float64);
  const se = (e: pl.Expr) => pl.when(G.gt(1)).then(e).otherwise(pl.lit(null).cast(pl.Float64));
  return pl.concat(perMeasure, { how: "vertical" })
    .withColumns(
      se(G.div(G.sub(1)).mul(pl.col("__u2")).pow(0.5).div(pl.col("Weight"))).alias("PooledSe"),
      se(pl.col("__sd").div(G.pow(0.5))).alias("DayMeanSe"),
    )
    .sort([...by, "__order"])
    .select(...by, "Measure", "Pooled", "PooledSe", "DayMean", "DayMeanSe", "Days", "Observations", "Weight");
}
