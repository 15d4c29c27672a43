/**
 * One step of the fixed-point iteration for an American put's exercise boundary (Andersen,
 * Lake and Offengenden, "High-performance American option pricing", 2016): the boundary solves
 * the value-matching and smooth-pasting conditions written as integral equations,
 * B(tau) = K e^{-(r-q) tau} N(tau, B) / D(tau, B), and one step evaluates the right-hand side
 * at the boundary's Chebyshev nodes. exerciseBoundary.ts iterates it.
 *
 * The unknowns are x_i = ln(X / B(tau_i)) = sqrt(H_i), X = K min(1, r/q) the boundary at expiry,
 * at Chebyshev nodes in sqrt(tau); H = x^2 is smooth in sqrt(tau) where B has its square-root
 * shape near expiry, and x does not depend on the strike (the boundary scales with it). The
 * integrals over u in [0, tau_i] are taken by Gauss-Legendre after the change of variable
 * tau_i - u = tau_i sin^2(theta), which removes the 1/sqrt(tau - u) singularity at one end and
 * the boundary's square root at the other.
 *
 * Two forms of the equations: "B" (from smooth pasting, with densities) when r >= q; "A" (from
 * value matching, cumulative probabilities only), the stable one when q > r.
 */
import { gaussLegendre } from "./gaussLegendre.ts";
import { normalCdf, normalCdfGivenDensity, normalPdf } from "./normal.ts";
import { sinCos } from "./trig.ts";

/** One put's fixed-point problem, per unit of strike, with what stays the same from step to step. */
export interface BoundaryProblem {
  years: number;
  r: number;
  q: number;
  vol: number;
  /** Chebyshev intervals (nodes + 1 nodes, node `nodes` at expiry where x = 0). */
  nodes: number;
  /** Gauss-Legendre points per node. */
  points: number;
  /** ln(X / K) = ln min(1, r/q). */
  lnLimit: number;
  /** Per node i and point k (index i * points + k): s = tau_i - u, sqrt(s), e^{-rs}, e^{-qs} (shared by every volatility). */
  s: Float64Array;
  rootS: Float64Array;
  er: Float64Array;
  eq: Float64Array;
  tables: Tables;
}

/** Node places and interpolation weights of one size (nodes, points): the same for every option. */
interface Tables {
  /** sqrt(tau_i / T) of node i (node 0 at T, node n at expiry). */
  xi: Float64Array;
  /** sin and cos of theta_k = pi (1 + y_k) / 4, y_k the Gauss-Legendre points, and the weights times pi / 4. */
  sin: Float64Array;
  cos: Float64Array;
  weights: Float64Array;
  /** H at point k of node i is sum_j weightsAt[(i l + k) n + j] H_j (node n, where H = 0, left out). */
  weightsAt: Float64Array;
}

/**
 * The fixed-point problem of a put with `years` to expiry, rate `r`, dividend yield `q`, at `vol`.
 *
 * @example
 * ```ts
 * const p = boundaryProblem(0.5, 0.053, 0.005, 0.25, 6, 8);
 * const x = new Float64Array(7).fill(0.1), next = new Float64Array(7);
 * boundaryStep(p, x, next); // next: the boundary one step on
 * ```
 */
export function boundaryProblem(years: number, r: number, q: number, vol: number, nodes: number, points: number): BoundaryProblem {
  if (!(years > 0 && vol > 0 && r > 0 && q >= 0)) {
    throw new RangeError(
      `An exercise boundary needs positive years, volatility and rate and a dividend yield of at least 0, got years ${years}, vol ${vol}, rate ${r}, dividend yield ${q}`,
    );
  }
  const tables = tablesFor(nodes, points);
  // The arrays depend on years, rates and size only: recent ones serve the next solves of the
  // same expiry (several kept: a Rho bump's rate comes between two contracts' solves).
  let last = RECENT.find((p) => p.years === years && p.r === r && p.q === q && p.tables === tables);
  if (!last) {
    const { xi, sin } = tables;
    const m = nodes * points, s = new Float64Array(m), rootS = new Float64Array(m), er = new Float64Array(m), eq = new Float64Array(m);
    for (let i = 0; i < nodes; i++) {
      for (let k = 0; k < points; k++) {
        const ik = i * points + k, v = years * xi[i] * xi[i] * sin[k] * sin[k];
        s[ik] = v;
        rootS[ik] = Math.sqrt(v);
        er[ik] = Math.exp(-r * v);
        eq[ik] = Math.exp(-q * v);
      }
    }
    last = { years, r, q, vol, nodes, points, lnLimit: Math.log(Math.min(1, q > 0 ? r / q : 1)), s, rootS, er, eq, tables };
    RECENT.unshift(last);
    RECENT.length = Math.min(RECENT.length, KEPT);
  }
  return { ...last, vol };
}

/** Problems' arrays kept, most recent first. */
const RECENT: BoundaryProblem[] = [];
const KEPT = 4;

/**
 * One fixed-point step: `out` = the right-hand side at boundary `x` (both ln(X / B) at the
 * nodes; out[nodes] = 0). Returns the largest |out_i - x_i|.
 *
 * @example
 * ```ts
 * const moved = boundaryStep(p, x, next); // see boundaryProblem
 * ```
 */
