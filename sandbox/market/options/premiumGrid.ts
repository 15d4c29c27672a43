/**
 * The early-exercise premium of an American option on a finite-difference grid: the American
 * and the European problem solved side by side on the same grid, so that the premium (their
 * difference) carries almost none of the grid's discretisation error, which the two share.
 * The caller adds the premium to the closed-form European value (a control variate).
 *
 * The grid is built for accuracy at the spot, where the value is read and where, for the
 * contracts that need a grid at all (in-the-money puts above all), the early-exercise boundary
 * runs:
 * - log-price nodes stretched by a sinh map centred on the spot, which sits on a node: a node
 *   spacing there a fraction of the far spacing, and no interpolation to read the value;
 * - time steps finer towards expiry (times to expiry growing as a power of the step), where
 *   the boundary moves fastest, the first two implicit (Rannacher), a short last one for Theta;
 * - the payoff cell-averaged in the cell holding the strike;
 * - early exercise by Brennan-Schwartz: the tridiagonal solve runs towards the exercise region
 *   and projects on the payoff as it goes.
 */
import { DAYS_PER_YEAR, type OptionTerms } from "./contract.ts";

/** Grid size of a premium solve; `gridVol` fixes the grid while the pricing volatility is bumped. */
export interface PremiumGridSettings {
  /** Space intervals of the log-price grid. */
  nodes: number;
  /** Time steps to expiry. */
  steps: number;
  /** Volatility the grid is sized for (default: the pricing volatility). */
  gridVol?: number;
}

/** American and European grid values at the spot, with the American one's Delta, Gamma and Theta. */
export interface PremiumSolve {
  /** American minus European value on the grid. */
  premium: number;
  /** Premium's Delta, Gamma (per $) and Theta (per calendar day). */
  delta: number;
  gamma: number;
  theta: number;
  /** True when the grid exercised the contract at the spot (it is worth its payoff). */
  exercised: boolean;
}

/** Standard deviations of the log-price the grid spans beyond the spot and the strike. */
const WIDTH_SD = 5;
/** Half-width of the sinh stretch, in standard deviations: nodes are densest within it. */
const STRETCH_SD = 0.6;
/** Times to expiry grow as step^TIME_POWER: finer steps near expiry. */
const TIME_POWER = 1.5;
/** Length of the final time step, which gives Theta: six hours. */
const THETA_STEP_YEARS = 0.25 / 365;

let X = new Float64Array(0), G = new Float64Array(0), A = new Float64Array(0), E = new Float64Array(0);
let LA = new Float64Array(0), LB = new Float64Array(0), LC = new Float64Array(0);
let INV = new Float64Array(0), MUL = new Float64Array(0), RA = new Float64Array(0), RE = new Float64Array(0);

function ensureCapacity(n: number): void {
  if (X.length >= n) return;
  [X, G, A, E, LA, LB, LC, INV, MUL, RA, RE] = Array.from({ length: 11 }, () => new Float64Array(n));
}

/**
 * The early-exercise premium of `t` at volatility `vol`, with its Delta, Gamma and Theta.
 *
 * @example
 * ```ts
 * const put = { call: false, american: true, spot: 100, strike: 100, years: 1, rate: 0.05, dividendYield: 0 };
 * bsmPrice(put, 0.2) + premiumSolve(put, 0.2, { nodes: 80, steps: 40 }).premium; // 6.0904 (QuantLib: 6.09037)
 * ```
 */
