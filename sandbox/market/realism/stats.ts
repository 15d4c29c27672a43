/**
 * Small statistics over plain number arrays, for the stylized facts of realism/ (moments,
 * correlations, autocorrelation, quantiles). NaN entries are skipped pairwise.
 */

/** Mean of the finite values; NaN when there are none. */
export function mean(xs: ArrayLike<number>): number {
  let s = 0, n = 0;
  for (let i = 0; i < xs.length; i++) {
    if (Number.isFinite(xs[i])) {
      s += xs[i];
      n++;
    }
  }
  return n ? s / n : NaN;
}

/**
 * Sample standard deviation of the finite values.
 *
 * @example
 * ```ts
 * sd([1, 2, 3, 4]); // 1.29
 * ```
 */
export function sd(xs: ArrayLike<number>): number {
  const m = mean(xs);
  let s = 0, n = 0;
  for (let i = 0; i < xs.length; i++) {
    if (Number.isFinite(xs[i])) {
      s += (xs[i] - m) ** 2;
      n++;
    }
  }
  return n > 1 ? Math.sqrt(s / (n - 1)) : NaN;
}

/**
 * Excess kurtosis (0 for a normal distribution) of the finite values.
 *
 * @example
 * ```ts
 * excessKurtosis([-1, 1, -1, 1]); // -2
 * ```
 */
export function excessKurtosis(xs: ArrayLike<number>): number {
  const m = mean(xs);
  let m2 = 0, m4 = 0, n = 0;
  for (let i = 0; i < xs.length; i++) {
    if (!Number.isFinite(xs[i])) continue;
    const d = (xs[i] - m) ** 2;
    m2 += d;
    m4 += d * d;
    n++;
  }
  return n > 3 && m2 > 0 ? (n * m4) / (m2 * m2) - 3 : NaN;
}

/**
 * Pearson correlation of the pairs where both values are finite.
 *
 * @example
 * ```ts
 * correlation([1, 2, 3], [2, 4, 7]); // 0.99
 * ```
 */
export function correlation(xs: ArrayLike<number>, ys: ArrayLike<number>): number {
  let sx = 0, sy = 0, n = 0;
  const len = Math.min(xs.length, ys.length);
  for (let i = 0; i < len; i++) {
    if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) {
      sx += xs[i];
      sy += ys[i];
      n++;
    }
  }
  if (n < 3) return NaN;
  const mx = sx / n, my = sy / n;
  let cxy = 0, cxx = 0, cyy = 0;
  for (let i = 0; i < len; i++) {
    if (!(Number.isFinite(xs[i]) && Number.isFinite(ys[i]))) continue;
    cxy += (xs[i] - mx) * (ys[i] - my);
    cxx += (xs[i] - mx) ** 2;
    cyy += (ys[i] - my) ** 2;
  }
  return cxx > 0 && cyy > 0 ? cxy / Math.sqrt(cxx * cyy) : NaN;
}

/**
 * Autocorrelation at `lag` within each series, pooled over series (pairs never span two series).
 *
 * @example
 * ```ts
 * pooledAutocorrelation([[1, 2, 3, 4], [4, 3, 2, 1]], 1);
 * ```
 */
export function pooledAutocorrelation(series: readonly ArrayLike<number>[], lag = 1): number {
  const xs: number[] = [], ys: number[] = [];
  const all: number[] = [];
  for (const s of series) for (let i = 0; i < s.length; i++) all.push(s[i]);
  const m = mean(all);
  for (const s of series) {
    for (let i = lag; i < s.length; i++) {
      xs.push(s[i - lag] - m);
      ys.push(s[i] - m);
    }
  }
  let num = 0, n = 0;
  for (let i = 0; i < xs.length; i++) {
    if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) {
      num += xs[i] * ys[i];
      n++;
    }
  }
  let den = 0, k = 0;
  for (const v of all) {
    if (Number.isFinite(v)) {
      den += (v - m) ** 2;
      k++;
    }
  }
  return n > 2 && den > 0 ? (num / n) / (den / k) : NaN;
}

/** The q-quantile (0..1) of the finite values, by linear interpolation. */
export function quantile(xs: ArrayLike<number>, q: number): number {
  const v = Array.from(xs).filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const pos = q * (v.length - 1), lo = Math.floor(pos);
  return v[lo] + (v[Math.min(lo + 1, v.length - 1)] - v[lo]) * (pos - lo);
}

/** Residuals of y regressed on x (with intercept); NaN where either is missing. */
export function residuals(ys: ArrayLike<number>, xs: ArrayLike<number>): Float64Array {
  const mx = mean(xs), my = mean(ys);
  let cxy = 0, cxx = 0;
  for (let i = 0; i < ys.length; i++) {
    if (!(Number.isFinite(xs[i]) && Number.isFinite(ys[i]))) continue;
    cxy += (xs[i] - mx) * (ys[i] - my);
    cxx += (xs[i] - mx) ** 2;
  }
  const b = cxx > 0 ? cxy / cxx : 0;
  return Float64Array.from({ length: ys.length }, (_, i) => ys[i] - my - b * (xs[i] - mx));
}
