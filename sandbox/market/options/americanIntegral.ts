/**
 * The early-exercise premium of an American option from its exercise boundary
 * (exerciseBoundary.ts), by the integral representation (Kim 1990; Carr, Jarrow and Myneni
 * 1992): for a put,
 *   premium = int_0^T [r K e^{-rs} N(-d-(s, S / B(T-s))) - q S e^{-qs} N(-d+(s, S / B(T-s)))] ds,
 * the value of the interest earned on the strike (less the dividends forgone) while the spot
 * sits in the exercise region. The boundary does not depend on the spot, so Delta and Gamma are
 * the integral's own derivatives; nor on the time left, so Theta is the integral's change with
 * less time to run on the same boundary. A call is the put with spot and strike, rate and dividend yield
 * swapped (McDonald and Schroder's put-call symmetry), its Greeks by the homogeneity of the value.
 */
import type { OptionTerms } from "./contract.ts";
import { type BoundarySettings, type BoundaryStart, boundaryAt, MARKET_BOUNDARY, type PutBoundary, putBoundary } from "./exerciseBoundary.ts";
import { gaussLegendre } from "./gaussLegendre.ts";
import { normalCdf, normalPdf } from "./normal.ts";

/** Gauss-Legendre points of the premium integral (more than the boundary's: the spot may sit near the boundary, where the integrand is steep). */
export const PREMIUM_POINTS = 32;

/** Premium of an American option and its Delta and Gamma (per $). */
export interface Premium {
  /** American minus European value. */
  premium: number;
  delta: number;
  gamma: number;
  /** Change of the premium per year as expiry approaches (minus its derivative in years to expiry). */
  theta: number;
  /** True when the spot lies in the exercise region: the option is worth its payoff. */
  exercised: boolean;
  /** The boundary's nodes (a start for a bumped solve, see putBoundary). */
  boundary: Float64Array;
}

/**
 * The early-exercise premium of `t` (American) at volatility `vol`, with its Delta and Gamma
 * (NaN when the spot is in the exercise region, where the option is worth its payoff). `start`
 * is the `boundary` of a solve of nearby terms (see putBoundary).
 *
 * @example
 * ```ts
 * const put = { call: false, american: true, spot: 100, strike: 100, years: 1, rate: 0.05, dividendYield: 0 };
 * bsmPrice(put, 0.2) + americanPremium(put, 0.2).premium; // 6.0904 (QuantLib: 6.09037)
 * ```
 */
export function americanPremium(t: OptionTerms, vol: number, settings: Readonly<BoundarySettings> = MARKET_BOUNDARY, start?: BoundaryStart): Premium {
  const { spot, strike, years: T, rate: r, dividendYield: q } = t;
  // A call is the put on the strike with the spot as its strike, rate and dividend yield swapped.
  const [S, K, rp, qp] = t.call ? [strike, spot, q, r] : [spot, strike, r, q];
  const boundary = putBoundary(K, T, rp, qp, vol, settings, start);
  if (S <= boundaryAt(boundary, T)) return { premium: NaN, delta: NaN, gamma: NaN, theta: 0, exercised: true, boundary: boundary.x };
  const { points, weights } = gaussLegendre(PREMIUM_POINTS);
  let p = 0, dS = 0, dSS = 0;
  const rootT = Math.sqrt(T);
  for (let k = 0; k < points.length; k++) {
    // s = T sin^2(theta), theta = pi (1 + y) / 4: smooth at both ends (the 1/sqrt(s) of the
    // densities near now, the boundary's square root near expiry); ds = 2 T sin cos dtheta.
    const theta = (Math.PI * (1 + points[k])) / 4, sin = Math.sin(theta), cos = Math.cos(theta), w = (Math.PI / 4) * weights[k];
    const s = T * sin * sin, ds = 2 * T * sin * cos * w;
    const b = boundaryAt(boundary, T - s), sd = vol * Math.sqrt(s);
    const dp = (Math.log(S / b) + (rp - qp) * s) / sd + sd / 2, dm = dp - sd;
    const kr = rp * K * Math.exp(-rp * s), sq = qp * S * Math.exp(-qp * s);
    const pdfP = normalPdf(dp), pdfM = normalPdf(dm);
    p += ds * (kr * normalCdf(-dm) - sq * normalCdf(-dp));
    // d/dS: -rK e^{-rs} phi(d-)/(S sd) - q e^{-qs} N(-d+) + q e^{-qs} phi(d+)/sd; ds / sd = 2 sqrt(T) cos / vol dtheta.
    dS += ((2 * rootT * cos * w) / vol) * ((-kr * pdfM) / S + (sq * pdfP) / S) - ds * (sq / S) * normalCdf(-dp);
    // d2/dS2 = [r K e^{-rs} phi(d-) d+ - q S e^{-qs} phi(d+) d-] / (S^2 vol^2 s).
    dSS += ds * (((kr * pdfM * dp) / (S * S) - (sq * pdfP * dm) / (S * S)) / (sd * sd));
  }
  // Theta from the premium with less time to run on the same boundary (B is a function of the
  // time to expiry alone), by a second-order backward difference. Theta from the Black-Scholes
  // equation would need the value's layer just off the boundary, which no affordable quadrature
  // resolves: near the boundary it came out positive.
  const h = T * THETA_STEP, theta = -(3 * p - 4 * premiumOnly(S, K, rp, qp, vol, boundary, T - h) + premiumOnly(S, K, rp, qp, vol, boundary, T - 2 * h)) / (2 * h);
  if (!t.call) return { premium: p, delta: dS, gamma: dSS, theta, exercised: false, boundary: boundary.x };
  // Back to the call's own variables: C(S, K) = P(K, S), P homogeneous of degree one, so
  // dC/dS = dP/dK' = (P - S' dP/dS') / K' and d2C/dS2 = S'^2 d2P/dS'^2 / K'^2.
  return { premium: p, delta: (p - S * dS) / K, gamma: (S * S * dSS) / (K * K), theta, exercised: false, boundary: boundary.x };
}

/** Theta's step, as a fraction of the time to expiry. */
const THETA_STEP = 1e-3;

/** The put premium integral alone at time to expiry `T` (at most the boundary's). */
function premiumOnly(S: number, K: number, r: number, q: number, vol: number, boundary: PutBoundary, T: number): number {
  const { points, weights } = gaussLegendre(PREMIUM_POINTS);
  let p = 0;
  for (let k = 0; k < points.length; k++) {
    const theta = (Math.PI * (1 + points[k])) / 4, sin = Math.sin(theta), cos = Math.cos(theta);
    const s = T * sin * sin, ds = 2 * T * sin * cos * (Math.PI / 4) * weights[k];
    const b = boundaryAt(boundary, T - s), sd = vol * Math.sqrt(s);
    const dp = (Math.log(S / b) + (r - q) * s) / sd + sd / 2;
    p += ds * (r * K * Math.exp(-r * s) * normalCdf(sd - dp) - q * S * Math.exp(-q * s) * normalCdf(-dp));
  }
  return p;
}
