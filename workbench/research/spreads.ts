/**
 * Trading-cost measures of one ticker-day from its ticks (Huang and Stoll 1996; Bessembinder
 * 2003; Hendershott, Jones and Menkveld 2011), each trade signed by Lee-Ready (`leeReady.ts`):
 *
 * - effective spread 2·D·(P − M): D the sign, P the price, M the NBBO midpoint at the trade;
 * - realized spread at horizon h, 2·D·(P − Mₕ): Mₕ the midpoint h later (the close's midpoint
 *   when h runs past the close), what the liquidity provider kept;
 * - price impact 2·D·(Mₕ − M) = effective − realized: how far the midpoint moved the trade's way;
 *
 * in dollars per share and in basis points of M. Regular hours only (calendar/: 09:30 to 16:00,
 * 13:00 on early-close days). Opening and closing auction prints (condition O, Q, 6 or M) do not
 * trade against the NBBO and are left out, as are trades at a locked or crossed NBBO and trades
 * the tick test cannot sign; `Excluded` says which, and every measure is null on them.
 */
import pl from "nodejs-polars";
import { tradingDays } from "../../calendar/calendar.ts";
import { QueryError } from "../errors/base.ts";
import { type DayTicks, dayTicks, midAt, midTimeline, NO_MID, signDay, signedColumns, type SignedDay, tradeFrame } from "./leeReady.ts";

const NS_PER_SECOND = 1e9;
const NS_PER_MINUTE = 60e9;
/** Condition codes of auction prints: O and Q opening, 6 and M closing. */
const AUCTION = "[OQ6M]";
/** Why a trade is not measured, by code: no usable midpoint (`leeReady.ts`), an auction print, unsigned. */
const EXCLUDED = [...NO_MID, "auction", "unsigned"] as const;
const [AUCTION_CODE, UNSIGNED_CODE] = [EXCLUDED.indexOf("auction"), EXCLUDED.indexOf("unsigned")];
/** The FINRA trade reporting facilities' exchange code in TAQ. */
export const TRF_EXCHANGE = "D";

/** Options of the spread measures. */
export interface SpreadOptions {
  /** Minutes after the trade for the realized spread and price impact (default 5). */
  horizonMinutes?: number;
  /**
   * More horizons, in seconds, for a decay curve: each adds `RealizedBps_<s>s` and
   * `PriceImpactBps_<s>s` (`decayColumn` names them).
   */
  decaySeconds?: number[];
}

/** The column of a decay horizon: `decayColumn("PriceImpactBps", 30)` is `PriceImpactBps_30s`. */
export const decayColumn = (measure: "RealizedBps" | "PriceImpactBps", seconds: number): string => `${measure}_${seconds}s`;

/** Regular-hours bounds of a date, in minutes after New York midnight; throws on a non-trading day. */
function regularMinutes(date: string): { open: number; close: number } {
  const day = tradingDays(date, date)[0];
  if (!day) throw new QueryError(`${date} is not a trading day: no regular hours to measure`);
  return { open: day.openMinute, close: day.closeMinute };
}

function checkHorizon(seconds: number, what: string): void {
  if (!(Number.isFinite(seconds) && seconds > 0)) throw new QueryError(`${what} must be a number of seconds above 0, got ${seconds}`);
}

/**
 * Per-trade effective spread, realized spread and price impact of one ticker-day's regular
 * hours (ticks from `wb.data.eqTaq`). Columns: those of `signTrades`, then MinuteOfDay, Venue
 * (`exchange`, or `TRF` for prints reported to a FINRA trade reporting facility, exchange
 * code D), DollarVolume (price × shares, dollars), QuotedBps (the NBBO's width in bps of its
 * midpoint), Effective, Realized, PriceImpact (dollars per share), EffectiveBps, RealizedBps,
 * PriceImpactBps and the decay columns. `Excluded` also names auction prints (`auction`) and
 * unsigned trades (`unsigned`).
 *
 * @example
 * ```ts
 * const ticks = await wb.data.eqTaq("2023-11-21", "AAPL");
 * const trades = tradeSpreads(ticks, { decaySeconds: [15, 60, 300] });
 * weightedSpreads(trades); // one row: dollar-volume-weighted EffectiveBps, RealizedBps, PriceImpactBps, ...
 * ```
 */
