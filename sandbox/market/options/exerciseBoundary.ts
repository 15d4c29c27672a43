/**
 * The early-exercise boundary of an American put, B(tau) for times to expiry tau in [0, T]: the
 * fixed point of boundaryMap.ts's step, solved to `tolerance` by a chord (frozen-Jacobian
 * Newton) iteration.
 *
 * The boundary per unit of strike depends on the years, rate, dividend yield and volatility
 * only, so one solve serves every strike. Each volatility is solved from an anchor: the boundary
 * at the nearest multiple of ANCHOR_VOL_STEP (same years, rate and dividend yield), solved once
 * from Bjerksund and Stensland's (1993) flat boundary by plain iteration to machine precision,
 * with the Jacobian of the step there. From the anchor, the chord step x += (I - J)^-1 (F(x) - x)
 * converges in a few steps instead of plain iteration's dozen or more. Anchors are themselves
 * solved by chord steps from the anchor at the nearest multiple of 0.1, which alone is solved
 * from scratch; anchors are a function of the terms alone. A solve may start from a nearby
 * solve's boundary instead (the implied-vol solver's previous try); the tolerance, 1e-11 in
 * ln B, keeps what it returns the same as from the anchor to about 1e-12.
 */
import { type BoundaryProblem, boundaryProblem, boundaryStep, chebyshevFit, chebyshevSum } from "./boundaryMap.ts";

/** Size and stopping rule of a boundary solve. */
export interface BoundarySettings {
  /** Chebyshev intervals in sqrt(tau) (nodes + 1 nodes, the one at expiry fixed). */
  nodes: number;
  /** Gauss-Legendre points of each node's integrals. */
  points: number;
  /** Largest move of a node's ln B at which the iteration stops. */
  tolerance: number;
  /** Steps after which the solve gives up (and throws: the boundary is not known). */
  maxIterations: number;
}

/** The market's boundary solve. */
export const MARKET_BOUNDARY: Readonly<BoundarySettings> = { nodes: 5, points: 6, tolerance: 1e-11, maxIterations: 40 };
/** Evaluations of the step when solving a bump of a converged boundary (see putBoundary). */
const BUMP_STEPS = 1;
/** Volatilities are solved from the anchor at the nearest multiple of this. */
const ANCHOR_VOL_STEP = 0.02;

/** A put's exercise boundary: evaluate it anywhere in [0, T] with {@link boundaryAt}. */
export interface PutBoundary {
  strike: number;
  years: number;
  /** The boundary at expiry, K min(1, r/q). */
  limit: number;
  /** Chebyshev coefficients of H(z) = ln(B / limit)^2, z = 2 sqrt(tau / T) - 1 (first and last halved). */
  coefficients: Float64Array;
  /** ln(limit / B) at the nodes, tau = T first (a start for a nearby solve). */
  x: Float64Array;
  /** Chord steps the solve took. */
  iterations: number;
}

/**
 * The boundary at time to expiry `tau` (0 <= tau <= T).
 *
 * @example
 * ```ts
 * const b = putBoundary(100, 1, 0.05, 0, 0.2);
 * boundaryAt(b, 1); // about 80.9: exercise now below that spot
 * ```
 */
export function boundaryAt(b: PutBoundary, tau: number): number {
  const h = chebyshevSum(b.coefficients, 2 * Math.sqrt(Math.max(tau, 0) / b.years) - 1);
  return b.limit * Math.exp(-Math.sqrt(h > 0 ? h : 0));
}

/**
 * The exercise boundary of an American put with strike `strike`, `years` to expiry, rate `r`,
 * dividend yield `q`, at volatility `vol`. The chord steps start from the anchor, or from
 * `start` (the implied-vol solver's previous try), or for a bump, take BUMP_STEPS from it.
 *
 * @example
 * ```ts
 * const b = putBoundary(100, 0.5, 0.053, 0.005, 0.25);
 * boundaryAt(b, 0.5); // the spot below which the put is exercised now
 * ```
 */
