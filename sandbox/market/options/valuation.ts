/**
 * Price and Greeks of a contract from the model its style calls for: Black-Scholes-Merton in
 * closed form for European options; for American ones the closed form plus the early-exercise
 * premium. The premium is 0 to within 1e-7 for most contracts (premiumBound.ts), and otherwise
 * comes from a grid that solves the American and the European problem side by side
 * (premiumGrid.ts): their difference cancels most of the grid's own error. Delta, Gamma and
 * Theta add the premium's from the grid; Vega and Rho its central differences on the same
 * (still) grid, so a bump measures the model's sensitivity and not its discretisation error.
 * Greeks below the grid's resolution are reported as 0 (see GAMMA_SPOT_RESOLUTION).
 */
import { bsmValuation } from "./bsm.ts";
import { intrinsicValue, type OptionTerms, type Valuation } from "./contract.ts";
import type { FdResult } from "./crankNicolson.ts";
import { premiumBound } from "./premiumBound.ts";
import { type PremiumGridSettings, premiumSolve } from "./premiumGrid.ts";

/** The grid the market's American contracts' premiums are computed on. */
export const MARKET_GRID: Readonly<PremiumGridSettings> = { nodes: 50, steps: 20 };
/** A premium bound below this is taken as no premium (far below a quote's tick or any target). */
export const NEGLIGIBLE_PREMIUM = 1e-7;
export const VOL_BUMP = 1e-4;
export const RATE_BUMP = 1e-5;
/**
 * Below these the grid cannot tell a Greek from zero (its own discretisation error is larger),
 * so an American contract reports 0: Gamma x spot under 1e-5 (Delta moves by less than 1e-7 on
 * a 1% move), Vega under 1e-5 dollars per volatility point.
 */
export const GAMMA_SPOT_RESOLUTION = 1e-5;
export const VEGA_RESOLUTION = 1e-5;

/**
 * The model price of a contract at volatility `vol`, with Delta, Gamma and Theta.
 *
 * @example
 * ```ts
 * modelSolve({ call: false, american: true, spot: 100, strike: 100, years: 1, rate: 0.05, dividendYield: 0 }, 0.2).price; // 6.0904
 * ```
 */
export function modelSolve(t: OptionTerms, vol: number, grid: Readonly<PremiumGridSettings> = MARKET_GRID): FdResult {
  const v = bsmValuation(t, vol);
  const european = { price: v.price, delta: v.delta, gamma: v.gamma, theta: v.theta };
  if (!t.american || premiumBound(t, vol) <= NEGLIGIBLE_PREMIUM) return european;
  const intrinsic = intrinsicValue(t);
  if (!(t.years > 0) || !(vol > 0)) return { ...european, price: Math.max(v.price, intrinsic) };
  const p = premiumSolve(t, vol, grid);
  // At or beyond the exercise boundary the contract is worth its payoff whatever the volatility
  // or time: its Greeks are the payoff's (Delta +-1, no Gamma, no decay).
  if (p.exercised || v.price + p.premium <= intrinsic) return { price: intrinsic, delta: t.call ? 1 : -1, gamma: 0, theta: 0 };
  return { price: v.price + p.premium, delta: v.delta + p.delta, gamma: v.gamma + p.gamma, theta: v.theta + p.theta };
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
export function modelValuation(t: OptionTerms, vol: number, solved?: FdResult, grid: Readonly<PremiumGridSettings> = MARKET_GRID): Valuation {
  const v = bsmValuation(t, vol);
  if (!t.american || premiumBound(t, vol) <= NEGLIGIBLE_PREMIUM) return v;
  const base = solved ?? modelSolve(t, vol, grid);
  if (base.gamma === 0 && base.theta === 0 && base.price === intrinsicValue(t)) return { ...base, vega: 0, rho: 0 };
  // The bumps keep the grid still (sized for `vol`): a grid that moved with the volatility
  // would add the derivative of its own discretisation error.
  const still = { ...grid, gridVol: grid.gridVol ?? vol };
  const premium = (x: OptionTerms, s: number) => premiumSolve(x, s, still).premium;
  // The base solve ran on this very grid, so its premium is the bumps' starting point.
  const at = base.price - v.price;
  const vega = v.vega + (premium(t, vol + VOL_BUMP) - at) / VOL_BUMP / 100;
  const rho = v.rho + (premium({ ...t, rate: t.rate + RATE_BUMP }, vol) - at) / RATE_BUMP / 100;
  return {
    ...base,
    gamma: Math.abs(base.gamma * t.spot) < GAMMA_SPOT_RESOLUTION ? 0 : base.gamma,
    vega: Math.abs(vega) < VEGA_RESOLUTION ? 0 : vega,
    rho,
  };
}
