/**
 * The finite-difference model of the American (equity) roots: the Black-Scholes-Merton PDE in
 * log-price, stepped in time to expiry by Crank-Nicolson, with early exercise imposed by the
 * Brennan-Schwartz method (the tridiagonal solve runs towards the exercise region and projects
 * on the payoff as it goes, which solves the linear complementarity problem exactly in one pass
 * when the exercise region is one interval, as it is for vanilla calls and puts).
 *
 * Choices that keep it accurate at a small grid (60 x 20 by default, under 10 microseconds a
 * solve, implied volatilities within 0.1 point of a fine grid's):
 * - Rannacher start: the first step is two implicit half steps, so the payoff's kink does not
 *   ring through the Crank-Nicolson steps.
 * - The payoff is cell-averaged in the cell holding the strike, so the price converges
 *   smoothly (second order) wherever the strike falls between nodes.
 * - The grid spans the spot and the strike plus 4.5 standard deviations each way, with a
 *   fixed node count, so its spacing changes continuously with the volatility: the price is a
 *   continuous function of volatility and the implied-vol solver can bracket it.
 * - The value at the spot is read from the cubic through the four nearest nodes. Delta and
 *   Gamma come from the secant slopes of the nodes either side (a cubic's derivatives overshoot
 *   where its stencil crosses the early-exercise boundary and break |Delta| <= 1, Gamma >= 0).
 *   In the exercise region (both nodes beside the spot exercised) the Greeks are the payoff's.
 *   The last step is a short one (six hours) and Theta is the price change over it, which
 *   stays accurate near an early-exercise boundary where the value is not smooth in time.
 * - The known boundary value enters the tridiagonal solve once (it used to enter twice, which
 *   bent the value of deep in-the-money contracts near the grid's edge).
 */
import { bsmValuation } from "./bsm.ts";
import { DAYS_PER_YEAR, intrinsicValue, type OptionTerms } from "./contract.ts";

/** Grid size, and optionally the volatility that sizes the grid (default: the pricing volatility). */
export interface FdSettings {
  /** Space intervals of the log-price grid. */
  nodes: number;
  /** Time steps to expiry (the first one taken as two implicit half steps). */
  steps: number;
  /** Volatility the grid is sized for; fixing it keeps the grid still while the pricing volatility is bumped. */
  gridVol?: number;
}

/** What one grid solve gives: price, Delta, Gamma (per $), Theta per calendar day. */
export interface FdResult {
  price: number;
  delta: number;
  gamma: number;
  theta: number;
}

export const DEFAULT_FD: Readonly<FdSettings> = { nodes: 60, steps: 20 };

const WIDTH_SD = 4.5;
/** Length of the final time step, which gives Theta: six hours. */
const THETA_STEP_YEARS = 0.25 / 365;
// Scratch rows shared by every solve: the generator prices millions of contracts, one at a time.
let V = new Float64Array(0), G = new Float64Array(0), R = new Float64Array(0);
let INV = new Float64Array(0), MUL = new Float64Array(0);

function ensureCapacity(n: number): void {
  if (V.length >= n) return;
  [V, G, R, INV, MUL] = Array.from({ length: 5 }, () => new Float64Array(n));
}

/** Thomas factors of the constant tridiagonal [lower, diag, upper] over rows 1..n-1. */
function factor(lower: number, diag: number, upper: number, n: number, inv: Float64Array, mul: Float64Array): void {
  let d = diag;
  inv[1] = 1 / d;
  for (let j = 2; j < n; j++) {
    mul[j] = lower * inv[j - 1];
    d = diag - mul[j] * upper;
    inv[j] = 1 / d;
  }
}

/**
 * Price, Delta, Gamma and Theta of an option at volatility `vol` on a Crank-Nicolson grid;
 * American terms exercise early, European ones do not.
 *
 * @example
 * ```ts
 * const put = { call: false, american: true, spot: 100, strike: 100, years: 1, rate: 0.05, dividendYield: 0 };
 * fdSolve(put, 0.2).price; // 6.08 (the European put is 5.57)
 * ```
 */
