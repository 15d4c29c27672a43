/**
 * Stylized facts across days and across securities of a generated market: daily return tails,
 * persistent daily volume, quiet early-close days and holiday weeks, correlation beyond the
 * market factor and its rise with the sampling interval (Epps), sub-penny daily extremes.
 */
import { correlation, excessKurtosis, mean, pooledAutocorrelation, residuals, sd } from "./stats.ts";
import { type BarDay, type DailyRow, FIRST_MINUTE, OPEN_MINUTE } from "./minuteData.ts";

const byTicker = <T extends { ticker: string }>(rows: readonly T[], ticker: string) => rows.filter((r) => r.ticker === ticker);

/** Close-to-close log returns of a ticker's daily bars, in date order (dividends and splits included as they print). */
function dailyReturns(rows: readonly DailyRow[], ticker: string): Float64Array {
  const own = byTicker(rows, ticker);
  return Float64Array.from(own.slice(1), (r, i) => Math.log(r.close / own[i].close));
}

/**
 * Pooled excess kurtosis of daily returns standardized per ticker, and the largest move in
 * standard deviations.
 *
 * @example
 * ```ts
 * dailyTails(marketDailyRows("data/demo"), ["AAPL", "MSFT"]);
 * ```
 */
export function dailyTails(rows: readonly DailyRow[], tickers: readonly string[]): { kurtosis: number; largestSd: number } {
  const z: number[] = [];
  for (const t of tickers) {
    const r = dailyReturns(rows, t), m = mean(r), s = sd(r);
    for (const x of r) z.push((x - m) / s);
  }
  return { kurtosis: excessKurtosis(z), largestSd: Math.max(...z.map(Math.abs)) };
}

/** Lag-1 autocorrelation of a ticker's daily log volume. */
export function dailyVolumePersistence(rows: readonly DailyRow[], ticker: string): number {
  return pooledAutocorrelation([Float64Array.from(byTicker(rows, ticker), (r) => Math.log(r.volume))], 1);
}

/** A set of days' mean volume over the mean volume of full, non-holiday-week days, averaged over tickers. */
export function relativeVolume(
  rows: readonly DailyRow[],
  tickers: readonly string[],
  dates: readonly string[],
  excluded: readonly string[],
): number {
  return mean(tickers.map((t) => {
    const own = byTicker(rows, t);
    const normal = own.filter((r) => !dates.includes(r.date) && !excluded.includes(r.date));
    return mean(own.filter((r) => dates.includes(r.date)).map((r) => r.volume)) / mean(normal.map((r) => r.volume));
  }));
}

/** Last-trade log returns over `interval`-minute steps of regular hours, each day, prices carried forward. */
function tradeReturns(days: readonly BarDay[], interval: number): Map<string, Float64Array> {
  const out = new Map<string, Float64Array>();
  for (const d of days) {
    const last = d.fields.LastTradePrice;
    let price = NaN;
    const carried = new Float64Array(last.length);
    for (let m = 0; m < last.length; m++) carried[m] = price = Number.isFinite(last[m]) ? last[m] : price;
    const from = OPEN_MINUTE - FIRST_MINUTE + 4, to = d.closeMinute - FIRST_MINUTE - 1;
    const r: number[] = [];
    for (let m = from; m + interval <= to; m += interval) r.push(Math.log(carried[m + interval] / carried[m]));
    out.set(d.date, Float64Array.from(r));
  }
  return out;
}

function aligned(a: Map<string, Float64Array>, b: Map<string, Float64Array>): [number[], number[]] {
  const xs: number[] = [], ys: number[] = [];
  for (const [date, ra] of a) {
    const rb = b.get(date);
    if (!rb) continue;
    for (let i = 0; i < Math.min(ra.length, rb.length); i++) {
      xs.push(ra[i]);
      ys.push(rb[i]);
    }
  }
  return [xs, ys];
}

/** Correlation of two tickers' last-trade returns at an interval in minutes. */
export function intervalCorrelation(days: readonly BarDay[], a: string, b: string, interval: number): number {
  return correlation(...aligned(tradeReturns(byTicker(days, a), interval), tradeReturns(byTicker(days, b), interval)));
}

/** Correlation of two tickers' 5-minute returns after regressing each on the market's (SPY). */
export function exMarketCorrelation(days: readonly BarDay[], a: string, b: string, market = "SPY"): number {
  const m = tradeReturns(byTicker(days, market), 5);
  const [ra, ma] = aligned(tradeReturns(byTicker(days, a), 5), m);
  const [rb, mb] = aligned(tradeReturns(byTicker(days, b), 5), m);
  if (ma.length !== mb.length) return NaN;
  return correlation(residuals(ra, ma), residuals(rb, mb));
}

/** Daily bars whose high or low is not a whole cent, and all daily bars, over these tickers. */
export function subPennyExtremes(rows: readonly DailyRow[], tickers: readonly string[]): { subPenny: number; bars: number } {
  const own = rows.filter((r) => tickers.includes(r.ticker) && Number.isFinite(r.high));
  const offCent = (p: number) => Math.abs(p * 100 - Math.round(p * 100)) > 1e-6;
  return { subPenny: own.filter((r) => offCent(r.high) || offCent(r.low)).length, bars: own.length };
}
