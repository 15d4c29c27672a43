/**
 * An upper bound on an American option's early-exercise premium, cheap enough to ask of every
 * contract: when it is negligible the contract is valued in closed form (Black-Scholes-Merton),
 * which is then exact to within the bound, and no grid is solved. That is every call on these
 * underlyings short of deep in the money at long maturities (their exercise boundary lies
 * several times the strike away) and puts far out of the money.
 *
 * The bound comes from the premium's integral representation (Kim 1990): for a call,
 * premium = int_0^T [q S e^{-qu} N(d1(S, B_u, u)) - r K e^{-ru} N(d2(S, B_u, u))] du
 * <= q S T sup_u N(d1(S, B_u, u)), and the boundary B_u never falls below the perpetual
 * boundary B_inf (d1 falls as the boundary rises, so B_inf bounds it). For a put,
 * premium <= r K T sup_u N(-d2(S, B_u, u)) with B_u <= K min(1, r/q).
 */
import type { OptionTerms } from "./contract.ts";
import { normalCdf } from "./normal.ts";

/**
 * An upper bound on the early-exercise premium of `t` at volatility `vol` (dollars; Infinity
 * when the spot may already be in the exercise region).
 *
 * @example
 * ```ts
 * premiumBound({ call: true, american: true, spot: 100, strike: 100, years: 0.5, rate: 0.053, dividendYield: 0.014 }, 0.2);
 * // about 1e-15: value it in closed form
 * ```
 */
export function premiumBound(t: OptionTerms, vol: number): number {
  const { spot: S, strike: K, years: T, rate: r, dividendYield: q } = t;
  if (!(T > 0) || !(vol > 0)) return Infinity;
  const s2 = vol * vol, sdT = vol * Math.sqrt(T), rootT = Math.sqrt(T);
  if (t.call) {
    if (q <= 0) return 0;
    // The perpetual call boundary K beta / (beta - 1), beta the root above 1 of its ODE.
    const m = (r - q) / s2 - 0.5;
    const beta = -m + Math.sqrt(m * m + (2 * r) / s2);
    const lnSB = Math.log(S / ((K * beta) / (beta - 1)));
    if (!(lnSB < 0)) return Infinity;
    // d1 = ln(S/B)/(vol sqrt u) + (r - q + vol^2/2) sqrt(u)/vol: each term at its largest over u <= T.
    return q * S * T * normalCdf(lnSB / sdT + (Math.max(0, r - q + s2 / 2) * rootT) / vol);
  }
  if (r <= 0) return 0;
  const lnBS = Math.log((K * Math.min(1, q > 0 ? r / q : 1)) / S);
  if (!(lnBS < 0)) return Infinity;
  return r * K * T * normalCdf(lnBS / sdT + (Math.max(0, -(r - q - s2 / 2)) * rootT) / vol);
}
