/** Where prints and quotes come from: exchange weights for continuous trading. */
import { Rng } from "../rng.ts";
import { EXCHANGES } from "./tickColumns.ts";

const CODE = (c: (typeof EXCHANGES)[number]) => EXCHANGES.indexOf(c);

/** Exchange shares of on-exchange volume in regular hours (the listing market gets a bonus). */
const REGULAR_WEIGHTS: [number, number][] = [
  [CODE("Q"), 0.16],
  [CODE("N"), 0.1],
  [CODE("P"), 0.1],
  [CODE("Z"), 0.1],
  [CODE("K"), 0.1],
  [CODE("V"), 0.05],
  [CODE("U"), 0.07],
  [CODE("H"), 0.04],
  [CODE("J"), 0.03],
  [CODE("Y"), 0.03],
];
/** Only these markets run early and late sessions. */
const EXTENDED_WEIGHTS: [number, number][] = [[CODE("P"), 0.35], [CODE("Q"), 0.35], [CODE("K"), 0.15], [CODE("Z"), 0.15]];

const totalWeight = (weights: [number, number][]) => weights.reduce((sum, [, w]) => sum + w, 0);
// Summed once: every quote and print draws an exchange.
const REGULAR_TOTAL = totalWeight(REGULAR_WEIGHTS), EXTENDED_TOTAL = totalWeight(EXTENDED_WEIGHTS);

/** Draws an exchange code for an on-exchange print or quote. */
export function drawExchange(rng: Rng, listing: number, extendedHours: boolean): number {
  const weights = extendedHours ? EXTENDED_WEIGHTS : REGULAR_WEIGHTS;
  const listingBonus = extendedHours ? 0 : 0.22;
  let u = rng.uniform() * ((extendedHours ? EXTENDED_TOTAL : REGULAR_TOTAL) + listingBonus);
  if (u < listingBonus) return listing;
  u -= listingBonus;
  for (let k = 0; k < weights.length; k++) {
    const w = weights[k][1];
    if (u < w) return weights[k][0];
    u -= w;
  }
  return weights[0][0];
}
