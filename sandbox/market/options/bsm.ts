/**
 * Black-Scholes-Merton in closed form: the model of the European (index) root, the first guess
 * of the American implied-vol solver, and the reference the finite-difference model is tested
 * against.
 */
import { DAYS_PER_YEAR, type OptionTerms, type Valuation } from "./contract.ts";
import { normalCdf, normalPdf } from "./normal.ts";

/**
 * The European price of an option at volatility `vol` (the American flag is ignored).
 *
 * @example
 * ```ts
 * bsmPrice({ call: true, american: false, spot: 42, strike: 40, years: 0.5, rate: 0.1, dividendYield: 0 }, 0.2);
 * // 4.759422392871532 (Hull, Options, Futures and Other Derivatives, example 15.6)
 * ```
 */
export function bsmPrice(t: OptionTerms, vol: number): number {
  const fwdDisc = t.spot * Math.exp(-t.dividendYield * t.years);
  const strikeDisc = t.strike * Math.exp(-t.rate * t.years);
  const sd = vol * Math.sqrt(t.years);
  if (!(sd > 0)) return Math.max(t.call ? fwdDisc - strikeDisc : strikeDisc - fwdDisc, 0);
  const d1 = Math.log(fwdDisc / strikeDisc) / sd + sd / 2;
  const d2 = d1 - sd;
  return t.call ? fwdDisc * normalCdf(d1) - strikeDisc * normalCdf(d2) : strikeDisc * normalCdf(-d2) - fwdDisc * normalCdf(-d1);
}

/**
 * Price and Greeks of a European option at volatility `vol`, in the units of {@link Valuation}.
 *
 * @example
 * ```ts
 * const v = bsmValuation({ call: false, american: false, spot: 100, strike: 100, years: 1, rate: 0.05, dividendYield: 0 }, 0.2);
 * v.price; // 5.573526022256971
 * v.delta; // -0.36316935...
 * ```
 */
export function bsmValuation(t: OptionTerms, vol: number): Valuation {
  const sqrtT = Math.sqrt(t.years);
  const sd = vol * sqrtT;
  const qDisc = Math.exp(-t.dividendYield * t.years), rDisc = Math.exp(-t.rate * t.years);
  const price = bsmPrice(t, vol);
  if (!(sd > 0)) {
    const itm = t.call ? t.spot * qDisc > t.strike * rDisc : t.spot * qDisc < t.strike * rDisc;
    return { price, delta: itm ? (t.call ? qDisc : -qDisc) : 0, gamma: 0, theta: 0, vega: 0, rho: 0 };
  }
  const d1 = (Math.log(t.spot / t.strike) + (t.rate - t.dividendYield) * t.years) / sd + sd / 2;
  const d2 = d1 - sd;
  const pdf = normalPdf(d1);
  const sign = t.call ? 1 : -1;
  const nd1 = normalCdf(sign * d1), nd2 = normalCdf(sign * d2);
  const decay = (-t.spot * qDisc * pdf * vol) / (2 * sqrtT);
  const thetaYear = decay - sign * t.rate * t.strike * rDisc * nd2 + sign * t.dividendYield * t.spot * qDisc * nd1;
  return {
    price,
    delta: sign * qDisc * nd1,
    gamma: (qDisc * pdf) / (t.spot * sd),
    theta: thetaYear / DAYS_PER_YEAR,
    vega: (t.spot * qDisc * pdf * sqrtT) / 100,
    rho: (sign * t.strike * t.years * rDisc * nd2) / 100,
  };
}