export function premiumSolve(t: OptionTerms, vol: number, settings: Readonly<PremiumGridSettings>): PremiumSolve {
  const { spot, strike, years: T, rate: r, dividendYield: q } = t;
  const n = Math.max(8, settings.nodes | 0), steps = Math.max(4, settings.steps | 0);
  ensureCapacity(n + 1);
  const dir = t.call ? 1 : -1;
  const lnS = Math.log(spot), lnK = Math.log(strike);
  const sd = Math.max(settings.gridVol ?? vol, 0.02) * Math.sqrt(T);
  // Oriented log-price y = dir * x: node 0 far out of the money, node n far in it, so the
  // exercise region sits at the top for calls and puts alike.
  const yS = dir * lnS, yK = dir * lnK;
  const lo = Math.min(yS, yK) - WIDTH_SD * sd, hi = Math.max(yS, yK) + WIDTH_SD * sd;
  const spotNode = placeNodes(yS, lo, hi, STRETCH_SD * sd, n);
  for (let j = 0; j <= n; j++) G[j] = Math.max(dir * (Math.exp(dir * X[j]) - strike), 0);
  for (let j = 0; j <= n; j++) {
    const left = j > 0 ? (X[j - 1] + X[j]) / 2 : X[j], right = j < n ? (X[j] + X[j + 1]) / 2 : X[j];
    A[j] = left < yK && yK < right ? cellAverage(t.call, left, right, strike) : G[j];
    E[j] = A[j];
  }
  // Operator coefficients per node: L V = LA V[j-1] + LB V[j] + LC V[j+1] in the oriented variable.
  const s2 = (vol * vol) / 2, mu = dir * (r - q - s2);
  for (let j = 1; j < n; j++) {
    const hm = X[j] - X[j - 1], hp = X[j + 1] - X[j], hs = hm + hp;
    LA[j] = (2 * s2) / (hm * hs) - (mu * hp) / (hm * hs);
    LC[j] = (2 * s2) / (hp * hs) + (mu * hm) / (hp * hs);
    LB[j] = -(2 * s2) / (hm * hp) + (mu * (hp - hm)) / (hm * hp) - r;
  }
  const farS = Math.exp(dir * X[n]);
  const last = Math.min(THETA_STEP_YEARS, T / (4 * steps));
  let factored = NaN;
  /** Advances both vectors over `h` to time to expiry `tau`, implicitly or by Crank-Nicolson. */
  const step = (h: number, tau: number, implicit: boolean) => {
    const w = implicit ? h : h / 2, e = h - w;
    if (w !== factored) {
      let d = 1 - w * LB[1];
      INV[1] = 1 / d;
      for (let j = 2; j < n; j++) {
        MUL[j] = -w * LA[j] * INV[j - 1];
        d = 1 - w * LB[j] - MUL[j] * -w * LC[j - 1];
        INV[j] = 1 / d;
      }
      factored = w;
    }
    const qd = farS * Math.exp(-q * tau), rd = strike * Math.exp(-r * tau);
    const european = Math.max(t.call ? qd - rd : rd - qd, 0);
    let pa = 0, pe = 0;
    for (let j = 1; j < n; j++) {
      let ra = A[j] + e * (LA[j] * A[j - 1] + LB[j] * A[j] + LC[j] * A[j + 1]);
      let re = E[j] + e * (LA[j] * E[j - 1] + LB[j] * E[j] + LC[j] * E[j + 1]);
      if (j > 1) {
        ra -= MUL[j] * pa;
        re -= MUL[j] * pe;
      }
      RA[j] = pa = ra;
      RE[j] = pe = re;
    }
    let na = Math.max(european, G[n]), ne = european;
    A[n] = na;
    E[n] = ne;
    A[0] = E[0] = 0;
    for (let j = n - 1; j >= 1; j--) {
      const up = -w * LC[j];
      let va = (RA[j] - up * na) * INV[j];
      if (va < G[j]) va = G[j];
      A[j] = na = va;
      E[j] = ne = (RE[j] - up * ne) * INV[j];
    }
  };
  const tauAt = (k: number) => (T - last) * Math.pow(k / steps, TIME_POWER);
  for (let k = 1; k <= steps; k++) step(tauAt(k) - tauAt(k - 1), tauAt(k), k <= 2);
  const before = A[spotNode] - E[spotNode];
  step(last, T, false);
  const premium = A[spotNode] - E[spotNode];
  const exercised = A[spotNode] === G[spotNode] && G[spotNode] > 0;
  const j = spotNode, hm = X[j] - X[j - 1], hp = X[j + 1] - X[j], hs = hm + hp;
  const slope = (V: Float64Array) => (-hp / (hm * hs)) * V[j - 1] + ((hp - hm) / (hm * hp)) * V[j] + (hm / (hp * hs)) * V[j + 1];
  const curve = (V: Float64Array) => (2 / (hm * hs)) * V[j - 1] - (2 / (hm * hp)) * V[j] + (2 / (hp * hs)) * V[j + 1];
  // Derivatives in the oriented log-price, then per $ of the spot.
  const vy = slope(A) - slope(E), vyy = curve(A) - curve(E);
  return {
    premium,
    delta: (dir * vy) / spot,
    gamma: (vyy - dir * vy) / (spot * spot),
    theta: (before - premium) / last / DAYS_PER_YEAR,
    exercised,
  };
}

/**
 * Fills X[0..n] with oriented log-prices from `lo` to `hi`, densest around `centre` (which
 * falls on a node) by a sinh map of half-width `width`; returns the centre's node.
 */
function placeNodes(centre: number, lo: number, hi: number, width: number, n: number): number {
  const xiLo = Math.asinh((lo - centre) / width), xiHi = Math.asinh((hi - centre) / width);
  const below = Math.min(Math.max(Math.round((n * -xiLo) / (xiHi - xiLo)), 2), n - 2);
  for (let j = 0; j <= below; j++) X[j] = centre + width * Math.sinh((xiLo * (below - j)) / below);
  for (let j = below + 1; j <= n; j++) X[j] = centre + width * Math.sinh((xiHi * (j - below)) / (n - below));
  return below;
}

/** Mean payoff over the oriented log-price cell [ya, yb]: smooths the kink in the strike's cell. */
function cellAverage(call: boolean, ya: number, yb: number, strike: number): number {
  const lnK = Math.log(strike), width = yb - ya;
  if (call) {
    const m = Math.max(lnK, ya);
    return yb > m ? (Math.exp(yb) - Math.exp(m) - strike * (yb - m)) / width : 0;
  }
  // For a put y = -ln S: the payoff K - e^{-y} is positive for y > -ln K.
  const m = Math.max(-lnK, ya);
  return yb > m ? (strike * (yb - m) - (Math.exp(-m) - Math.exp(-yb))) / width : 0;
}
