/**
 * Stylized facts of one security's minute bars over days (real sample or generated market):
 * fat tails and volatility clustering at the minute scale, the open's volatility, activity
 * following risk, locked quotes, bar trade sizes, the extended-hours share of volume.
 */
import { correlation, excessKurtosis, mean, pooledAutocorrelation, quantile, sd } from "./stats.ts";
import { type BarDay, FIRST_MINUTE, OPEN_MINUTE, regularField, regularReturns } from "./minuteData.ts";

const concat = (parts: readonly ArrayLike<number>[]) => Float64Array.from(parts.flatMap((p) => Array.from(p)));

/**
 * Excess kurtosis of regular-hours 1-minute mid returns, pooled over days.
 *
 * @example
 * ```ts
 * minuteKurtosis(sampleBarDays(SAMPLE_CSV)); // 6-ish for the real sample
 * ```
 */
export function minuteKurtosis(days: readonly BarDay[]): number {
  return excessKurtosis(concat(days.map((d) => regularReturns(d).subarray(1))));
}

/**
 * Lag-1 autocorrelation of absolute 1-minute returns within each day. `deseason` divides each
 * absolute return by the mean at its minute of day over the days (removing the intraday U);
 * `fromMinute` starts the series later (600 = 10:00).
 */
export function absReturnAutocorrelation(days: readonly BarDay[], { deseason = false, fromMinute = OPEN_MINUTE + 1 } = {}): number {
  const series = days.map((d) => regularReturns(d).map(Math.abs));
  if (deseason) {
    const n = Math.max(...series.map((s) => s.length));
    const level = Float64Array.from({ length: n }, (_, m) => mean(series.filter((s) => m < s.length).map((s) => s[m])));
    for (const s of series) for (let m = 0; m < s.length; m++) s[m] = level[m] > 0 ? s[m] / level[m] : NaN;
  }
  return pooledAutocorrelation(series.map((s) => s.subarray(fromMinute - OPEN_MINUTE)), 1);
}

/** Volatility (root mean square return) of 09:30-09:34 over 12:00-13:59. */
export function openToMiddayVolatility(days: readonly BarDay[]): number {
  const rms = (from: number, to: number) => {
    const xs = concat(days.map((d) => regularReturns(d).subarray(from - OPEN_MINUTE, to - OPEN_MINUTE)));
    return Math.sqrt(mean(xs.map((x) => x * x)));
  };
  return rms(570, 575) / rms(720, 840);
}

/** Correlation of a regular-hours minute's volume (exchange + TRF) with its absolute return, pooled (auction minutes left out). */
export function volumeVolatilityCorrelation(days: readonly BarDay[]): number {
  const vols: number[] = [], moves: number[] = [];
  for (const d of days) {
    const r = regularReturns(d), v = regularField(d, "Volume"), f = regularField(d, "FinraVolume");
    for (let m = 1; m < r.length - 1; m++) {
      vols.push((v[m] || 0) + (f[m] || 0));
      moves.push(Math.abs(r[m]));
    }
  }
  return correlation(vols, moves);
}

/** Log of each day's realized variance from 1-minute mid returns (the first minute left out). */
function logRealizedVariance(days: readonly BarDay[]): Float64Array {
  return Float64Array.from(days, (d) => {
    const r = regularReturns(d).subarray(1);
    let s = 0;
    for (const x of r) if (Number.isFinite(x)) s += x * x;
    return Math.log(s);
  });
}

/** Lag-1 autocorrelation and standard deviation of daily log realized variance /2 (log realized vol). */
export function realizedVolPersistence(days: readonly BarDay[]): { lag1: number; sdLog: number } {
  const logVol = logRealizedVariance(days).map((x) => x / 2);
  return { lag1: pooledAutocorrelation([logVol], 1), sdLog: sd(logVol) };
}

/** Share of regular-hours minutes whose smallest NBBO spread was zero or negative (locked or crossed). */
export function lockedMinuteShare(days: readonly BarDay[]): number {
  const s = concat(days.map((d) => regularField(d, "MinSpread"))).filter(Number.isFinite);
  return s.filter((x) => x <= 1e-9).length / s.length;
}

/** Share of regular-hours minutes whose largest NBBO spread was one tick ($0.01). */
export function oneTickMinuteShare(days: readonly BarDay[]): number {
  const bid = concat(days.map((d) => regularField(d, "CloseBidPrice"))), ask = concat(days.map((d) => regularField(d, "CloseAskPrice")));
  let n = 0, one = 0;
  for (let i = 0; i < bid.length; i++) {
    if (!(bid[i] > 0 && ask[i] > 0)) continue;
    n++;
    if (Math.abs(ask[i] - bid[i] - 0.01) < 1e-6) one++;
  }
  return one / n;
}

/** Shape of the sizes of the first, last, high and low trades of regular-hours bars. */
export function barTradeSizeShape(days: readonly BarDay[]): { oddLot: number; exactly100: number; median: number } {
  const sizes = concat(
    days.flatMap((d) => (["FirstTradeSize", "LastTradeSize", "HighTradeSize", "LowTradeSize"] as const).map((f) => regularField(d, f))),
  )
    .filter(Number.isFinite);
  return {
    oddLot: sizes.filter((s) => s < 100).length / sizes.length,
    exactly100: sizes.filter((s) => s === 100).length / sizes.length,
    median: quantile(sizes, 0.5),
  };
}

/** Share of volume (exchange + TRF) traded outside regular hours (the closing auction's minute counts as regular). */
export function extendedHoursShare(days: readonly BarDay[]): number {
  let all = 0, regular = 0;
  for (const d of days) {
    const v = d.fields.Volume, f = d.fields.FinraVolume;
    for (let m = 0; m < v.length; m++) {
      const x = (v[m] || 0) + (f[m] || 0);
      all += x;
      const minute = FIRST_MINUTE + m;
      if (minute >= OPEN_MINUTE && minute <= d.closeMinute) regular += x;
    }
  }
  return all > 0 ? 1 - regular / all : NaN;
}

/** Minute of day just after the last minute that had a trade (1200 = 20:00). */
export function lastTradeMinute(day: BarDay): number {
  const t = day.fields.TotalTrades;
  for (let m = t.length - 1; m >= 0; m--) if (t[m] > 0) return FIRST_MINUTE + m + 1;
  return NaN;
}

/**
 * How smooth minute volume is from 10:00 to 15:00 (total volume, TRF included): the median
 * minute over the mean minute, and the share of minutes with no volume at all. A liquid name
 * trades every minute and its median minute is close to its mean (the sample: 0.86 and 0);
 * volume carried by a few huge prints shows as a low ratio and empty minutes.
 */
export function minuteVolumeSmoothness(days: readonly BarDay[]): { medianOverMean: number; zeroShare: number } {
  const vols: number[] = [];
  for (const d of days) {
    const v = regularField(d, "Volume"), f = regularField(d, "FinraVolume");
    for (let m = 30; m < Math.min(v.length, 330); m++) vols.push((v[m] || 0) + (f[m] || 0));
  }
  return { medianOverMean: quantile(vols, 0.5) / mean(vols), zeroShare: vols.filter((x) => x === 0).length / vols.length };
}
