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
import { chebyshevSum } from "./boundaryMap.ts";
import {
  boundaryAt,
  type BoundarySettings,
  type BoundaryStart,
  MARKET_BOUNDARY,
  type PutBoundary,
  putBoundary,
} from "./exerciseBoundary.ts";
import { gaussLegendre } from "./gaussLegendre.ts";
import { normalCdf, normalPdf } from "./normal.ts";
import { sinCos } from "./trig.ts";

/** Gauss-Legendre points of the premium integral (more than the boundary's: the spot may sit near the boundary, where the integrand is steep). */
const PREMIUM_POINTS = 32;

/** Premium of an American option and its Delta and Gamma (per $). */
interface Premium {
  /** American minus European value. */
  premium: number;
  /** The premium's Delta (per $ of spot). */
  delta: number;
  /** The premium's Gamma (per $ per $). */
  gamma: number;
  /** Change of the premium per year as expiry approaches (minus its derivative in years to expiry). */
  theta: number;
  /** True when the spot lies in the exercise region: the option is worth its payoff. */
  exercised: boolean;
  /** The boundary's nodes (a start for a bumped solve, see putBoundary). */
  boundary: Float64Array;
}

/** The premium alone, with the boundary it was integrated on (its Greeks come from {@link premiumGreeks}). */
export interface PremiumSolve {
  /** American minus European value (NaN when exercised). */
  premium: number;
  /** True when the spot lies in the exercise region: the option is worth its payoff. */
  exercised: boolean;
  /** The put boundary (of the symmetric put, for a call). */
  put: PutBoundary;
}

/**
 * The premium integral's points: sin and cos of theta = pi (1 + y) / 4 and the weight times pi / 4
 * (the same every call; sinCos, not Math.sin and Math.cos, whose last bits differ between runtimes).
 */
const RULE = (() => {
  const { points, weights } = gaussLegendre(PREMIUM_POINTS);
  const theta = points.map((y) => (Math.PI * (1 + y)) / 4);
  return { sin: theta.map((x) => sinCos(x).sin), cos: theta.map((x) => sinCos(x).cos), w: weights.map((x) => (Math.PI / 4) * x), weights };
})();

/** What the premium integral's points need of the time to expiry and rates alone: s, ds, sqrt(s), e^{-rs}, e^{-qs} and where each point's boundary lies (Chebyshev z). */
interface PointTables {
  T: number;
  r: number;
  q: number;
  s: Float64Array;
  ds: Float64Array;
  rootS: Float64Array;
  er: Float64Array;
  eq: Float64Array;
  z: Float64Array;
}

/** Tables kept, most recent first: an expiry's contracts and their Vega bumps share one, a Rho bump has its own. */
const RECENT: PointTables[] = [];
const KEPT = 4;

/** The point tables of a put with `T` years left at rate `r` and dividend yield `q` (the same arithmetic as computing each point afresh). */
function pointTables(T: number, r: number, q: number): PointTables {
  const known = RECENT.find((x) => x.T === T && x.r === r && x.q === q);
  if (known) return known;
  const n = PREMIUM_POINTS,
    s = new Float64Array(n),
    ds = new Float64Array(n),
    rootS = new Float64Array(n),
    er = new Float64Array(n),
    eq = new Float64Array(n),
    z = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const sin = RULE.sin[k], cos = RULE.cos[k];
    s[k] = T * sin * sin;
    ds[k] = 2 * T * sin * cos * RULE.w[k];
    rootS[k] = Math.sqrt(s[k]);
    er[k] = Math.exp(-r * s[k]);
    eq[k] = Math.exp(-q * s[k]);
    z[k] = 2 * Math.sqrt(Math.max(T - s[k], 0) / T) - 1; // boundaryAt's z at tau = T - s
  }
  const made = { T, r, q, s, ds, rootS, er, eq, z };
  RECENT.unshift(made);
  RECENT.length = Math.min(RECENT.length, KEPT);
  return made;
}

/** The boundary at the point whose Chebyshev z is `z` (boundaryAt with z given). */
function boundaryAtZ(b: PutBoundary, z: number): number {
  const h = chebyshevSum(b.coefficients, z);
  return b.limit * Math.exp(-Math.sqrt(h > 0 ? h : 0));
}

/** The symmetric put's spot, strike, rate and dividend yield: a call is the put on the strike with the spot as its strike, rate and dividend yield swapped. */
function putTerms(t: OptionTerms): [number, number, number, number] {
  const { spot, strike, rate: r, dividendYield: q } = t;
  return t.call ? [strike, spot, q, r] : [spot, strike, r, q];
}

/**
 * The early-exercise premium of `t` alone, on its boundary: what the implied-vol solver's tries
 * and the Vega and Rho bumps need (the Greeks' integrals and Theta's two more premiums would
 * be thrown away there). The same arithmetic as a full solve's premium, to the last bit.
 *
 * @example
 * ```ts
 * const put = { call: false, american: true, spot: 100, strike: 100, years: 1, rate: 0.05, dividendYield: 0 };
 * premiumSolve(put, 0.2).premium; // 0.2174 (American 6.0904 less European 5.5735)
 * ```
 */
