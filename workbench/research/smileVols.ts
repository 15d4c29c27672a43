/**
 * Points of one expiry's smile: the at-the-money-forward vol and the 50-delta vol.
 *
 * - The smile is the out-of-the-money side of each strike: puts below the forward, calls at and
 *   above it, with vols the dataset's model computed from the contract's own mid (the liquid
 *   side; deep in-the-money prices are mostly intrinsic value).
 * - ATM-forward vol: the smile at K = F, linear in log-moneyness ln(K/F) between the two
 *   strikes around the forward (Hull, ch. 20, "volatility smiles" in moneyness).
 * - 50-delta vol: the smile where a call's forward delta N(d1) is 0.5, linear in delta between
 *   the two strikes around it; each strike's delta is taken at its own vol (the convention of
 *   delta-quoted smiles: Reiswich and Wystup 2010; OptionMetrics IvyDB's volatility surface
 *   interpolates by delta the same way).
 */
import { forwardCallDelta } from "./blackScholes.ts";
import type { ChainContract } from "./optionChains.ts";

/** A strike and its implied vol (per √year). */
export interface SmilePoint {
  /** Strike, $. */
  strike: number;
  /** Implied vol per √year (0.2 is 20%). */
  vol: number;
}

/**
 * The out-of-the-money smile of a chain around `forward`: puts with K < F, calls with K ≥ F,
 * computed vols only, by strike.
 *
 * @example
 * ```ts
 * otmSmile([{ call: false, strike: 95, mid: 1, vol: 0.25, computed: true }, { call: true, strike: 95, mid: 7, vol: 0.3, computed: true }], 100); // [{ strike: 95, vol: 0.25 }]
 * ```
 */
export function otmSmile(contracts: ChainContract[], forward: number): SmilePoint[] {
  return contracts.filter((c) => c.computed && c.vol !== null && (c.call ? c.strike >= forward : c.strike < forward))
    .map((c) => ({ strike: c.strike, vol: c.vol! }))
    .sort((a, b) => a.strike - b.strike);
}

/** Linear interpolation of y at x between (x1, y1) and (x2, y2). */
const between = (
  x: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
) => (x1 === x2 ? (y1 + y2) / 2 : y1 + ((y2 - y1) * (x - x1)) / (x2 - x1));

/**
 * The smile's vol at the forward, linear in ln(K/F) between the strikes around it; null when
 * the forward lies outside the smile's strikes.
 *
 * @example
 * ```ts
 * atmForwardVol([{ strike: 100, vol: 0.25 }, { strike: 105, vol: 0.22 }], 102); // 0.237824...
 * ```
 */
export function atmForwardVol(smile: SmilePoint[], forward: number): number | null {
  for (let i = 0; i + 1 < smile.length; i++) {
    const [a, b] = [smile[i], smile[i + 1]];
    if (a.strike <= forward && forward <= b.strike) {
      return between(0, Math.log(a.strike / forward), a.vol, Math.log(b.strike / forward), b.vol);
    }
  }
  const exact = smile.find((p) => p.strike === forward);
  return exact ? exact.vol : null;
}

/**
 * The smile's vol where a call's forward delta is 0.5, linear in delta between the strikes
 * around it (nearest the forward when the smile crosses 0.5 more than once); null when no
 * two strikes straddle it.
 *
 * @example
 * ```ts
 * fiftyDeltaVol([{ strike: 100, vol: 0.2 }, { strike: 104, vol: 0.19 }], 100, 1); // 0.19527: deltas 0.5398 and 0.4556 straddle 0.5
 * ```
 */
export function fiftyDeltaVol(smile: SmilePoint[], forward: number, years: number): number | null {
  const deltas = smile.map((p) => forwardCallDelta(forward, p.strike, years, p.vol));
  let best: number | null = null, bestDistance = Infinity;
  for (let i = 0; i + 1 < smile.length; i++) {
    const [d1, d2] = [deltas[i], deltas[i + 1]];
    if ((d1 - 0.5) * (d2 - 0.5) > 0) continue;
    const distance = Math.abs(Math.log((smile[i].strike + smile[i + 1].strike) / 2 / forward));
    if (distance < bestDistance) {
      bestDistance = distance;
      best = between(0.5, d1, smile[i].vol, d2, smile[i + 1].vol);
    }
  }
  return best;
}

/**
 * The "at the money" of a strike table: the mean of the call's and put's vols at the strike
 * nearest the spot (any vol the dataset gives). Kept to show how far it is from the forward's.
 *
 * @example
 * ```ts
 * nearestSpotStrikeVol([{ call: true, strike: 100, mid: 3, vol: 0.2, computed: true }, { call: false, strike: 100, mid: 2, vol: 0.22, computed: true }], 101); // 0.21
 * ```
 */
export function nearestSpotStrikeVol(contracts: ChainContract[], spot: number): number | null {
  const withVol = contracts.filter((c) => c.vol !== null);
  if (withVol.length === 0) return null;
  const gap = Math.min(...withVol.map((c) => Math.abs(c.strike - spot)));
  const at = withVol.filter((c) => Math.abs(c.strike - spot) === gap);
  return at.reduce((s, c) => s + c.vol!, 0) / at.length;
}
