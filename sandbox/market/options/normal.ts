/**
 * The standard normal distribution to double precision, for the closed-form pricer. Hart's
 * 1968 rational approximation in West's arrangement ("Better approximations to cumulative
 * normal functions", 2005) is accurate to about 1e-14 everywhere, which the implied-vol solver
 * needs: a cruder 1e-7 approximation would move far out-of-the-money prices by whole percents.
 */

const SQRT_2PI = 2.5066282746310002;

/**
 * Density of the standard normal at `x`.
 *
 * @example
 * ```ts
 * normalPdf(0); // 0.3989422804014327
 * ```
 */
export function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / SQRT_2PI;
}

/**
 * Cumulative distribution of the standard normal at `x`.
 *
 * @example
 * ```ts
 * normalCdf(1); // 0.8413447460685429
 * normalCdf(-5); // 2.866515718791939e-7
 * ```
 */
export function normalCdf(x: number): number {
  const z = Math.abs(x);
  return cdfWithTail(x, z > 37 ? 0 : Math.exp(-0.5 * z * z));
}

/**
 * Cumulative distribution of the standard normal at `x` when its density there is known already
 * (saves the exponential; the boundary and premium integrals evaluate both at every point).
 *
 * @example
 * ```ts
 * normalCdfGivenDensity(1, normalPdf(1)); // 0.8413447460685429, as normalCdf(1) to the last digit or two
 * ```
 */
export function normalCdfGivenDensity(x: number, density: number): number {
  return cdfWithTail(x, Math.abs(x) > 37 ? 0 : density * SQRT_2PI);
}

/** The cdf from e = exp(-x^2 / 2). */
function cdfWithTail(x: number, e: number): number {
  const z = Math.abs(x);
  let tail: number;
  if (z > 37) {
    tail = 0;
  } else {
    if (z < 7.07106781186547) {
      let n = 3.52624965998911e-2 * z + 0.700383064443688;
      n = n * z + 6.37396220353165;
      n = n * z + 33.912866078383;
      n = n * z + 112.079291497871;
      n = n * z + 221.213596169931;
      n = n * z + 220.206867912376;
      let d = 8.83883476483184e-2 * z + 1.75566716318264;
      d = d * z + 16.064177579207;
      d = d * z + 86.7807322029461;
      d = d * z + 296.564248779674;
      d = d * z + 637.333633378831;
      d = d * z + 793.826512519948;
      d = d * z + 440.413735824752;
      tail = (e * n) / d;
    } else {
      // Continued fraction for the far tail.
      let d = z + 0.65;
      d = z + 4 / d;
      d = z + 3 / d;
      d = z + 2 / d;
      d = z + 1 / d;
      tail = e / d / SQRT_2PI;
    }
  }
  return x > 0 ? 1 - tail : tail;
}