export function premiumSolve(
  t: OptionTerms,
  vol: number,
  settings: Readonly<BoundarySettings> = MARKET_BOUNDARY,
  start?: BoundaryStart,
): PremiumSolve {
  const T = t.years, [S, K, rp, qp] = putTerms(t);
  const boundary = putBoundary(K, T, rp, qp, vol, settings, start);
  if (S <= boundaryAt(boundary, T)) return { premium: NaN, exercised: true, put: boundary };
  // s = T sin^2(theta), theta = pi (1 + y) / 4: smooth at both ends (the 1/sqrt(s) of the
  // densities near now, the boundary's square root near expiry); ds = 2 T sin cos dtheta.
  const { s: Ss, ds: DS, rootS, er, eq, z } = pointTables(T, rp, qp);
  let p = 0;
  for (let k = 0; k < PREMIUM_POINTS; k++) {
    const s = Ss[k], b = boundaryAtZ(boundary, z[k]), sd = vol * rootS[k];
    const dp = (Math.log(S / b) + (rp - qp) * s) / sd + sd / 2, dm = dp - sd;
    p += DS[k] * (rp * K * er[k] * normalCdf(-dm) - qp * S * eq[k] * normalCdf(-dp));
  }
  return { premium: p, exercised: false, put: boundary };
}

/**
 * Delta, Gamma (per $) and Theta (per year) of the premium `solved` found for `t` at `vol`
 * (not exercised), on the same boundary: no boundary is solved again.
 *
 * @example
 * ```ts
 * const put = { call: false, american: true, spot: 100, strike: 100, years: 1, rate: 0.05, dividendYield: 0 };
 * premiumGreeks(put, 0.2, premiumSolve(put, 0.2)).delta; // the premium's part of the put's Delta
 * ```
 */
export function premiumGreeks(t: OptionTerms, vol: number, solved: PremiumSolve): { delta: number; gamma: number; theta: number } {
  const T = t.years, [S, K, rp, qp] = putTerms(t), boundary = solved.put, p = solved.premium;
  const { cos: COS, w: W } = RULE, { s: Ss, ds: DS, rootS, er, eq, z } = pointTables(T, rp, qp);
  let dS = 0, dSS = 0;
  const rootT = Math.sqrt(T);
  for (let k = 0; k < PREMIUM_POINTS; k++) {
    const cos = COS[k], w = W[k], s = Ss[k], ds = DS[k];
    const b = boundaryAtZ(boundary, z[k]), sd = vol * rootS[k];
    const dp = (Math.log(S / b) + (rp - qp) * s) / sd + sd / 2, dm = dp - sd;
    const kr = rp * K * er[k], sq = qp * S * eq[k];
    const pdfP = normalPdf(dp), pdfM = normalPdf(dm);
    // d/dS: -rK e^{-rs} phi(d-)/(S sd) - q e^{-qs} N(-d+) + q e^{-qs} phi(d+)/sd; ds / sd = 2 sqrt(T) cos / vol dtheta.
    dS += ((2 * rootT * cos * w) / vol) * ((-kr * pdfM) / S + (sq * pdfP) / S) - ds * (sq / S) * normalCdf(-dp);
    // d2/dS2 = [r K e^{-rs} phi(d-) d+ - q S e^{-qs} phi(d+) d-] / (S^2 vol^2 s).
    dSS += ds * (((kr * pdfM * dp) / (S * S) - (sq * pdfP * dm) / (S * S)) / (sd * sd));
  }
  // Theta from the premium with less time to run on the same boundary (B is a function of the
  // time to expiry alone), by a second-order backward difference. Theta from the Black-Scholes
  // equation would need the value's layer just off the boundary, which no affordable quadrature
  // resolves: near the boundary it came out positive.
  const h = T * THETA_STEP,
    theta = -(3 * p - 4 * premiumOnly(S, K, rp, qp, vol, boundary, T - h) + premiumOnly(S, K, rp, qp, vol, boundary, T - 2 * h)) / (2 * h);
  if (!t.call) return { delta: dS, gamma: dSS, theta };
  // Back to the call's own variables: C(S, K) = P(K, S), P homogeneous of degree one, so
  // dC/dS = dP/dK' = (P - S' dP/dS') / K' and d2C/dS2 = S'^2 d2P/dS'^2 / K'^2.
  return { delta: (p - S * dS) / K, gamma: (S * S * dSS) / (K * K), theta };
}

/** Theta's step, as a fraction of the time to expiry. */
const THETA_STEP = 1e-3;

/** The put premium integral alone at time to expiry `T` (at most the boundary's). */
function premiumOnly(S: number, K: number, r: number, q: number, vol: number, boundary: PutBoundary, T: number): number {
  const { sin: SIN, cos: COS, weights } = RULE;
  let p = 0;
  for (let k = 0; k < PREMIUM_POINTS; k++) {
    const sin = SIN[k], cos = COS[k];
    const s = T * sin * sin, ds = 2 * T * sin * cos * (Math.PI / 4) * weights[k];
    const b = boundaryAt(boundary, T - s), sd = vol * Math.sqrt(s);
    const dp = (Math.log(S / b) + (r - q) * s) / sd + sd / 2;
    p += ds * (r * K * Math.exp(-r * s) * normalCdf(sd - dp) - q * S * Math.exp(-q * s) * normalCdf(-dp));
  }
  return p;
}
