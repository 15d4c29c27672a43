/**
 * Sizes of individual prints before scaling: about half odd lots (retail and algorithmic
 * slices), mostly single round lots, some multi-lot prints and rare blocks, as in
 * consolidated tape statistics of large US stocks.
 */
import { Rng } from "../rng.ts";

/** Shares of one print at real scale. */
export function drawBaseTradeSize(rng: Rng): number {
  const u = rng.uniform();
  if (u < 0.55) {
    const v = rng.uniform();
    return 1 + Math.floor(99 * v * v);
  }
  if (u < 0.95) return 100 * (1 + Math.floor(rng.exponential(1.4427)));
  if (u < 0.998) return 100 * rng.int(5, 20);
  return 100 * rng.int(50, 200);
}

/** Mean of drawBaseTradeSize, measured once from a fixed stream so it is the same everywhere. */
export const MEAN_BASE_TRADE_SIZE = (() => {
  const rng = Rng.for(0, "mean-trade-size");
  let sum = 0;
  const n = 200_000;
  for (let i = 0; i < n; i++) sum += drawBaseTradeSize(rng);
  return sum / n;
})();