export function putBoundary(
  strike: number,
  years: number,
  r: number,
  q: number,
  vol: number,
  settings: Readonly<BoundarySettings> = MARKET_BOUNDARY,
  start?: BoundaryStart,
): PutBoundary {
  const n = settings.nodes;
  const problem = boundaryProblem(years, r, q, vol, n, settings.points);
  const a = anchor(years, r, q, Math.max(1, Math.round(vol / ANCHOR_VOL_STEP)), settings);
  const counter = { steps: 0 };
  const from = start?.x.length === n + 1 ? start.x : a.x;
  if (start?.bump && from === start.x) {
    // A bump of a converged boundary: one chord step is the linear predictor x + (I - J)^-1 dF,
    // whose error (J's change since the anchor times the small move) is far inside any Greek's target.
    return finish(strike, problem, chordSolve(problem, from, a.inverse, 0, BUMP_STEPS, counter, true)!, BUMP_STEPS);
  }
  const x = chordSolve(problem, from, a.inverse, settings.tolerance, settings.maxIterations, counter);
  if (x) return finish(strike, problem, x, counter.steps);
  throw new Error(
    `The exercise boundary did not converge in ${settings.maxIterations} steps (strike ${strike}, years ${years}, rate ${r}, dividend yield ${q}, vol ${vol})`,
  );
}

function finish(strike: number, p: BoundaryProblem, x: Float64Array, iterations: number): PutBoundary {
  const h = x.map((v) => v * v), coefficients = new Float64Array(x.length);
  chebyshevFit(h, coefficients);
  return { strike, years: p.years, limit: strike * Math.exp(p.lnLimit), coefficients, x, iterations };
}

/** Where a solve starts: the `x` of a boundary of the same contract at a nearby volatility or rate. */
export interface BoundaryStart {
  x: Float64Array;
  /** True for a bump of a converged boundary (Vega, Rho): BUMP_STEPS chord steps, no more. */
  bump?: boolean;
}

/** A solved boundary (per unit of strike) and (I - J)^-1, J the step's Jacobian there. */
interface Anchor {
  x: Float64Array;
  inverse: Float64Array;
}

const ANCHORS = new Map<string, Map<number, Anchor>>();
/** Contracts' (years, rates) kept before the cache starts over (the market moves on day by day). */
const MAX_GROUPS = 512;
/** Anchors are converged this far (about machine precision). */
const ANCHOR_TOLERANCE = 1e-12;
/** Every ROOT_BUCKETS-th anchor is solved from scratch, the others from it. */
const ROOT_BUCKETS = 5;

/** The anchors of one contract's years, rates and grid size, by volatility bucket. */
function anchorsOf(years: number, r: number, q: number, settings: Readonly<BoundarySettings>): Map<number, Anchor> {
  const l = lastGroup;
  if (l && l.years === years && l.r === r && l.q === q && l.nodes === settings.nodes && l.points === settings.points) return l.anchors;
  const key = `${years}|${r}|${q}|${settings.nodes}|${settings.points}`;
  let anchors = ANCHORS.get(key);
  if (!anchors) {
    if (ANCHORS.size >= MAX_GROUPS) ANCHORS.clear();
    anchors = new Map();
    ANCHORS.set(key, anchors);
  }
  lastGroup = { years, r, q, nodes: settings.nodes, points: settings.points, anchors };
  return anchors;
}

let lastGroup: { years: number; r: number; q: number; nodes: number; points: number; anchors: Map<number, Anchor> } | undefined;

function anchor(years: number, r: number, q: number, bucket: number, settings: Readonly<BoundarySettings>): Anchor {
  const n = settings.nodes, anchors = anchorsOf(years, r, q, settings);
  const known = anchors.get(bucket);
  if (known) return known;
  const vol = bucket * ANCHOR_VOL_STEP, p = boundaryProblem(years, r, q, vol, n, settings.points);
  const x = new Float64Array(n + 1), fx = new Float64Array(n + 1);
  // An anchor off a multiple of ROOT_BUCKETS steps is solved by chord steps from the one on it;
  // that one by plain iteration (which contracts by about 0.3 a step) from the flat boundary.
  const root = Math.max(ROOT_BUCKETS, Math.round(bucket / ROOT_BUCKETS) * ROOT_BUCKETS);
  if (bucket !== root) {
    const from = anchor(years, r, q, root, settings);
    x.set(chordSolve(p, from.x, from.inverse, ANCHOR_TOLERANCE, 200) ?? plainSolve(p, from.x, years, r, q, vol));
  } else {
    const start = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) {
      start[i] = Math.max(0, p.lnLimit - Math.log(flatBoundary(years * p.tables.xi[i] * p.tables.xi[i], r, q, vol)));
    }
    x.set(plainSolve(p, start, years, r, q, vol));
  }
  // Jacobian of the step by forward differences, then (I - J)^-1 by Gauss-Jordan elimination.
  const jac = new Float64Array(n * n), bumped = new Float64Array(n + 1), fb = new Float64Array(n + 1);
  boundaryStep(p, x, fx);
  for (let j = 0; j < n; j++) {
    const h = 1e-7 * Math.max(1, x[j]);
    bumped.set(x);
    bumped[j] += h;
    boundaryStep(p, bumped, fb);
    for (let i = 0; i < n; i++) jac[i * n + j] = (fb[i] - fx[i]) / h;
  }
  const made = { x, inverse: invertIdentityMinus(jac, n) };
  anchors.set(bucket, made);
  return made;
}

