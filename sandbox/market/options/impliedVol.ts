/**
 * Implied volatility: the volatility at which a model prices an option at a given mid. The
 * solver works for any model whose price rises with volatility (closed form or grid): Newton
 * steps, with a slope hint at first (the closed-form vega) and secant slopes after, kept inside
 * a bracket that shrinks as evaluations land above or below the target; a step that would leave
 * the bracket bisects it instead. No-arbitrage bounds are checked first, because a mid outside
 * them has no implied volatility at all.
 */
import { bsmPrice, bsmValuation } from "./bsm.ts";
import { intrinsicValue, type OptionTerms } from "./contract.ts";

const VOL_MIN = 0.005;
const VOL_MAX = 5;

export interface SolveOptions {
  /** Where to start; defaults to 0.3. */
  guess?: number;
  /** The model's output at `guess`, when the caller has it already (saves one evaluation). */
  atGuess?: { price: number };
  /** A model price known at another volatility (the quote's), the first secant's other end. */
  known?: { vol: number; price: number };
  /** Price change per unit of volatility near `vol` (used until two evaluations give a secant). */
  slope?: (vol: number) => number;
  /** Converged when the model price is this close to the target (dollars). */
  tolerance?: number;
  maxEvaluations?: number;
}

/** The solver's answer, with the model's output at the last volatility it tried. */
export interface Solved<T> {
  vol: number;
  converged: boolean;
  evaluations: number;
  at: T | undefined;
}

/**
 * Solves `evaluate(vol).price = target` for vol in [VOL_MIN, VOL_MAX].
 *
 * @example
 * ```ts
 * const terms = { call: true, american: false, spot: 100, strike: 105, years: 0.25, rate: 0.05, dividendYield: 0 };
 * const s = solveImpliedVol((v) => ({ price: bsmPrice(terms, v) }), 3.0, { guess: 0.2 });
 * s.vol; // 0.22727...
 * ```
 */
export function solveImpliedVol<T extends { price: number }>(
  evaluate: (vol: number) => T,
  target: number,
  options: SolveOptions = {},
): Solved<T> {
  const tolerance = options.tolerance ?? Math.max(1e-6, 1e-7 * target);
  const maxEvaluations = options.maxEvaluations ?? 30;
  let lo = VOL_MIN, hi = VOL_MAX;
  let vol = Math.min(Math.max(options.guess ?? 0.3, lo * 2), hi / 2);
  let previous: { vol: number; diff: number } | undefined = options.known && { vol: options.known.vol, diff: options.known.price - target };
  let at: T | undefined;
  for (let k = 1; k <= maxEvaluations; k++) {
    at = k === 1 && options.atGuess && vol === options.guess ? options.atGuess as T : evaluate(vol);
    const diff = at.price - target;
    if (Math.abs(diff) <= tolerance) return { vol, converged: true, evaluations: k, at };
    if (diff > 0) hi = vol;
    else lo = vol;
    if (hi - lo < 1e-9) break;
    const slope = previous && previous.vol !== vol ? (diff - previous.diff) / (vol - previous.vol) : options.slope?.(vol) ?? NaN;
    previous = { vol, diff };
    const newton = slope > 0 ? vol - diff / slope : NaN;
    // Bisect in log-volatility when Newton would leave the bracket (or has no usable slope).
    vol = newton > lo && newton < hi ? newton : Math.sqrt(lo * hi);
  }
  return { vol, converged: false, evaluations: maxEvaluations, at };
}

/**
 * The range an option's price must lie strictly inside to have an implied volatility: above
 * what it is worth at zero volatility (intrinsic value for an American option), below what it
 * is worth at infinite volatility.
 *
 * @example
 * ```ts
 * priceBounds({ call: false, american: true, spot: 90, strike: 100, years: 0.5, rate: 0.05, dividendYield: 0 });
 * // { lower: 10, upper: 100 }
 * ```
 */
export function priceBounds(t: OptionTerms): { lower: number; upper: number } {
  const european = bsmPrice(t, 0);
  if (t.american) return { lower: Math.max(european, intrinsicValue(t)), upper: t.call ? t.spot : t.strike };
  return { lower: european, upper: t.call ? t.spot * Math.exp(-t.dividendYield * t.years) : t.strike * Math.exp(-t.rate * t.years) };
}

/**
 * The closed-form (European) implied volatility of a price, or NaN when it has none.
 *
 * @example
 * ```ts
 * bsmImpliedVol({ call: true, american: false, spot: 42, strike: 40, years: 0.5, rate: 0.1, dividendYield: 0 }, 4.7594);
 * // 0.19999...
 * ```
 */
export function bsmImpliedVol(t: OptionTerms, price: number, guess = 0.3): number {
  const european = { ...t, american: false };
  const { lower, upper } = priceBounds(european);
  if (!(price > lower && price < upper)) return NaN;
  const s = solveImpliedVol((v) => ({ price: bsmPrice(european, v) }), price, {
    guess,
    slope: (v) => bsmValuation(european, v).vega * 100,
    tolerance: 1e-10 * Math.max(1, price),
  });
  return s.converged ? s.vol : NaN;
}