export function tradeSpreads(ticks: pl.DataFrame, options: SpreadOptions = {}): pl.DataFrame {
  const d = measureDay(ticks, options);
  const signed = signedColumns(d.ticks, d.signed, d.keep);
  const bps = (values: Float64Array) => values.map((v, j) => (v / signed.floats.Mid[j]) * 1e4);
  return tradeFrame(ticks, Int32Array.from(d.keep, (k) => d.signed.rows[k]), {
    floats: {
      ...signed.floats,
      DollarVolume: d.dollars,
      QuotedBps: d.quotedBps,
      Effective: d.effective,
      Realized: d.realized,
      PriceImpact: d.impact,
      EffectiveBps: bps(d.effective),
      RealizedBps: bps(d.realized),
      PriceImpactBps: bps(d.impact),
      ...Object.fromEntries(
        d.decay.flatMap((
          h,
        ) => [[decayColumn("RealizedBps", h.seconds), h.realizedBps], [decayColumn("PriceImpactBps", h.seconds), h.impactBps]]),
      ),
    },
    ints: { MinuteOfDay: d.minute },
    int8: signed.int8,
    labels: { ...signed.labels, Excluded: { codes: d.excluded, labels: EXCLUDED }, Venue: { codes: d.venue, labels: VENUES } },
  });
}

/** `Venue` codes of `DayMeasures.venue`. */
export const VENUES = ["", "exchange", "TRF"] as const;

/**
 * The measures of one ticker-day's regular-hours trades as typed arrays, one entry per trade
 * (NaN where `excluded` is not 0): what `tradeSpreads` shows as a frame and `spreadDayTotals`
 * sums without building one.
 */
export interface DayMeasures {
  /** The day's ticks. */
  ticks: DayTicks;
  /** Its trades, signed. */
  signed: SignedDay;
  /** Positions in `signed` of the regular-hours trades. */
  keep: Int32Array;
  /** Index into `EXCLUDED` (0: measured). */
  excluded: Uint8Array;
  /** The trade's minute after midnight, New York time. */
  minute: Int32Array;
  /** Index into `VENUES`. */
  venue: Uint8Array;
  /** The trade's value in dollars. */
  dollars: Float64Array;
  /** The quoted spread in basis points of the midpoint. */
  quotedBps: Float64Array;
  /** Dollars per share. */
  effective: Float64Array;
  /** The realized spread, dollars per share, at the first horizon. */
  realized: Float64Array;
  /** The price impact, dollars per share, at the first horizon. */
  impact: Float64Array;
  /** The realized spread and price impact in basis points at each horizon of the decay. */
  decay: { seconds: number; realizedBps: Float64Array; impactBps: Float64Array }[];
}

