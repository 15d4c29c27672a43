/**
 * Trading-cost measures of one ticker-day, from ticks and from minute bars, on one footing:
 *
 * - effective spread 2·D·(P − M): D the Lee-Ready sign, P the price, M the NBBO midpoint;
 * - realized spread 2·D·(P − M₅): M₅ the midpoint five minutes later (capped at the close);
 * - price impact 2·D·(M₅ − M) = effective − realized;
 * each in dollars and in basis points of M, averaged with dollar-volume weights, regular hours
 * only (calendar/: 09:30 to 16:00, 13:00 on early-close days). Opening and closing auction
 * prints (conditions O and 6) do not trade against the NBBO and are left out, as are trades at
 * a locked or crossed NBBO and trades the tick test cannot sign; `Excluded` says which.
 *
 * From minute bars the same measures are approximated per bar: M is the time-weighted
 * midpoint, D the sign of `TradeToMidVolWeight` (the bar's volume-weighted price minus
 * midpoint) and |P − M| its size; buys and sells within a bar net out, which is what the bar
 * approximation misses.
 */
import pl from "nodejs-polars";
import { tradingDays } from "../../calendar/calendar.ts";
import { QueryError } from "../errors/base.ts";
import { dayTicks, midAt, midTimeline, signDay, signedFrame } from "./leeReady.ts";

const NS_PER_MINUTE = 60e9;
const AUCTIONS = new Set(["O", "6"]);

/** Options of the spread measures. */
export interface SpreadOptions {
  /** Minutes after the trade for the realized spread (default 5). */
  horizonMinutes?: number;
}

/** Regular-hours bounds of a date, in minutes after New York midnight; throws on a non-trading day. */
function regularMinutes(date: string): { open: number; close: number } {
  const day = tradingDays(date, date)[0];
  if (!day) throw new QueryError(`${date} is not a trading day: no regular hours to measure`);
  return { open: day.openMinute, close: day.closeMinute };
}

/**
 * Per-trade effective spread, realized spread and price impact of one ticker-day's regular
 * hours (ticks from `wb.data.eqTaq`), each trade signed by Lee-Ready. Columns: those of
 * `signTrades`, then MinuteOfDay, DollarVolume, Effective, Realized, PriceImpact (dollars per
 * share) and EffectiveBps, RealizedBps, PriceImpactBps; `Excluded` also names auction prints
 * and unsigned trades, and the measures are null on every excluded trade.
 *
 * @example
 * ```ts
 * const ticks = await wb.data.eqTaq("2023-11-21", "AAPL");
 * const trades = tradeSpreads(ticks);
 * weightedSpreads(trades); // one row: dollar-volume-weighted EffectiveBps, RealizedBps, PriceImpactBps
 * ```
 */
export function tradeSpreads(ticks: pl.DataFrame, options: SpreadOptions = {}): pl.DataFrame {
  const horizon = (options.horizonMinutes ?? 5) * NS_PER_MINUTE;
  const t = dayTicks(ticks);
  const s = signDay(t);
  const { open, close } = regularMinutes(t.date);
  const timeline = midTimeline(t);
  const regular: boolean[] = [], minute: number[] = [], excluded: (string | null)[] = [], later: (number | null)[] = [];
  s.rows.forEach((i, k) => {
    const ns = t.nsOfDay[i];
    const why = s.excluded[k] ?? (AUCTIONS.has(t.condition[i]) ? "auction" : s.sign[k] === null ? "unsigned" : null);
    regular.push(ns >= open * NS_PER_MINUTE && ns < close * NS_PER_MINUTE);
    minute.push(Math.floor(ns / NS_PER_MINUTE));
    excluded.push(why);
    later.push(why === null ? midAt(timeline, Math.min(ns + horizon, close * NS_PER_MINUTE)) : null);
  });
  const included = pl.col("Excluded").isNull();
  const measure = (e: pl.Expr, name: string) => pl.when(included).then(e).otherwise(pl.lit(null).cast(pl.Float64)).alias(name);
  const D = pl.col("Sign").cast(pl.Float64), P = pl.col("Price"), M = pl.col("Mid"), M5 = pl.col("MidLater");
  return signedFrame(ticks, t, s)
    .withColumns(
      pl.Series("Regular", regular, pl.Bool),
      pl.Series("MinuteOfDay", minute, pl.Int32),
      pl.Series("Excluded", excluded, pl.String),
      pl.Series("MidLater", later, pl.Float64),
    )
    .filter(pl.col("Regular"))
    .withColumns(
      P.mul(pl.col("Quantity")).alias("DollarVolume"),
      measure(D.mul(P.sub(M)).mul(2), "Effective"),
      measure(D.mul(P.sub(M5)).mul(2), "Realized"),
      measure(D.mul(M5.sub(M)).mul(2), "PriceImpact"),
    )
    .withColumns(...bpsOf())
    .drop("MidLater", "Regular");
}

/** The three measures in basis points of the midpoint. */
function bpsOf(): pl.Expr[] {
  return ["Effective", "Realized", "PriceImpact"].map((m) => pl.col(m).div(pl.col("Mid")).mul(1e4).alias(`${m}Bps`));
}

/**
 * The same three measures approximated from one ticker-day of minute bars
 * (`wb.data.eqTaq1Min`), one row per regular-hours bar with trades. Columns: BarDateTime,
 * MinuteOfDay, Mid, Sign, DollarVolume, Effective, Realized, PriceImpact and the Bps forms.
 *
 * @example
 * ```ts
 * const bars = await wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-11-21" } });
 * weightedSpreads(barSpreads(bars)); // compare with weightedSpreads(tradeSpreads(ticks))
 * ```
 */