export function boundaryStep(p: BoundaryProblem, x: Float64Array, out: Float64Array): number {
  const { years, r, q, vol, nodes: n, points: l, lnLimit, s: S, rootS: RS, er: ER, eq: EQ } = p;
  const { xi, sin, cos, weights, weightsAt } = p.tables;
  const drift = r - q, smoothPasting = r >= q;
  let moved = 0;
  for (let i = 0; i < n; i++) {
    const tau = years * xi[i] * xi[i], rootTau = Math.sqrt(tau), sdT = vol * rootTau;
    const dpT = (lnLimit - x[i] + drift * tau) / sdT + sdT / 2, dmT = dpT - sdT;
    let num = smoothPasting ? (Math.exp(-r * tau) * normalPdf(dmT)) / sdT : Math.exp(-r * tau) * normalCdf(dmT);
    let den = Math.exp(-q * tau) * (smoothPasting ? normalPdf(dpT) / sdT + normalCdf(dpT) : normalCdf(dpT));
    for (let k = 0; k < l; k++) {
      const ik = i * l + k, row = ik * n;
      let hu = 0;
      for (let j = 0; j < n; j++) hu += weightsAt[row + j] * x[j] * x[j];
      // ln(B(tau_i) / B(u)) = sqrt(H(u)) - x_i; phi(d-) = phi(d+) e^{ln(B(tau_i) / B(u)) + (r - q) s}.
      const sd = vol * RS[ik], drifted = Math.sqrt(hu > 0 ? hu : 0) - x[i] + drift * S[ik], dp = drifted / sd + sd / 2;
      const pp = normalPdf(dp), pm = pp * Math.exp(drifted);
      // ds = 2 tau sin cos dtheta; ds / (vol sqrt(s)) = 2 sqrt(tau) cos / vol dtheta.
      const ds = 2 * tau * sin[k] * cos[k] * weights[k];
      if (smoothPasting) {
        const lift = (2 * rootTau * cos[k] * weights[k]) / vol;
        num += lift * r * ER[ik] * pm;
        den += q * EQ[ik] * (lift * pp + ds * normalCdfGivenDensity(dp, pp));
      } else {
        num += ds * r * ER[ik] * normalCdfGivenDensity(dp - sd, pm);
        den += ds * q * EQ[ik] * normalCdfGivenDensity(dp, pp);
      }
    }
    // B / K = num / den, never above the limit X / K.
    const ratio = Math.log(num / den);
    out[i] = ratio < lnLimit ? lnLimit - ratio : 0;
    moved = Math.max(moved, Math.abs(out[i] - x[i]));
  }
  out[n] = 0;
  return moved;
}

const TABLES = new Map<string, Tables>();

function tablesFor(n: number, l: number): Tables {
  const key = `${n}x${l}`;
  const known = TABLES.get(key);
  if (known) return known;
  const xi = new Float64Array(n + 1);
  // sinCos, not Math.sin and Math.cos, whose last bits differ between runtimes (trig.ts).
  for (let i = 0; i <= n; i++) xi[i] = (1 + sinCos((i * Math.PI) / n).cos) / 2;
  const rule = gaussLegendre(l);
  const sin = rule.points.map((y) => sinCos((Math.PI * (1 + y)) / 4).sin),
    cos = rule.points.map((y) => sinCos((Math.PI * (1 + y)) / 4).cos);
  const weights = rule.weights.map((w) => (Math.PI / 4) * w);
  const weightsAt = new Float64Array(n * l * n), unit = new Float64Array(n + 1), c = new Float64Array(n + 1);
  for (let j = 0; j < n; j++) {
    unit.fill(0);
    unit[j] = 1;
    chebyshevFit(unit, c);
    for (let i = 0; i < n; i++) {
      // Point k of node i lies at u = tau_i - s = xi_i^2 cos^2(theta_k) T: z = 2 xi_i cos(theta_k) - 1.
      for (let k = 0; k < l; k++) weightsAt[(i * l + k) * n + j] = chebyshevSum(c, 2 * xi[i] * cos[k] - 1);
    }
  }
  const tables = { xi, sin, cos, weights, weightsAt };
  TABLES.set(key, tables);
  return tables;
}

/**
 * Chebyshev coefficients of the values at the extrema z_i = cos(i pi / n), i = 0..n, first and
 * last halved, so that {@link chebyshevSum} interpolates them.
 *
 * @example
 * ```ts
 * const c = new Float64Array(3);
 * chebyshevFit(new Float64Array([1, 0, 1]), c); // z^2 at z = 1, 0, -1
 * chebyshevSum(c, 0.5); // 0.25
 * ```
 */
export function chebyshevFit(values: Float64Array, out: Float64Array): void {
  const n = values.length - 1, cos = cosines(n);
  for (let k = 0; k <= n; k++) {
    let sum = 0;
    for (let i = 0; i <= n; i++) sum += (i === 0 || i === n ? 0.5 : 1) * values[i] * cos[k * (n + 1) + i];
    out[k] = (2 / n) * sum * (k === 0 || k === n ? 0.5 : 1);
  }
}

const COSINES = new Map<number, Float64Array>();

/** cos(k i pi / n) for k, i = 0..n, row-major. */
function cosines(n: number): Float64Array {
  let c = COSINES.get(n);
  if (!c) {
    c = new Float64Array((n + 1) * (n + 1));
    for (let k = 0; k <= n; k++) for (let i = 0; i <= n; i++) c[k * (n + 1) + i] = sinCos((k * i * Math.PI) / n).cos;
    COSINES.set(n, c);
  }
  return c;
}

/**
 * Sum of c_k T_k(z) by Clenshaw's recurrence.
 *
 * @example
 * ```ts
 * chebyshevSum(new Float64Array([0, 0, 1]), 0.5); // T_2(0.5) = -0.5
 * ```
 */
export function chebyshevSum(c: Float64Array, z: number): number {
  const z2 = 2 * z;
  let b1 = 0, b2 = 0;
  for (let k = c.length - 1; k >= 1; k--) {
    const b0 = c[k] + z2 * b1 - b2;
    b2 = b1;
    b1 = b0;
  }
  return c[0] + z * b1 - b2;
}