/** Computes `DayMeasures` by the rules of the module's documentation. */
export function measureDay(ticks: pl.DataFrame, options: SpreadOptions = {}): DayMeasures {
  const horizon = (options.horizonMinutes ?? 5) * 60;
  checkHorizon(horizon, "horizonMinutes × 60");
  const decaySeconds = options.decaySeconds ?? [];
  decaySeconds.forEach((s) => checkHorizon(s, "Each of decaySeconds"));
  const t = dayTicks(ticks);
  const s = signDay(t);
  const { open, close } = regularMinutes(t.date);
  const [openNs, closeNs] = [open * NS_PER_MINUTE, close * NS_PER_MINUTE];
  const timeline = midTimeline(t);
  const flags = ticks.select(
    (ticks.columns.includes("ConditionCode") ? pl.col("ConditionCode").fillNull(pl.lit("")).str.contains(AUCTION) : pl.lit(false)).cast(
      pl.UInt8,
    ).alias("auction"),
    (ticks.columns.includes("Exchange") ? pl.col("Exchange").eq(pl.lit(TRF_EXCHANGE)).fillNull(pl.lit(false)) : pl.lit(false)).cast(
      pl.UInt8,
    ).alias("trf"),
  );
  const [auction, trf] = ["auction", "trf"].map((c) => flags.getColumn(c).toTypedArray() as Uint8Array);
  const keep = Int32Array.from(s.rows.keys()).filter((k) => t.nsOfDay[s.rows[k]] >= openNs && t.nsOfDay[s.rows[k]] < closeNs);
  const n = keep.length;
  const column = () => new Float64Array(n).fill(NaN);
  const d: DayMeasures = {
    ticks: t,
    signed: s,
    keep,
    excluded: new Uint8Array(n),
    minute: new Int32Array(n),
    venue: new Uint8Array(n),
    dollars: column(),
    quotedBps: column(),
    effective: column(),
    realized: column(),
    impact: column(),
    decay: decaySeconds.map((seconds) => ({ seconds, realizedBps: column(), impactBps: column() })),
  };
  for (let j = 0; j < n; j++) {
    const k = keep[j], i = s.rows[k];
    const [p, m, sign] = [t.price[i], s.mid[k], s.sign[k]];
    d.minute[j] = Math.floor(t.nsOfDay[i] / NS_PER_MINUTE);
    d.venue[j] = trf[i] ? 2 : 1;
    d.dollars[j] = p * t.quantity[i];
    d.excluded[j] = s.noMid[k] !== 0 ? s.noMid[k] : auction[i] ? AUCTION_CODE : sign === 0 ? UNSIGNED_CODE : 0;
    if (d.excluded[j] !== 0) continue;
    const after = (seconds: number) => midAt(timeline, Math.min(t.nsOfDay[i] + seconds * NS_PER_SECOND, closeNs));
    const later = after(horizon);
    d.quotedBps[j] = ((s.ask[k] - s.bid[k]) / m) * 1e4;
    d.effective[j] = 2 * sign * (p - m);
    d.realized[j] = 2 * sign * (p - later);
    d.impact[j] = 2 * sign * (later - m);
    for (const h of d.decay) {
      const mh = after(h.seconds);
      h.realizedBps[j] = ((2 * sign * (p - mh)) / m) * 1e4;
      h.impactBps[j] = ((2 * sign * (mh - m)) / m) * 1e4;
    }
  }
  return d;
}

/** The measure columns of a `tradeSpreads` frame: those in dollars, then those in bps. */
export function measureColumns(measures: pl.DataFrame): string[] {
  return measures.columns.filter((c) => ["Effective", "Realized", "PriceImpact"].includes(c) || /Bps(_\d+(\.\d+)?s)?$/.test(c));
}

/** Dollar-volume-weighted means of the measures over the rows of a group. */
function weightedMeans(names: string[]): pl.Expr[] {
  const counted = pl.col("Effective").isNotNull();
  const w = pl.when(counted).then(pl.col("DollarVolume")).otherwise(pl.lit(0));
  return [
    counted.sum().cast(pl.Int64).alias("Count"),
    w.sum().alias("DollarVolume"),
    ...names.map((m) => pl.col(m).mul(w).sum().div(w.sum()).alias(m)),
  ];
}

/**
 * Dollar-volume-weighted measures over a whole `tradeSpreads` frame (one row; `Count` is the
 * trades measured, `DollarVolume` theirs in dollars). For estimates with standard errors over
 * many days, see `dayTotals` and `clusteredMeans`.
 *
 * @example
 * ```ts
 * const ticks = await wb.data.eqTaq("2023-11-21", "AAPL");
 * weightedSpreads(tradeSpreads(ticks)).getColumn("EffectiveBps").get(0);
 * ```
 */
export function weightedSpreads(measures: pl.DataFrame): pl.DataFrame {
  return measures.select(...weightedMeans(measureColumns(measures)));
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
  if (!(Number.isInteger(bucketMinutes) && bucketMinutes > 0)) {
    throw new QueryError(`bucketMinutes must be a whole number of minutes above 0, got ${bucketMinutes}`);
  }
  const grouped = withTimeBucket(measures, bucketMinutes).groupBy("BucketMinute").agg(...weightedMeans(measureColumns(measures))).sort(
    "BucketMinute",
  );
  const label = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
  return grouped.withColumns(pl.Series("Bucket", (grouped.getColumn("BucketMinute").toArray() as number[]).map(label), pl.String));
}

/** Adds `BucketMinute`: the start of the trade's `bucketMinutes` bucket, counted from 09:30. */
export function withTimeBucket(measures: pl.DataFrame, bucketMinutes: number): pl.DataFrame {
  // Buckets start at 09:30, the open of every NYSE day.
  return measures.withColumns(
    pl.col("MinuteOfDay").sub(570).div(bucketMinutes).floor().cast(pl.Int32).mul(bucketMinutes).add(570).alias("BucketMinute"),
  );
}
