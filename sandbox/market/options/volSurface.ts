/**
 * The "true" implied-volatility surfaces the option mids are generated from: one per
 * underlying, moving with the market.
 *
 * - Level: the short-end at-the-money volatility follows each underlying's own close-to-close
 *   returns with a leverage effect, mean-reverts towards a premium over the security's annual
 *   volatility (implied sits above realised), and takes a daily shock of its own. The index and
 *   ETFs have the strongest spot-vol link (a 1% fall lifts their vol by 6% of itself, small own
 *   shocks) and the largest premium (1.55x of the nominal volatility, which gives implied over realised of 1.3-1.5); single
 *   stocks a weaker link (2%), larger own shocks and a 1.1x premium.
 * - Term structure: the long end sits 10% above the mean level and moves less, so the curve is
 *   upward sloping in calm markets and inverts after a sell-off.
 * - Skew: in standardised moneyness z = ln(K/F) / (ATM vol x sqrt(T)), puts are richer
 *   (negative slope) with a smile on both wings; index and ETF skews are steeper than single
 *   stocks'. Volatility stays within [0.7, 3.5] x ATM.
 */
import { Rng } from "../rng.ts";

const MEAN_REVERSION = 0.08;
/** Leverage (log-vol change per log return), own daily log-vol shock, and the implied-over-realised premium, by kind of underlying. */
const DYNAMICS = {
  index: { leverage: 6, shock: 0.03, premium: 1.55 },
  stock: { leverage: 2, shock: 0.05, premium: 1.1 },
} as const;
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
  /** Index-like (index or ETF) or single stock: sets the spot-vol link. */
  kind: SkewKind;
}

/**
 * A level starting at its mean, for a security of annual volatility `annualVol`.
 *
 * @example
 * ```ts
 * initialLevel(0.2, "stock"); // { mean: 0.22, level: 0.22, kind: "stock" }
 * ```
 */
export function initialLevel(annualVol: number, kind: SkewKind): VolLevel {
  const mean = DYNAMICS[kind].premium * annualVol;
  return { mean, level: mean, kind };
}

/**
 * The level after a day whose close-to-close log return was `logReturn` (split-adjusted).
 *
 * @example
 * ```ts
 * const next = advanceLevel(initialLevel(0.2, "stock"), -0.02, Rng.for(42, "vol", "100001", "2023-11-21")); // higher after a 2% fall
 * ```
 */
export function advanceLevel(state: VolLevel, logReturn: number, rng: Rng): VolLevel {
  const x = Math.log(state.level);
  const d = DYNAMICS[state.kind];
  const next = x + MEAN_REVERSION * (Math.log(state.mean) - x) - d.leverage * logReturn + d.shock * rng.normal();
  return { ...state, level: Math.exp(next) };
}

/**
 * ATM volatility at `years` to expiry.
 *
 * @example
 * ```ts
 * const s = initialLevel(0.13, "index");
 * atmVol(s, 0.1) < atmVol(s, 1); // true: upward sloping when calm
 * ```
 */
export function atmVol(state: VolLevel, years: number): number {
  const long = 1.1 * state.mean + 0.3 * (state.level - state.mean);
  return long + (state.level - long) * Math.exp(-years / TERM_DECAY_YEARS);
}

/**
 * A volatility with a scheduled jump's variance added over `years` (an earnings report before
 * expiry lifts the expiry's implied vol; once it is past, the lift is gone: the vol crush).
 *
 * @example
 * ```ts
 * withEventVariance(0.22, 10 / 365, 0.0029); // 0.39: a ten-day option over earnings
 * ```
 */
export function withEventVariance(vol: number, years: number, eventVariance: number): number {
  return eventVariance > 0 ? Math.sqrt(vol * vol + eventVariance / Math.max(years, 1 / 365)) : vol;
}

/**
 * Surface volatility at strike `strike` for a forward `forward` and `years` to expiry.
 *
 * @example
 * ```ts
 * const s = initialLevel(0.13, "index");
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
