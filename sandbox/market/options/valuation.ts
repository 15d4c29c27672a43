/**
 * Price and Greeks of a contract from the model its style calls for: Black-Scholes-Merton in
 * closed form for European options, the Crank-Nicolson grid for American ones. The grid gives
 * Delta, Gamma and Theta itself; Vega and Rho are forward bumps. The grid is sized by the
 * volatility, so the Vega bump re-prices on the bumped volatility's grid, exactly as the
 * model prices a contract at that volatility (a grid held still would add the derivative of
 * its own discretisation error, which near an early-exercise boundary is several percent);
 * the rate does not size the grid, so the Rho bump keeps it.
 */
import { bsmValuation } from "./bsm.ts";
import type { OptionTerms, Valuation } from "./contract.ts";
import { DEFAULT_FD, type FdResult, type FdSettings, fdSolve } from "./crankNicolson.ts";

/** The grid the market's American contracts are priced on. */
export const MARKET_FD: Readonly<FdSettings> = DEFAULT_FD;
export const VOL_BUMP = 1e-3;
export const RATE_BUMP = 1e-4;

/**
 * The model price of a contract at volatility `vol`, with the grid's Greeks for an American one.
 *
 * @example
 * ```ts
 * modelSolve({ call: false, american: true, spot: 100, strike: 100, years: 1, rate: 0.05, dividendYield: 0 }, 0.2).price;
 * ```
 */
export function modelSolve(t: OptionTerms, vol: number, fd: Readonly<FdSettings> = MARKET_FD): FdResult {
  if (!t.american) {
    const v = bsmValuation(t, vol);
    return { price: v.price, delta: v.delta, gamma: v.gamma, theta: v.theta };
  }
  return fdSolve(t, vol, fd);
}

/**
 * Price and every Greek of a contract at volatility `vol`. `solved` is the grid solve at this
 * very volatility when the caller has it already (the implied-vol solver's last evaluation).
 *
 * @example
 * ```ts
 * const v = modelValuation({ call: true, american: true, spot: 190, strike: 195, years: 0.1, rate: 0.053, dividendYield: 0.005 }, 0.22);
 * v.vega; // dollars per volatility point
 * ```
 */
export function modelValuation(t: OptionTerms, vol: number, solved?: FdResult, fd: Readonly<FdSettings> = MARKET_FD): Valuation {
  if (!t.american) return bsmValuation(t, vol);
  const base = solved ?? fdSolve(t, vol, fd);
  const volUp = fdSolve(t, vol + VOL_BUMP, fd).price;
  const rateUp = fdSolve({ ...t, rate: t.rate + RATE_BUMP }, vol, fd).price;
  return {
    ...base,
    vega: (volUp - base.price) / VOL_BUMP / 100,
    rho: (rateUp - base.price) / RATE_BUMP / 100,
  };
}
