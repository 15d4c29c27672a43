/**
 * Sine and cosine rounded correctly, the same in every JavaScript runtime. `Math.sin` and
 * `Math.cos` are not: Deno's V8 takes them from glibc (`use_libm_trig_functions`), Node 20's
 * from fdlibm, and about 3% of arguments come out a last bit apart, which the American
 * pricer's quadrature nodes carried into every option value. Here the argument is reduced by a three-part pi / 2
 * and the Taylor series summed in double-double arithmetic (about 32 digits), so the one
 * rounding at the end is the correct one; only +, -, * and /, which IEEE 754 defines to the
 * bit, are used. For tables built once (quadrature nodes, Chebyshev points), not hot loops.
 */

/** pi / 2 in three parts whose sum is exact to about 1e-49. */
const PIO2 = [1.5707963267948966, 6.123233995736766e-17, -1.4973849048591698e-33] as const;

type DD = [number, number];

function twoSum(a: number, b: number): DD {
  const s = a + b, bb = s - a;
  return [s, (a - (s - bb)) + (b - bb)];
}

function fastTwoSum(a: number, b: number): DD {
  const s = a + b;
  return [s, b - (s - a)];
}

/** Dekker's split of a double into two 26-bit halves. */
function split(a: number): DD {
  const t = 134217729 * a, hi = t - (t - a);
  return [hi, a - hi];
}

/** a * b exactly, as a double-double (no fused multiply-add in JavaScript). */
function twoProd(a: number, b: number): DD {
  const p = a * b, [ah, al] = split(a), [bh, bl] = split(b);
  return [p, ((ah * bh - p) + ah * bl + al * bh) + al * bl];
}

function add(a: DD, b: DD): DD {
  const [s, e] = twoSum(a[0], b[0]);
  return fastTwoSum(s, e + a[1] + b[1]);
}

function mul(a: DD, b: DD): DD {
  const [p, e] = twoProd(a[0], b[0]);
  return fastTwoSum(p, e + a[0] * b[1] + a[1] * b[0]);
}

/** a / n for a small whole number n. */
function divide(a: DD, n: number): DD {
  const q1 = a[0] / n, [p, e] = twoProd(q1, n);
  const q2 = (a[0] - p - e + a[1]) / n;
  return fastTwoSum(q1, q2);
}

/** Terms of the series: (pi / 4)^29 / 29! is below 1e-31 of the sum. */
const TERMS = 14;

/** sin and cos of |r| <= pi / 4 given as a double-double, each a double-double. */
function series(r: DD): { sin: DD; cos: DD } {
  const r2 = mul(r, r);
  let sin: DD = r, cos: DD = [1, 0], odd: DD = r, even: DD = [1, 0];
  for (let k = 1; k <= TERMS; k++) {
    odd = divide(mul(odd, r2), -(2 * k) * (2 * k + 1));
    even = divide(mul(even, r2), -(2 * k - 1) * (2 * k));
    sin = add(sin, odd);
    cos = add(cos, even);
  }
  return { sin, cos };
}

/**
 * sin(x) and cos(x), each correctly rounded, for |x| up to about 1e6 (the reduction's pi / 2
 * runs out of digits beyond).
 *
 * @example
 * ```ts
 * sinCos(Math.PI / 6).sin; // 0.49999999999999994 (the double nearest sin of the double nearest pi / 6)
 * ```
 */
export function sinCos(x: number): { sin: number; cos: number } {
  if (!(Math.abs(x) <= 1e6)) throw new RangeError(`sinCos takes |x| up to 1e6, got ${x}`);
  const k = Math.round(x / PIO2[0]);
  // x - k pi / 2: k * PIO2[0] and k * PIO2[1] exact as double-doubles.
  let r = add([x, 0], twoProd(-k, PIO2[0]));
  r = add(r, twoProd(-k, PIO2[1]));
  r = add(r, [-k * PIO2[2], 0]);
  const { sin, cos } = series(r);
  const s = sin[0] + sin[1], c = cos[0] + cos[1];
  switch (((k % 4) + 4) % 4) {
    case 0:
      return { sin: s, cos: c };
    case 1:
      return { sin: c, cos: -s };
    case 2:
      return { sin: -s, cos: -c };
    default:
      return { sin: -c, cos: s };
  }
}
