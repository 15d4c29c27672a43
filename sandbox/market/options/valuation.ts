/**
 * Price and Greeks of a contract from the model its style calls for: Black-Scholes-Merton in
 * closed form for European options; for American ones the closed form plus the early-exercise
 * premium. The premium is 0 to within 1e-7 for most contracts (premiumBound.ts), and otherwise
 * comes from the exercise boundary (exerciseBoundary.ts) by the premium's integral
 * (americanIntegral.ts), which gives its Delta, Gamma and Theta too; Vega and Rho add the
 * premium's forward differences to the closed form's.
 */
import { bsmValuation } from "./bsm.ts";
import { DAYS_PER_YEAR, intrinsicValue, type OptionTerms, type Valuation } from "./contract.ts";
import type { FdResult } from "./crankNicolson.ts";
import { premiumGreeks, type PremiumSolve, premiumSolve } from "./americanIntegral.ts";
import { type BoundarySettings, type BoundaryStart, MARKET_BOUNDARY } from "./exerciseBoundary.ts";
import { premiumBound } from "./premiumBound.ts";

/** A premium bound below this is taken as no premium (far below a quote's tick or any target). */
const NEGLIGIBLE_PREMIUM = 1e-7;
/** Volatility bump of the premium's forward difference for Vega (the boundary is solved to 1e-11, far finer). */
const VOL_BUMP = 1e-5;
/** Rate bump of the premium's forward difference for Rho. */
const RATE_BUMP = 1e-6;

/** A model solve: price, Delta, Gamma, Theta, and for an American contract valued off its exercise boundary, the premium and the boundary. */
export interface ModelResult extends FdResult {
  /** Early-exercise premium (American minus closed-form European value). */
  premium?: number;
  /** The exercise boundary's nodes, the start of the bumped solves of Vega and Rho. */
  boundary?: Float64Array;
  /** The premium's solve, when its Delta, Gamma and Theta are still to be taken (a price-only solve: they are NaN). */
  pending?: PremiumSolve;
}

/**
 * The model price of a contract at volatility `vol`, with Delta, Gamma and Theta. `start` is a
 * boundary of the same contract at a nearby volatility (the implied-vol solver's last try).
 * `greeks: false` leaves an American contract's Delta, Gamma and Theta NaN (`pending`), for a
 * caller that wants the price only (an implied-vol try, a quote); {@link modelValuation} of
 * the result takes them on the same boundary, the same numbers as a full solve's.
 *
 * @example
 * ```ts
 * modelSolve({ call: false, american: true, spot: 100, strike: 100, years: 1, rate: 0.05, dividendYield: 0 }, 0.2).price; // 6.0904
 * ```
 */
export function modelSolve(
  t: OptionTerms,
  vol: number,
  settings: Readonly<BoundarySettings> = MARKET_BOUNDARY,
  start?: BoundaryStart,
  greeks = true,
): ModelResult {
  const v = bsmValuation(t, vol);
  const european = { price: v.price, delta: v.delta, gamma: v.gamma, theta: v.theta };
  if (!t.american || premiumBound(t, vol) <= NEGLIGIBLE_PREMIUM) return european;
  const intrinsic = intrinsicValue(t);
  if (!(t.years > 0) || !(vol > 0)) return { ...european, price: Math.max(v.price, intrinsic) };
  const p = premiumSolve(t, vol, settings, start);
  // At or beyond the exercise boundary the contract is worth its payoff whatever the volatility
  // or time: its Greeks are the payoff's (Delta +-1, no Gamma, no decay).
  if (p.exercised || v.price + p.premium <= intrinsic) return { price: intrinsic, delta: t.call ? 1 : -1, gamma: 0, theta: 0 };
  const price = v.price + p.premium;
  if (!greeks) return { price, delta: NaN, gamma: NaN, theta: NaN, premium: p.premium, boundary: p.put.x, pending: p };
  return { price, ...americanGreeks(t, vol, v, p), premium: p.premium, boundary: p.put.x };
}

/** Delta, Gamma and Theta of an American contract: the closed form's plus the premium's. */
function americanGreeks(t: OptionTerms, vol: number, v: Valuation, p: PremiumSolve): { delta: number; gamma: number; theta: number } {
  const g = premiumGreeks(t, vol, p);
  return { delta: v.delta + g.delta, gamma: v.gamma + g.gamma, theta: v.theta + g.theta / DAYS_PER_YEAR };
}

/**
 * Price and every Greek of a contract at volatility `vol`. `solved` is the model solve at this
 * very volatility when the caller has it already (the implied-vol solver's last evaluation).
 *
 * @example
 * ```ts
 * const v = modelValuation({ call: false, american: true, spot: 190, strike: 195, years: 0.1, rate: 0.053, dividendYield: 0.005 }, 0.22);
 * v.vega; // dollars per volatility point
 * ```
 */
export function modelValuation(
  t: OptionTerms,
  vol: number,
  solved?: ModelResult,
  settings: Readonly<BoundarySettings> = MARKET_BOUNDARY,
): Valuation {
  const v = bsmValuation(t, vol);
  if (!t.american || premiumBound(t, vol) <= NEGLIGIBLE_PREMIUM) return v;
  const base = solved?.boundary ? solved : modelSolve(t, vol, settings);
  const { price, premium: at, boundary } = base;
  const { delta, gamma, theta } = base.pending ? americanGreeks(t, vol, v, base.pending) : base;
  if (at === undefined || boundary === undefined) return { price, delta, gamma, theta, vega: 0, rho: 0 };
  // Forward differences of the premium alone (the closed form's part is exact), each bumped
  // boundary solved from this one. A bump into the exercise region counts the premium there as
  // payoff minus European value.
  const premium = (x: OptionTerms, s: number) => {
    const p = premiumSolve(x, s, settings, { x: boundary, bump: true });
    return p.exercised ? intrinsicValue(x) - bsmValuation(x, s).price : p.premium;
  };
  const vega = v.vega + (premium(t, vol + VOL_BUMP) - at) / VOL_BUMP / 100;
  const rho = v.rho + (premium({ ...t, rate: t.rate + RATE_BUMP }, vol) - at) / RATE_BUMP / 100;
  return { price, delta, gamma, theta, vega, rho };
}
