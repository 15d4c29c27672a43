/**
 * Sizes of individual prints, shaped like the real sample's: about 62% odd lots (retail and
 * algorithmic slices, many under 50 shares), 19% exactly one round lot of 100, some multiples of
 * 100, and a heavy tail. The generator emits only a fraction of a name's real prints
 * (`printScale`), so the volume of the prints it leaves out is carried by the tail: its blocks
 * grow until the mean print is `meanSize`, and the body keeps the real shape.
 */
import { Rng } from "../rng.ts";

const ODD_LOT_SHARE = 0.62;
const ONE_LOT_SHARE = 0.19;
const MULTI_LOT_SHARE = 0.12;
const TAIL_SHARE = 1 - ODD_LOT_SHARE - ONE_LOT_SHARE - MULTI_LOT_SHARE;
/** Log-normal spread of tail prints (a heavy tail: the top 1% of tail prints are ~4x its median). */
const TAIL_LOG_SD = 0.6;

function oddLot(rng: Rng): number {
  const v = rng.uniform();
  return 1 + Math.floor(99 * v * v);
}

function multiLot(rng: Rng): number {
  return 100 * (2 + Math.floor(rng.exponential(2)));
}

/** Mean of the body (odd lots, one lot, multiples), measured once from a fixed stream. */
const BODY_MEAN = (() => {
  const rng = Rng.for(0, "trade-size-body");
  let sum = 0;
  const n = 100_000;
  for (let i = 0; i < n; i++) sum += (ODD_LOT_SHARE * oddLot(rng) + ONE_LOT_SHARE * 100 + MULTI_LOT_SHARE * multiLot(rng)) / (1 - TAIL_SHARE);
  return sum / n;
})();

/** Smallest mean tail print: a block is several round lots even when every real print is emitted. */
const MIN_TAIL_MEAN = 1600;

/**
 * The size of one emitted print whose expected value is `meanSize` shares. When `meanSize` is
 * too small for the real shape (a name emitted at more than real print counts), every size is
 * scaled down instead.
 *
 * @example
 * ```ts
 * drawTradeSize(Rng.for(42, "x"), 2500); // mostly odd lots and 100s; rare blocks of tens of thousands
 * ```
 */
export function drawTradeSize(rng: Rng, meanSize: number): number {
  const tailMean = (meanSize - (1 - TAIL_SHARE) * BODY_MEAN) / TAIL_SHARE;
  const shrink = tailMean < MIN_TAIL_MEAN ? meanSize / ((1 - TAIL_SHARE) * BODY_MEAN + TAIL_SHARE * MIN_TAIL_MEAN) : 1;
  const u = rng.uniform();
  let size: number;
  if (u < ODD_LOT_SHARE) size = oddLot(rng);
  else if (u < ODD_LOT_SHARE + ONE_LOT_SHARE) size = 100;
  else if (u < 1 - TAIL_SHARE) size = multiLot(rng);
  else {
    const mean = Math.max(tailMean, MIN_TAIL_MEAN);
    size = Math.max(100, Math.round((mean * Math.exp(TAIL_LOG_SD * rng.normal() - TAIL_LOG_SD * TAIL_LOG_SD / 2)) / 100) * 100);
  }
  return shrink === 1 ? size : Math.max(1, Math.round(size * shrink));
}

/** The mean print of the real shape when every print is emitted (the tail at its smallest). */
export const REAL_MEAN_TRADE_SIZE = (1 - TAIL_SHARE) * BODY_MEAN + TAIL_SHARE * MIN_TAIL_MEAN;
