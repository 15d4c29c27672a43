/**
 * The "true" implied-volatility surfaces the option mids are generated from: one per
 * underlying, moving with the market.
 *
 * - Level: the short-end at-the-money volatility follows each underlying's own close-to-close
 *   returns with a leverage effect (a 1% fall lifts it by about 2.5% of itself), mean-reverts
 *   towards 1.05 x the security's annual volatility (implied usually sits above realised), and
 *   takes a small daily shock of its own.
 * - Term structure: the long end sits 10% above the mean level and moves less, so the curve is
 *   upward sloping in calm markets and inverts after a sell-off.
 * - Skew: in standardised moneyness z = ln(K/F) / (ATM vol x sqrt(T)), puts are richer
 *   (negative slope) with a smile on both wings; index and ETF skews are steeper than single
 *   stocks'. Volatility stays within [0.7, 3.5] x ATM.
 */
import { Rng } from "../rng.ts";

const MEAN_REVERSION = 0.08;
const LEVERAGE = 2.5;
const LEVEL_SHOCK = 0.04;
const TERM_DECAY_YEARS = 0.35;

/** Skew slope and curvature (put wing, call wing) in standardised moneyness. */
const SKEWS = {
  index: { slope: -0.2, putCurve: 0.015, callCurve: 0.03 },
  stock: { slope: -0.08, putCurve: 0.02, callCurve: 0.03 },
} as const;
export type SkewKind = keyof typeof SKEWS;

/** The ATM volatility state of one underlying. */
export interface VolLevel {
  /** Mean short-end ATM volatility the level reverts to. */
  mean: number;
  /** Today's short-end ATM volatility. */
  level: number;
}

/**
 * A level starting at its mean, for a security of annual volatility `annualVol`.
 *
 * @example
 * ```ts
 * initialLevel(0.2); // { mean: 0.21, level: 0.21 }
 * ```
 */
export const initialLevel = (annualVol: number): VolLevel => ({ mean: 1.05 * annualVol, level: 1.05 * annualVol });

/**
 * The level after a day whose close-to-close log return was `logReturn` (split-adjusted).
 *
 * @example
 * ```ts
 * const next = advanceLevel(initialLevel(0.2), -0.02, Rng.for(42, "vol", "100001", "2023-11-21")); // higher after a 2% fall
 * ```
 */
export function advanceLevel(state: VolLevel, logReturn: number, rng: Rng): VolLevel {
  const x = Math.log(state.level);
  const next = x + MEAN_REVERSION * (Math.log(state.mean) - x) - LEVERAGE * logReturn + LEVEL_SHOCK * rng.normal();
  return { mean: state.mean, level: Math.exp(next) };
}

/**
 * ATM volatility at `years` to expiry.
 *
 * @example
 * ```ts
 * const s = initialLevel(0.13);
 * atmVol(s, 0.1) < atmVol(s, 1); // true: upward sloping when calm
 * ```
 */
export function atmVol(state: VolLevel, years: number): number {
  const long = 1.1 * state.mean + 0.3 * (state.level - state.mean);
  return long + (state.level - long) * Math.exp(-years / TERM_DECAY_YEARS);
}

/**
 * Surface volatility at strike `strike` for a forward `forward` and `years` to expiry.
 *
 * @example
 * ```ts
 * const s = initialLevel(0.13);
 * surfaceVol(s, "index", 4000, 4300, 30 / 365) > surfaceVol(s, "index", 4300, 4300, 30 / 365); // true: put skew
 * ```
 */
export function surfaceVol(state: VolLevel, kind: SkewKind, strike: number, forward: number, years: number): number {
  const atm = atmVol(state, years);
  const t = Math.max(years, 1 / 365);
  const z = Math.log(strike / forward) / (atm * Math.sqrt(t));
  const k = SKEWS[kind];
  const curve = z < 0 ? k.putCurve : k.callCurve;
  return atm * Math.min(Math.max(1 + k.slope * z + curve * z * z, 0.7), 3.5);
}