export function fdSolve(t: OptionTerms, vol: number, settings: Readonly<FdSettings> = DEFAULT_FD): FdResult {
  const { spot, strike, years: T, rate: r, dividendYield: q, american } = t;
  if (!(T > 0) || !(vol > 0)) {
    const v = bsmValuation(t, 0);
    return { price: american ? Math.max(v.price, intrinsicValue(t)) : v.price, delta: v.delta, gamma: 0, theta: 0 };
  }
  const n = Math.max(8, settings.nodes | 0), steps = Math.max(3, settings.steps | 0);
  ensureCapacity(n + 1);
  const lnS = Math.log(spot), lnK = Math.log(strike);
  const width = WIDTH_SD * Math.max(settings.gridVol ?? vol, 0.02) * Math.sqrt(T);
  const lo = Math.min(lnS, lnK) - width, hi = Math.max(lnS, lnK) + width;
  const dx = (hi - lo) / n;
  // Nodes run towards the money: node 0 is far out of the money, node n far in it, so the
  // exercise region always sits at the top and one elimination direction serves both kinds.
  const dir = t.call ? 1 : -1, x0 = t.call ? lo : hi;
  const growth = Math.exp(dir * dx);
  let s = Math.exp(x0);
  for (let j = 0; j <= n; j++, s *= growth) {
    G[j] = Math.max(t.call ? s - strike : strike - s, 0);
    const x = x0 + dir * j * dx;
    V[j] = Math.abs(x - lnK) < dx / 2 ? cellAverage(t.call, x - dx / 2, x + dx / 2, strike, lnK, dx) : G[j];
  }
  const farS = Math.exp(x0 + dir * n * dx);
  const alpha = (vol * vol) / (2 * dx * dx), beta = (dir * (r - q - (vol * vol) / 2)) / (2 * dx);
  const a = alpha - beta, b = -2 * alpha - r, c = alpha + beta;
  const dt = T / steps;
  // The last interval ends with a short step, so Theta is the decay over its last few hours.
  const last = Math.min(THETA_STEP_YEARS, dt / 2);

  let factored = NaN;
  /** Advances V over `h` to time to expiry `tau`: implicit when `implicit`, else Crank-Nicolson. */
  const step = (h: number, tau: number, implicit: boolean) => {
    // The matrix is I - w L; an implicit half step and a Crank-Nicolson full step share it (Rannacher).
    const w = implicit ? h : h / 2, e = h - w;
    const upper = -w * c;
    if (w !== factored) {
      factor(-w * a, 1 - w * b, upper, n, INV, MUL);
      factored = w;
    }
    const qd = farS * Math.exp(-q * tau), rd = strike * Math.exp(-r * tau);
    const european = t.call ? qd - rd : rd - qd;
    const vn = american ? Math.max(european, G[n]) : Math.max(european, 0);
    // Right-hand side and forward elimination in one pass (V still holds the old level). The
    // known boundary value enters once, in the back substitution of row n-1.
    let prev = 0;
    for (let j = 1; j < n; j++) {
      let rj = V[j] + e * (a * V[j - 1] + b * V[j] + c * V[j + 1]);
      if (j > 1) rj -= MUL[j] * prev;
      R[j] = rj;
      prev = rj;
    }
    V[n] = vn;
    V[0] = 0;
    // Back substitution from the exercise side, projecting on the payoff (Brennan-Schwartz).
    let next = vn;
    for (let j = n - 1; j >= 1; j--) {
      let v = (R[j] - upper * next) * INV[j];
      if (american && v < G[j]) v = G[j];
      V[j] = v;
      next = v;
    }
  };
  step(dt / 2, dt / 2, true);
  step(dt / 2, dt, true);
  for (let k = 2; k < steps; k++) step(dt, k * dt, false);
  step(dt - last, T - last, false);
  const before = atSpot(lnS, x0, dir, dx, n, spot).value;
  step(last, T, false);
  const here = atSpot(lnS, x0, dir, dx, n, spot);
  const intrinsic = intrinsicValue(t);
  if (american && (here.value <= intrinsic || exercisedAt(lnS, x0, dir, dx, n))) {
    // At or beyond the exercise boundary the contract is worth its payoff whatever the volatility
    // or time: its Greeks are the payoff's (Delta +-1, no Gamma, no decay).
    return { price: intrinsic, delta: intrinsic > 0 ? dir : 0, gamma: 0, theta: 0 };
  }
  const slopes = secantGreeks(x0, dir, dx, n, spot);
  const theta = (before - here.value) / last / DAYS_PER_YEAR;
  return { price: american ? Math.max(here.value, intrinsic) : here.value, delta: slopes.delta, gamma: slopes.gamma, theta };
}

