/**
 * Gauss-Legendre quadrature on [-1, 1], the integration rule of the exercise-boundary solver
 * (exerciseBoundary.ts) and of the early-exercise premium (americanIntegral.ts): n points
 * integrate polynomials of degree 2n - 1 exactly, and the integrands there are smooth once the
 * square-root singularity at the near end is mapped away.
 */

/** Points and weights of one rule, points ascending. */
export interface QuadratureRule {
  points: Float64Array;
  weights: Float64Array;
}

import { sinCos } from "./trig.ts";

const RULES = new Map<number, QuadratureRule>();

/**
 * The `n`-point Gauss-Legendre rule on [-1, 1] (computed once per `n`, by Newton's method on
 * the Legendre polynomial from Chebyshev-like first guesses).
 *
 * @example
 * ```ts
 * const { points, weights } = gaussLegendre(3);
 * // points -0.7746, 0, 0.7746; weights 5/9, 8/9, 5/9
 * ```
 */
export function gaussLegendre(n: number): QuadratureRule {
  const known = RULES.get(n);
  if (known) return known;
  if (!(Number.isInteger(n) && n >= 1)) {
    throw new RangeError(`A Gauss-Legendre rule needs a whole number of points of at least 1, got ${n}`);
  }
  const points = new Float64Array(n), weights = new Float64Array(n);
  for (let i = 0; i < Math.ceil(n / 2); i++) {
    let x = sinCos((Math.PI * (i + 0.75)) / (n + 0.5)).cos; // not Math.cos: the same first guess, so the same point, in every runtime
    let derivative = 0;
    for (let iteration = 0; iteration < 100; iteration++) {
      // Legendre P_n(x) and its derivative by the three-term recurrence.
      let p0 = 1, p1 = x;
      for (let k = 2; k <= n; k++) [p0, p1] = [p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k];
      derivative = (n * (x * p1 - p0)) / (x * x - 1);
      const dx = p1 / derivative;
      x -= dx;
      if (Math.abs(dx) < 1e-16) break;
    }
    const w = 2 / ((1 - x * x) * derivative * derivative);
    points[i] = -x;
    points[n - 1 - i] = x;
    weights[i] = weights[n - 1 - i] = w;
  }
  const rule = { points, weights };
  RULES.set(n, rule);
  return rule;
}
