/**
 * End-of-day analytics of one root's contracts, the way a vendor computes them from the last
 * mid: solve each contract's implied volatility with its style's model, then judge it.
 * - computed: the solver converged and the mid pins the volatility down (Vega is not tiny);
 * - interpolated: the mid has no implied volatility (below intrinsic value, above the upper
 *   bound) or barely depends on it (tiny Vega, far from the money), but nearby contracts of the
 *   same expiry do: linear in log-strike between computed strikes of its type either side, or,
 *   for an in-the-money contract at the edge of the chain, its out-of-the-money twin's;
 * - not converged: neither, so no volatility, price or Greeks are reported.
 * The theoretical price and Greeks come from the same model at the reported volatility.
 */
import { bsmPrice, bsmValuation } from "./bsm.ts";
import { intrinsicValue, type OptionTerms, type Valuation } from "./contract.ts";
import { bsmImpliedVol, priceBounds, solveImpliedVol } from "./impliedVol.ts";
import { MARKET_BOUNDARY } from "./exerciseBoundary.ts";
import { type ModelResult, modelSolve, modelValuation } from "./valuation.ts";

type Convergence = "computed" | "interpolated" | "not converged";

/** A 1-point volatility move must change the price by at least this much for the mid to pin the volatility. */
export const MIN_VEGA_PER_POINT = 0.001;

/** A solve that has not converged in this many grid solves is given up (the mid barely depends on volatility). */
const MAX_EVALUATIONS = 12;
/** Converged when the model reprices the mid this closely (plus 1e-7 of it): a 0.05 vol point error where Vega is at its smallest computed ($0.001 a point) is $0.00005. */
export const PRICE_TOLERANCE = 2e-6;

/** One contract to value: its terms, its mid, and the model price it was quoted around. */
export interface PricingInput {
  terms: OptionTerms;
  mid: number;
  /** Model solve at the surface volatility: its early-exercise premium seeds the solver, which reuses it. */
  fair: ModelResult;
  /** Surface volatility the quote was made at. */
  surfaceVol: number;
}

export interface PricingOutput {
  vol: number;
  status: Convergence;
  valuation: Valuation | undefined;
}

/**
 * Implied volatility, status, theoretical price and Greeks of every contract of one expiry,
 * in the order given.
 *
 * @example
 * ```ts
 * const out = priceExpiry(inputs); // inputs: one expiry's calls and puts
 * out[0].status; // "computed"
 * ```
 */
export function priceExpiry(inputs: readonly PricingInput[]): PricingOutput[] {
  const out: PricingOutput[] = inputs.map(solveOne);
  const computed = (i: number) => out[i].status === "computed";
  for (const [i, input] of inputs.entries()) {
    if (computed(i)) continue;
    const vol = fromNeighbours(inputs, i, computed, out);
    out[i] = Number.isNaN(vol)
      ? { vol: NaN, status: "not converged", valuation: undefined }
      : { vol, status: "interpolated", valuation: modelValuation(input.terms, vol) };
  }
  return out;
}

function solveOne(input: PricingInput): PricingOutput {
  const { terms, mid, surfaceVol } = input;
  const failed: PricingOutput = { vol: NaN, status: "not converged", valuation: undefined };
  const { lower, upper } = priceBounds(terms);
  if (!(mid > lower + 1e-9 && mid < upper)) return failed;
  const solved = terms.american ? solveAmerican(input) : { vol: bsmImpliedVol(terms, mid, surfaceVol), converged: true, at: undefined };
  if (!solved.converged || Number.isNaN(solved.vol)) return failed;
  const valuation = modelValuation(terms, solved.vol, solved.at);
  if (valuation.vega < MIN_VEGA_PER_POINT) return { ...failed, vol: solved.vol };
  return { vol: solved.vol, status: "computed", valuation };
}

/**
 * The grid model's implied volatility. The model price at the surface volatility (what the
 * quote was made around, as a vendor would start from yesterday's fit) is known already; the
 * first step removes its early-exercise premium from the mid and inverts the closed form,
 * which lands within a hair of the answer, and Newton-secant steps on the grid finish it.
 */
function solveAmerican({ terms, mid, fair, surfaceVol }: PricingInput) {
  const tolerance = PRICE_TOLERANCE + 1e-7 * mid;
  if (Math.abs(fair.price - mid) <= tolerance) return { vol: surfaceVol, converged: true, at: fair };
  const guess = bsmImpliedVol(terms, mid - (fair.price - bsmPrice(terms, surfaceVol)), surfaceVol);
  // Each try's boundary solve starts from the last one's (the fair value's first).
  let last = fair.boundary;
  const evaluate = (v: number) => {
    // The price only: the Greeks are taken once, at the answer (modelValuation).
    const solved = modelSolve(terms, v, MARKET_BOUNDARY, last ? { x: last } : undefined, false);
    last = solved.boundary ?? last;
    return solved;
  };
  return solveImpliedVol(evaluate, mid, {
    guess: Number.isNaN(guess) ? surfaceVol : guess,
    atGuess: Number.isNaN(guess) ? fair : undefined,
    // The first Newton step takes the secant from the quote's volatility: it includes the
    // premium's own sensitivity, which the closed-form Vega lacks.
    known: Number.isNaN(guess) ? undefined : { vol: surfaceVol, price: fair.price },
    slope: (v) => bsmValuation(terms, v).vega * 100,
    tolerance,
    maxEvaluations: MAX_EVALUATIONS,
  });
}

/** Volatility for contract `i` from computed contracts of its expiry, or NaN when there are none to use. */
function fromNeighbours(
  inputs: readonly PricingInput[],
  i: number,
  computed: (j: number) => boolean,
  out: readonly PricingOutput[],
): number {
  const me = inputs[i].terms;
  let below = -1, above = -1;
  for (const [j, other] of inputs.entries()) {
    if (!computed(j) || other.terms.call !== me.call) continue;
    if (other.terms.strike < me.strike && (below < 0 || other.terms.strike > inputs[below].terms.strike)) below = j;
    if (other.terms.strike > me.strike && (above < 0 || other.terms.strike < inputs[above].terms.strike)) above = j;
  }
  if (below >= 0 && above >= 0) {
    const x0 = Math.log(inputs[below].terms.strike), x1 = Math.log(inputs[above].terms.strike);
    const w = (Math.log(me.strike) - x0) / (x1 - x0);
    return out[below].vol + w * (out[above].vol - out[below].vol);
  }
  // An in-the-money contract at the edge of the chain borrows from its out-of-the-money twin,
  // whose price carries the volatility information its own (mostly intrinsic) price lacks.
  if (intrinsicValue(me) <= 0) return NaN;
  const twin = inputs.findIndex((o, j) => computed(j) && o.terms.call !== me.call && o.terms.strike === me.strike);
  return twin >= 0 ? out[twin].vol : NaN;
}
