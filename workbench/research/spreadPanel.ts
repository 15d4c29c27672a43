/**
 * Trading costs over many ticker-days without holding their ticks: each ticker-day's trades
 * (`tradeSpreads`) are reduced at once to day totals by venue, trade size and time of day
 * (`spreadDayTotals`), and the estimates with day-clustered standard errors come from those
 * totals (`clusteredMeans`), the decay curve included (`decayCurve`).
 */
import pl from "nodejs-polars";
import { QueryError } from "../errors/base.ts";
import { clusteredMeans, totalColumns } from "./clusteredMeans.ts";
import { decayColumn, measureDay, type SpreadOptions, VENUES } from "./spreads.ts";

/** Upper bounds (exclusive) of the trade-size buckets, in dollars; the last bucket is open. */
export const SIZE_BOUNDS_DOLLARS = [10_000, 50_000, 250_000] as const;
/** The size buckets' labels, smallest first. */
export const SIZE_BUCKETS = ["under $10k", "$10k to $50k", "$50k to $250k", "$250k and over"] as const;

/** The measures `spreadDayTotals` keeps, in bps of the midpoint: the headline ones, then the decay horizons'. */
export function spreadMeasures(decaySeconds: readonly number[] = []): string[] {
  return [
    "QuotedBps",
    "EffectiveBps",
    "RealizedBps",
    "PriceImpactBps",
    ...decaySeconds.flatMap((s) => [decayColumn("RealizedBps", s), decayColumn("PriceImpactBps", s)]),
  ];
}

/**
 * Adds `SizeBucket`: the trade's dollar value (`DollarVolume`) in the buckets of
 * `SIZE_BUCKETS`. Dollars, not shares, so that a split or a price level does not move a trade
 * into another bucket.
 *
 * @example
 * ```ts
 * const ticks = await wb.data.eqTaq("2023-11-21", "AAPL");
 * withSizeBucket(tradeSpreads(ticks)).groupBy("SizeBucket").len();
 * ```
 */
export function withSizeBucket(trades: pl.DataFrame): pl.DataFrame {
  const v = pl.col("DollarVolume");
  let bucket = pl.lit(SIZE_BUCKETS.at(-1)!);
  for (let b = SIZE_BOUNDS_DOLLARS.length - 1; b >= 0; b--) {
    bucket = pl.when(v.lt(pl.lit(SIZE_BOUNDS_DOLLARS[b]))).then(pl.lit(SIZE_BUCKETS[b])).otherwise(bucket);
  }
  return trades.withColumns(bucket.alias("SizeBucket"));
}

/** Options of `spreadDayTotals`: the measures' and the time-of-day buckets' (default 30 minutes). */
export interface SpreadDayOptions extends SpreadOptions {
  /** Minutes per time-of-day bucket, counted from 09:30 (default 30). */
  bucketMinutes?: number;
}

/**
 * One ticker-day of ticks reduced to day totals of `spreadMeasures` by Ticker, Venue, SizeBucket,
 * BucketMinute and TradeDate, dollar-volume weighted: a few dozen rows that `clusteredMeans` and
 * `decayCurve` turn into estimates. The same rows as `dayTotals` of
 * `withTimeBucket(withSizeBucket(tradeSpreads(ticks)))`, summed without building the trades' frame.
 *
 * @example
 * ```ts
 * const totals = spreadDayTotals(await wb.data.eqTaq("2023-11-21", "AAPL"), { decaySeconds: [60, 300] });
 * clusteredMeans(totals, { measures: spreadMeasures([60, 300]), by: ["Ticker"] });
 * ```
 */
