/**
 * Stochastic volatility of the market: log-volatility states that persist across days (AR(1)
 * day to day, with leverage: a falling market raises tomorrow's market volatility) and cluster
 * within the day (AR(1) minute to minute), one state each for the market, each sector and each
 * security. A security's variance in a minute is its market, sector and own variance, each scaled
 * by its state; every scale has mean 1, so annual volatilities stay as set in securities.ts.
 */
import { Rng } from "../rng.ts";

/** Day-to-day persistence of log volatility (half-life about 7 trading days). */
const DAILY_PERSISTENCE = 0.9;
/** Stationary standard deviation of daily log volatility. */
const DAILY_LOG_VOL_SD = 0.32;
/** Correlation of the market's volatility innovation with its return that day (leverage). */
export const LEVERAGE = -0.6;
/** Minute-to-minute persistence of intraday log volatility (half-life about 25 minutes). */
const MINUTE_PERSISTENCE = Math.exp(-1 / 35);
/** Stationary standard deviation of intraday log volatility. */
const MINUTE_LOG_VOL_SD = 0.4;

/** A daily log-volatility state that steps once a trading day. */
export class DailyVolState {
  x: number;
  constructor(rng: Rng) {
    this.x = DAILY_LOG_VOL_SD * rng.normal();
  }

  /** Steps to the next day; `returnShock` (a standard normal, the day's return) drives the leverage part. */
  step(rng: Rng, returnShock = 0, leverage = 0): void {
    const innovation = leverage * returnShock + Math.sqrt(1 - leverage * leverage) * rng.normal();
    this.x = DAILY_PERSISTENCE * this.x + DAILY_LOG_VOL_SD * Math.sqrt(1 - DAILY_PERSISTENCE ** 2) * innovation;
  }

  /** Variance multiplier with mean 1 over the stationary distribution. */
  varianceScale(extra = 0): number {
    return Math.exp(2 * (this.x + extra) - 2 * DAILY_LOG_VOL_SD * DAILY_LOG_VOL_SD);
  }
}

/** A burst lifts intraday volatility at most about this factor's log (e^1 = 2.7x) above the day's level. */
const MINUTE_LOG_VOL_BOUND = 1;

/**
 * Intraday variance multipliers for `n` minutes, averaging 1 over the day: a clustered,
 * softly bounded log-volatility path (the day's level is the daily state's; this only moves
 * variance between the day's minutes).
 *
 * @example
 * ```ts
 * const scales = intradayVarianceScales(Rng.for(42, "vol", "2023-11-21"), 960);
 * ```
 */
export function intradayVarianceScales(rng: Rng, n: number): Float64Array {
  const out = new Float64Array(n);
  const noise = MINUTE_LOG_VOL_SD * Math.sqrt(1 - MINUTE_PERSISTENCE ** 2);
  let u = MINUTE_LOG_VOL_SD * rng.normal();
  let sum = 0;
  for (let m = 0; m < n; m++) {
    u = MINUTE_PERSISTENCE * u + noise * rng.normal();
    out[m] = Math.exp(2 * MINUTE_LOG_VOL_BOUND * Math.tanh(u / MINUTE_LOG_VOL_BOUND));
    sum += out[m];
  }
  for (let m = 0; m < n; m++) out[m] *= n / sum;
  return out;
}

/**
 * A Student-t draw with 8 degrees of freedom scaled to unit variance: the fat-tailed shock of one
 * minute (excess kurtosis 1.5; the volatility states make the rest of the tails).
 */
export function studentT8(rng: Rng): number {
  return (rng.normal() / Math.sqrt(rng.gammaUnitMean(4))) * Math.sqrt(6 / 8);
}