/** Plain fixed-point iteration from `start` to ANCHOR_TOLERANCE. */
function plainSolve(p: BoundaryProblem, start: Float64Array, years: number, r: number, q: number, vol: number): Float64Array {
  const x = start.slice(), fx = new Float64Array(x.length);
  for (let k = 0; k < 400; k++) {
    const moved = boundaryStep(p, x, fx);
    x.set(fx);
    if (moved <= ANCHOR_TOLERANCE) return x;
  }
  throw new Error(`The exercise boundary did not converge at its anchor (years ${years}, rate ${r}, dividend yield ${q}, vol ${vol})`);
}

/**
 * Chord steps x += M (F(x) - x) from `start` until no node moves more than `tolerance`;
 * undefined if not within `maxSteps` evaluations of F, or with `last`, the last chord step's x.
 */
function chordSolve(
  p: BoundaryProblem,
  start: Float64Array,
  inverse: Float64Array,
  tolerance: number,
  maxSteps: number,
  counter?: { steps: number },
  last = false,
): Float64Array | undefined {
  const n = p.nodes, x = start.slice(), fx = new Float64Array(n + 1), d = new Float64Array(n);
  for (let step = 1; step <= maxSteps; step++) {
    const moved = boundaryStep(p, x, fx);
    if (counter) counter.steps = step;
    if (moved <= tolerance) return fx;
    for (let i = 0; i < n; i++) d[i] = fx[i] - x[i];
    for (let i = 0; i < n; i++) {
      let delta = 0;
      for (let j = 0; j < n; j++) delta += inverse[i * n + j] * d[j];
      x[i] = Math.max(x[i] + delta, 0);
    }
    if (last && step === maxSteps) return x;
  }
  return undefined;
}

/** (I - J)^-1 for an n x n row-major J, by Gauss-Jordan with partial pivoting. */
function invertIdentityMinus(jac: Float64Array, n: number): Float64Array {
  const a = new Float64Array(n * 2 * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) a[i * 2 * n + j] = (i === j ? 1 : 0) - jac[i * n + j];
    a[i * 2 * n + n + i] = 1;
  }
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let i = c + 1; i < n; i++) if (Math.abs(a[i * 2 * n + c]) > Math.abs(a[pivot * 2 * n + c])) pivot = i;
    if (pivot !== c) {
      for (let j = 0; j < 2 * n; j++) [a[c * 2 * n + j], a[pivot * 2 * n + j]] = [a[pivot * 2 * n + j], a[c * 2 * n + j]];
    }
    const diag = a[c * 2 * n + c];
    for (let j = 0; j < 2 * n; j++) a[c * 2 * n + j] /= diag;
    for (let i = 0; i < n; i++) {
      if (i === c) continue;
      const f = a[i * 2 * n + c];
      if (f !== 0) { for (let j = 0; j < 2 * n; j++) a[i * 2 * n + j] -= f * a[c * 2 * n + j]; }
    }
  }
  const inverse = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) inverse[i * n + j] = a[i * 2 * n + n + j];
  return inverse;
}

/**
 * Bjerksund and Stensland's (1993) flat exercise boundary of a put with `tau` years left, per
 * unit of strike, by put-call symmetry from their call trigger: the anchor's first guess.
 */
function flatBoundary(tau: number, r: number, q: number, vol: number): number {
  // The symmetric call has rate q, dividend yield r, cost of carry q - r, strike 1.
  const rc = q, b = q - r, s2 = vol * vol;
  const beta = 0.5 - b / s2 + Math.sqrt((b / s2 - 0.5) ** 2 + (2 * rc) / s2);
  const bInf = beta / (beta - 1), b0 = Math.max(1, rc / (rc - b));
  const trigger = bInf > b0 ? b0 + (bInf - b0) * (1 - Math.exp(-(b * tau + 2 * vol * Math.sqrt(tau)) * (b0 / (bInf - b0)))) : b0;
  return 1 / trigger;
}
