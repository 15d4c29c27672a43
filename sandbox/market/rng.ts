/**
 * Seeded pseudo-random numbers for the synthetic market.
 *
 * Every security-day draws from its own stream, derived from (seed, labels), so the data of
 * one day never depends on the order in which days are generated: the same seed always gives
 * the same files, and profiles that share days share their data.
 */

/** FNV-1a over a string, folded into a 32-bit unsigned integer. */
function hashString(text: string, basis = 0x811c9dc5): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A small fast generator (sfc32) with the distributions the market needs.
 *
 * @example
 * ```ts
 * const rng = Rng.for(42, "AAPL", "2023-11-21");
 * const u = rng.uniform();      // [0, 1)
 * const z = rng.normal();       // standard normal
 * ```
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | undefined;

  private constructor(a: number, b: number, c: number, d: number) {
    this.a = a >>> 0;
    this.b = b >>> 0;
    this.c = c >>> 0;
    this.d = d >>> 0;
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** A stream for a seed and any labels (ticker, date, purpose). */
  static for(seed: number, ...labels: string[]): Rng {
    const key = `${seed}|${labels.join("|")}`;
    return new Rng(hashString(key), hashString(key, 0x9e3779b9), hashString(key, 0x85ebca6b), seed >>> 0);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform on [0, 1). */
  uniform(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer on [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.uniform() * (hi - lo + 1));
  }

  /** Standard normal (Marsaglia polar method). */
  normal(): number {
    if (this.spareNormal !== undefined) {
      const z = this.spareNormal;
      this.spareNormal = undefined;
      return z;
    }
    let u: number, v: number, s: number;
    do {
      u = 2 * this.uniform() - 1;
      v = 2 * this.uniform() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * f;
    return u * f;
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    return -Math.log(1 - this.uniform()) * mean;
  }

  /**
   * Poisson count; exact inversion for small means, normal approximation for large ones.
   * `limit` is exp(-mean), for a caller drawing many counts of one mean to compute once.
   */
  poisson(mean: number, limit: number = Math.exp(-mean)): number {
    if (mean <= 0) return 0;
    if (mean > 60) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    let k = 0;
    let p = this.uniform();
    while (p > limit) {
      k++;
      p *= this.uniform();
    }
    return k;
  }

  /** Gamma-distributed multiplier with mean 1 and the given shape (Marsaglia-Tsang). */
  gammaUnitMean(shape: number): number {
    if (shape < 1) return (this.gammaUnitMean(shape + 1) * Math.pow(this.uniform(), 1 / shape) * (shape + 1)) / shape;
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number, v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = this.uniform();
      if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) {
        return (d * v) / shape;
      }
    }
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.uniform() < p;
  }
}