/** Whether the grid exercised both nodes either side of the spot (the projection set them to the payoff). */
function exercisedAt(lnS: number, x0: number, dir: number, dx: number, n: number): boolean {
  const j = Math.min(Math.max(Math.floor((dir * (lnS - x0)) / dx), 0), n - 1);
  return G[j] > 0 && V[j] === G[j] && V[j + 1] === G[j + 1];
}

/**
 * Delta and Gamma from the grid's secant slopes in price. Delta interpolates the slopes of the
 * two node intervals whose midpoints bracket the spot; Gamma interpolates the second divided
 * differences (changes of slope) at the two nodes that bracket it. Unlike the derivatives of an
 * interpolating cubic, these stay within the bounds the grid values obey: values convex in the
 * spot with slopes between the payoff's give 0 <= |Delta| <= 1 and Gamma >= 0, also where the
 * stencil touches the early-exercise boundary (where the value's second derivative jumps and a
 * cubic overshoots).
 */
function secantGreeks(x0: number, dir: number, dx: number, n: number, spot: number) {
  const p = (dir * (Math.log(spot) - x0)) / dx;
  const nodePrice = (j: number) => Math.exp(x0 + dir * j * dx);
  const mid = (j: number) => (nodePrice(j) + nodePrice(j + 1)) / 2;
  const slope = (j: number) => (V[j + 1] - V[j]) / (nodePrice(j + 1) - nodePrice(j));
  const curvature = (j: number) => (slope(j) - slope(j - 1)) / (mid(j) - mid(j - 1));
  const between = (x: number, a: number, b: number) => Math.min(Math.max((x - a) / (b - a), 0), 1);
  // Interval k-1..k and k..k+1 midpoints bracket the spot; nodes i and i+1 bracket it.
  const k = Math.min(Math.max(Math.round(p), 1), n - 1);
  const wd = between(spot, mid(k - 1), mid(k));
  const i = Math.min(Math.max(Math.floor(p), 1), n - 2);
  const wg = between(spot, nodePrice(i), nodePrice(i + 1));
  return { delta: slope(k - 1) + wd * (slope(k) - slope(k - 1)), gamma: curvature(i) + wg * (curvature(i + 1) - curvature(i)) };
}

/** Mean payoff over [xa, xb] in log-price: smooths the kink in the strike's cell. */
function cellAverage(call: boolean, xa: number, xb: number, strike: number, lnK: number, dx: number): number {
  if (call) {
    const m = Math.max(lnK, xa);
    return xb > m ? (Math.exp(xb) - Math.exp(m) - strike * (xb - m)) / dx : 0;
  }
  const m = Math.min(lnK, xb);
  return m > xa ? (strike * (m - xa) - (Math.exp(m) - Math.exp(xa))) / dx : 0;
}

/** Value, Delta and Gamma at the spot from the cubic through the four nearest nodes. */
function atSpot(lnS: number, x0: number, dir: number, dx: number, n: number, spot: number) {
  const p = (dir * (lnS - x0)) / dx;
  const i = Math.min(Math.max(Math.floor(p), 1), n - 2);
  const u = p - i;
  const [A, B, C, D] = [V[i - 1], V[i], V[i + 1], V[i + 2]];
  const value = -A * u * (u - 1) * (u - 2) / 6 + B * (u + 1) * (u - 1) * (u - 2) / 2 - C * (u + 1) * u * (u - 2) / 2 +
    D * (u + 1) * u * (u - 1) / 6;
  const du = -A * (3 * u * u - 6 * u + 2) / 6 + B * (3 * u * u - 4 * u - 1) / 2 - C * (3 * u * u - 2 * u - 2) / 2 + D * (3 * u * u - 1) / 6;
  const duu = -A * (u - 1) + B * (3 * u - 2) - C * (3 * u - 1) + D * u;
  const vx = (dir * du) / dx, vxx = duu / (dx * dx);
  return { value, delta: vx / spot, gamma: (vxx - vx) / (spot * spot) };
}
