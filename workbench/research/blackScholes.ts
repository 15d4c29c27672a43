/**
 * Black-Scholes-Merton for a European call on an asset paying a continuous dividend yield
 * (Black and Scholes 1973; Merton 1973; Hull, Options, Futures, and Other Derivatives, ch. 15
 * and 17), with the two inversions the term-structure helpers need:
 *
 * - C = S·e^(−qT)·N(d1) − K·e^(−rT)·N(d2), d1 = [ln(S/K) + (r − q + σ²/2)T] / (σ√T), d2 = d1 − σ√T;
 * - the forward delta of a call, N(d1) written with the forward F = S·e^((r−q)T):
 *   d1 = [ln(F/K) + σ²T/2] / (σ√T) (the delta that does not move with the carry);
 * - the dividend yield q that makes the formula give a call's price at a given volatility
 *   (the carry an option dataset's own implied vols and prices imply).
 */
import { normalCdf } from "./normal.ts";

/** What a European option's value depends on besides its volatility. */
export interface OptionTerms {
  /** Price of the underlying, $. */
  spot: number;
  /** Strike, $. */
  strike: number;
  /** Time to expiry in years. */
  years: number;
  /** Continuously compounded risk-free rate, per year (0.053 is 5.3%). */
  rate: number;
  /** Continuous dividend yield, per year. */
  dividendYield: number;
}

/**
 * The Black-Scholes-Merton value of a European call, in $ per share.
 *
 * @example
 * ```ts
 * blackScholesCall({ spot: 42, strike: 40, years: 0.5, rate: 0.1, dividendYield: 0 }, 0.2); // 4.759422392872 (Hull's example: 4.76)
 * ```
 */
export function blackScholesCall(t: OptionTerms, vol: number): number {
  const sd = vol * Math.sqrt(t.years);
  const d1 = (Math.log(t.spot / t.strike) + (t.rate - t.dividendYield) * t.years) / sd + sd / 2;
  return t.spot * Math.exp(-t.dividendYield * t.years) * normalCdf(d1) - t.strike * Math.exp(-t.rate * t.years) * normalCdf(d1 - sd);
}

/**
 * The forward delta of a European call, N(d1) with d1 = [ln(F/K) + σ²T/2] / (σ√T): 0.5 where
 * K = F·e^(σ²T/2), a little above the forward. A put's forward delta is this minus 1.
 *
 * @example
 * ```ts
 * forwardCallDelta(100, 100, 1, 0.2); // 0.539827837277029 (d1 = 0.1)
 * ```
 */
export function forwardCallDelta(forward: number, strike: number, years: number, vol: number): number {
  const sd = vol * Math.sqrt(years);
  return normalCdf(Math.log(forward / strike) / sd + sd / 2);
}

/** Dividend yields searched by `impliedDividendYield`, per year: wider than any real one. */
const YIELD_BOUNDS = [-0.5, 0.5] as const;

/**
 * The continuous dividend yield at which a European call at volatility `vol` is worth `price`
 * (bisection: the call's value falls as the yield rises). Null when no yield within ±50% a
 * year gives that price, or an input is not a positive finite number.
 *
 * An American call on a stock whose yield is below the rate is seldom worth exercising early,
 * so its price is nearly the European one (Merton 1973): given the vol a dataset's own model
 * implied from the same price, this recovers the carry that model used.
 *
 * @example
 * ```ts
 * impliedDividendYield({ spot: 100, strike: 100, years: 1, rate: 0.05 }, 8.652528553942709, 0.2); // 0.03 (to 1e-12)
 * ```
 */
export function impliedDividendYield(t: Omit<OptionTerms, "dividendYield">, price: number, vol: number): number | null {
  if (![t.spot, t.strike, t.years, price, vol].every((v) => Number.isFinite(v) && v > 0) || !Number.isFinite(t.rate)) return null;
  const value = (q: number) => blackScholesCall({ ...t, dividendYield: q }, vol);
  let [lo, hi]: number[] = [...YIELD_BOUNDS];
  if (value(lo) < price || value(hi) > price) return null;
  for (let i = 0; i < 100 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (value(mid) > price) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