export function spreadDayTotals(ticks: pl.DataFrame, options: SpreadDayOptions = {}): pl.DataFrame {
  const bucketMinutes = options.bucketMinutes ?? 30;
  if (!(Number.isInteger(bucketMinutes) && bucketMinutes > 0)) {
    throw new QueryError(`bucketMinutes must be a whole number of minutes above 0, got ${bucketMinutes}`);
  }
  const d = measureDay(ticks, options);
  const measures = spreadMeasures(options.decaySeconds);
  // The bps values of each measure, in `measures`' order.
  const mid = (j: number) => d.signed.mid[d.keep[j]];
  const perShare = (values: Float64Array) => values.map((v, j) => (v / mid(j)) * 1e4);
  const values = [
    d.quotedBps,
    perShare(d.effective),
    perShare(d.realized),
    perShare(d.impact),
    ...d.decay.flatMap((h) => [h.realizedBps, h.impactBps]),
  ];
  const groups = new Map<string, { venue: string; size: string; bucket: number; observations: number; wx: Float64Array; w: number }>();
  for (let j = 0; j < d.keep.length; j++) {
    const venue = VENUES[d.venue[j]];
    const below = SIZE_BOUNDS_DOLLARS.findIndex((bound) => d.dollars[j] < bound);
    const size = SIZE_BUCKETS[below < 0 ? SIZE_BUCKETS.length - 1 : below];
    const bucket = Math.floor((d.minute[j] - 570) / bucketMinutes) * bucketMinutes + 570;
    const key = `${venue}|${size}|${bucket}`;
    let g = groups.get(key);
    if (!g) groups.set(key, g = { venue, size, bucket, observations: 0, wx: new Float64Array(measures.length), w: 0 });
    if (d.excluded[j] !== 0) continue;
    g.observations++;
    g.w += d.dollars[j];
    for (let m = 0; m < measures.length; m++) g.wx[m] += d.dollars[j] * values[m][j];
  }
  const rows = [...groups.values()];
  return pl.DataFrame({
    Ticker: rows.map(() => d.ticks.ticker),
    Venue: rows.map((g) => g.venue),
    SizeBucket: rows.map((g) => g.size),
    BucketMinute: Int32Array.from(rows, (g) => g.bucket),
    TradeDate: rows.map(() => d.ticks.date),
    Observations: rows.map((g) => g.observations),
    ...Object.fromEntries(
      measures.flatMap((m, k) => [[
        totalColumns(m).sum,
        Float64Array.from(rows, (g) => g.wx[k]),
      ], [totalColumns(m).weight, Float64Array.from(rows, (g) => g.w)]]),
    ),
  }).withColumns(pl.col("Observations").cast(pl.Int64));
}

/**
 * The decay curve: realized spread and price impact at each horizon of `decaySeconds`, from day
 * totals, with day-clustered standard errors. One row per group and horizon: the `by` columns,
 * HorizonSeconds, RealizedBps, RealizedSe, PriceImpactBps, PriceImpactSe (pooled, dollar-volume
 * weighted, bps of the midpoint) and Days.
 *
 * @example
 * ```ts
 * const totals = spreadDayTotals(await wb.data.eqTaq("2023-11-21", "AAPL"), { decaySeconds: [5, 60, 300] });
 * decayCurve(totals, [5, 60, 300], ["Ticker"]);
 * ```
 */
export function decayCurve(totals: pl.DataFrame, decaySeconds: readonly number[], by: string[] = []): pl.DataFrame {
  if (decaySeconds.length === 0) throw new QueryError("decayCurve needs at least one horizon in decaySeconds");
  const rows = decaySeconds.map((h) => {
    const [r, i] = [decayColumn("RealizedBps", h), decayColumn("PriceImpactBps", h)];
    const est = clusteredMeans(totals, { measures: [r, i], by });
    const pick = (m: string, name: string) =>
      est.filter(pl.col("Measure").eq(pl.lit(m))).select(
        ...by,
        pl.col("Pooled").alias(`${name}Bps`),
        pl.col("PooledSe").alias(`${name}Se`),
        "Days",
      );
    const realized = pick(r, "Realized");
    const impact = pick(i, "PriceImpact").drop("Days");
    const joined = by.length > 0 ? realized.join(impact, { on: by }) : realized.hstack(impact);
    return joined.withColumns(pl.lit(h).cast(pl.Float64).alias("HorizonSeconds"));
  });
  return pl.concat(rows).select(...by, "HorizonSeconds", "RealizedBps", "RealizedSe", "PriceImpactBps", "PriceImpactSe", "Days").sort([
    ...by,
    "HorizonSeconds",
  ]);
}
