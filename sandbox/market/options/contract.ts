/**
 * What every pricer of the market takes: one option on a lognormal underlying with a
 * continuous dividend yield, in years and annual rates. The units of the Greeks the datasets
 * report are fixed here, once, so the closed-form and finite-difference models agree.
 */

/** One option to value. */
export interface OptionTerms {
  /** True for a call, false for a put. */
  call: boolean;
  /** True when it may be exercised before expiry (equity options); false for European (index). */
  american: boolean;
  /** Underlying price (for an adjusted root, the deliverable's value per share-equivalent). */
  spot: number;
  strike: number;
  /** Time to expiry in years (calendar days / 365). */
  years: number;
  /** Continuously compounded risk-free rate. */
  rate: number;
  /** Continuous dividend yield of the underlying. */
  dividendYield: number;
}

/**
 * A model value with its sensitivities, in the units the datasets report: Delta per $1 of the
 * underlying, Gamma per $1 per $1, Theta per calendar day, Vega per volatility point (0.01),
 * Rho per percentage point of the rate (0.01).
 */
export interface Valuation {
  price: number;
  delta: number;
  gamma: number;
  theta: number;
  vega: number;
  rho: number;
}

export const DAYS_PER_YEAR = 365;

/**
 * What exercising now pays (0 when out of the money).
 *
 * @example
 * ```ts
 * intrinsicValue({ call: false, american: true, spot: 90, strike: 100, years: 0.5, rate: 0.05, dividendYield: 0 }); // 10
 * ```
 */
export function intrinsicValue(terms: OptionTerms): number {
  return Math.max(terms.call ? terms.spot - terms.strike : terms.strike - terms.spot, 0);
}