export function barSpreads(bars: pl.DataFrame, options: SpreadOptions = {}): pl.DataFrame {
  const horizon = options.horizonMinutes ?? 5;
  const need = ["TradeDate", "BarDateTime", "TimeWeightBid", "TimeWeightAsk", "TradeToMidVolWeight", "Volume", "VolumeWeightPrice", "FinraVolume", "FinraVolumeWeightPrice"];
  const missing = need.filter((c) => !bars.columns.includes(c));
  if (missing.length > 0) throw new QueryError(`barSpreads needs the minute-bar columns ${missing.join(", ")}`);
  const dates = bars.getColumn("TradeDate").unique().toArray();
  if (dates.length !== 1) throw new QueryError(`barSpreads takes one ticker-day of bars; the frame holds ${dates.length} days`);
  const { open, close } = regularMinutes((dates[0] as unknown as Date).toISOString().slice(0, 10));
  const minute = pl.col("BarDateTime").dt.hour().cast(pl.Int32).mul(60).add(pl.col("BarDateTime").dt.minute().cast(pl.Int32));
  const regular = bars.withColumns(minute.alias("MinuteOfDay")).filter(pl.col("MinuteOfDay").gtEq(open).and(pl.col("MinuteOfDay").lt(close))).sort("BarDateTime");
  const dollars = (v: string, p: string) => pl.col(v).cast(pl.Float64).mul(pl.col(p)).fillNull(pl.lit(0));
  const D = pl.col("Sign").cast(pl.Float64), M = pl.col("Mid"), M5 = pl.col("MidLater"), TTM = pl.col("TradeToMidVolWeight");
  return regular
    .select(
      "BarDateTime",
      "MinuteOfDay",
      pl.when(pl.col("TimeWeightBid").lt(pl.col("TimeWeightAsk"))).then(pl.col("TimeWeightBid").add(pl.col("TimeWeightAsk")).div(2)).otherwise(pl.lit(null).cast(pl.Float64)).alias("Mid"),
      pl.when(TTM.gt(0)).then(pl.lit(1)).when(TTM.lt(0)).then(pl.lit(-1)).when(TTM.eq(0)).then(pl.lit(0)).otherwise(pl.lit(null)).cast(pl.Int8).alias("Sign"),
      TTM,
      dollars("Volume", "VolumeWeightPrice").add(dollars("FinraVolume", "FinraVolumeWeightPrice")).alias("DollarVolume"),
    )
    // the bar `horizon` minutes later, or the last regular bar
    .withColumns(M.shift(-horizon).fillNull("forward").alias("MidLater"))
    .filter(TTM.isNotNull().and(M.isNotNull()).and(pl.col("DollarVolume").gt(0)))
    .withColumns(
      TTM.abs().mul(2).alias("Effective"),
      D.mul(TTM.add(M).sub(M5)).mul(2).alias("Realized"),
      D.mul(M5.sub(M)).mul(2).alias("PriceImpact"),
    )
    .withColumns(...bpsOf())
    .drop("MidLater", "TradeToMidVolWeight");
}

/** Dollar-volume-weighted means of the measures over the rows of a group. */
function weightedMeans(): pl.Expr[] {
  const w = pl.col("DollarVolume");
  const names = ["Effective", "Realized", "PriceImpact", "EffectiveBps", "RealizedBps", "PriceImpactBps"];
  const counted = pl.col("Effective").isNotNull();
  return [
    counted.sum().cast(pl.Int64).alias("Count"),
    pl.when(counted).then(w).otherwise(pl.lit(0)).sum().alias("DollarVolume"),
    ...names.map((m) => pl.col(m).mul(w).sum().div(pl.when(counted).then(w).otherwise(pl.lit(0)).sum()).alias(m)),
  ];
}

/**
 * Dollar-volume-weighted measures over a whole frame from `tradeSpreads` or `barSpreads`
 * (one row; `Count` is the trades or bars measured).
 *
 * @example
 * ```ts
 * const ticks = await wb.data.eqTaq("2023-11-21", "AAPL");
 * weightedSpreads(tradeSpreads(ticks)).getColumn("EffectiveBps").get(0);
 * ```
 */
export function weightedSpreads(measures: pl.DataFrame): pl.DataFrame {
  return measures.select(...weightedMeans());
}

/**
 * Dollar-volume-weighted measures by time of day, in buckets of `bucketMinutes` from the
 * open (default 30): `Bucket` is the bucket's start as `HH:MM` New York time.
 *
 * @example
 * ```ts
 * const ticks = await wb.data.eqTaq("2023-11-21", "AAPL");
 * const byTime = spreadsByTimeOfDay(tradeSpreads(ticks), 30);
 * ```
 */
export function spreadsByTimeOfDay(measures: pl.DataFrame, bucketMinutes = 30): pl.DataFrame {
  if (!(Number.isInteger(bucketMinutes) && bucketMinutes > 0)) throw new QueryError(`bucketMinutes must be a whole number of minutes above 0, got ${bucketMinutes}`);
  // Buckets start at 09:30, the open of every NYSE day.
  const start = pl.col("MinuteOfDay").sub(570).div(bucketMinutes).floor().cast(pl.Int32).mul(bucketMinutes).add(570);
  const grouped = measures.withColumns(start.alias("BucketMinute")).groupBy("BucketMinute").agg(...weightedMeans()).sort("BucketMinute");
  const label = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
  return grouped.withColumns(pl.Series("Bucket", (grouped.getColumn("BucketMinute").toArray() as number[]).map(label), pl.String));
}
