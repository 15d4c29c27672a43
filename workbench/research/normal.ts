/**
 * The standard normal distribution to double precision, for Black-Scholes-Merton values and
 * the solvers that invert them: Hart's 1968 rational approximation as West arranged it
 * ("Better approximations to cumulative normal functions", Wilmott Magazine, 2005), accurate
 * to about 1e-14. (The sandbox has its own copy: the workbench may not import the sandbox.)
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
 * Cumulative distribution of the standard normal at `x`, N(x).
 *
 * @example
 * ```ts
 * normalCdf(1); // 0.8413447460685429
 * ```
 */
export function normalCdf(x: number): number {
  const z = Math.abs(x);
  let tail = 0;
  if (z <= 37) {
    const e = Math.exp(-0.5 * z * z);
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
      let c = z + 0.65;
      c = z + 4 / c;
      c = z + 3 / c;
      c = z + 2 / c;
      c = z + 1 / c;
      tail = e / c / SQRT_2PI;
    }
  }
  return x > 0 ? 1 - tail : tail;
}
