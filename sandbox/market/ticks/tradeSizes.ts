/**
 * Sizes of individual prints, shaped like the real sample's: about 60% odd lots (retail and
 * algorithmic slices, many under 50 shares), 18% exactly one round lot of 100, some multiples of
 * 100, and blocks. The generator emits only a fraction of a name's real prints (`printScale`), so
 * the volume of the prints it leaves out is carried by the blocks, minute by minute: each minute's
 * blocks take what its odd lots and round lots leave of the minute's volume (about the mean print
 * times the minute's prints), so every minute carries its own volume and minute volume is as
 * smooth as the trade count, while the body of the distribution keeps the real shape.
 */
import { Rng } from "../rng.ts";

const ODD_LOT_SHARE = 0.6;
const ONE_LOT_SHARE = 0.18;
const MULTI_LOT_SHARE = 0.1;
const BLOCK_SHARE = 1 - ODD_LOT_SHARE - ONE_LOT_SHARE - MULTI_LOT_SHARE;
/** Log-normal spread of block sizes (within a minute they share its carried volume in these proportions). */
const BLOCK_LOG_SD = 0.5;
/** Log-normal spread of a minute's volume around its prints times the mean print. */
const MINUTE_VOLUME_LOG_SD = 0.25;

function oddLot(rng: Rng): number {
  const v = rng.uniform();
  return 1 + Math.floor(99 * v * v);
}

function multiLot(rng: Rng): number {
  return 100 * (2 + Math.floor(rng.exponential(2)));
}

/** A print of the body (odd lot, one lot, multiple), or 0 for a block slot. */
function bodyOrBlock(rng: Rng): number {
  const u = rng.uniform();
  if (u < ODD_LOT_SHARE) return oddLot(rng);
  if (u < ODD_LOT_SHARE + ONE_LOT_SHARE) return 100;
  if (u < 1 - BLOCK_SHARE) return multiLot(rng);
  return 0;
}

/** Mean of the body (odd lots, one lot, multiples), measured once from a fixed stream. */
const BODY_MEAN = (() => {
  const rng = Rng.for(0, "trade-size-body");
  let sum = 0;
  const n = 100_000;
  for (let i = 0; i < n; i++) {
    sum += (ODD_LOT_SHARE * oddLot(rng) + ONE_LOT_SHARE * 100 + MULTI_LOT_SHARE * multiLot(rng)) / (1 - BLOCK_SHARE);
  }
  return sum / n;
})();

/** Smallest mean block: a block is several round lots even when every real print is emitted. */
const MIN_BLOCK_MEAN = 1000;

/** The mean print of the real shape when every print is emitted (blocks at their smallest). */
export const REAL_MEAN_TRADE_SIZE = (1 - BLOCK_SHARE) * BODY_MEAN + BLOCK_SHARE * MIN_BLOCK_MEAN;

const roundLots = (shares: number) => Math.max(100, Math.round(shares / 100) * 100);

/** A block of about `mean` shares, in round lots. */
function block(rng: Rng, mean: number): number {
  return roundLots(mean * Math.exp(BLOCK_LOG_SD * rng.normal() - BLOCK_LOG_SD * BLOCK_LOG_SD / 2));
}

/**
 * The sizes of one minute's `count` prints when the mean print is `meanSize` shares: the body
 * keeps the real shape and the minute's blocks (at least one) carry the rest of its volume,
 * about `count * meanSize`, in round lots. When `meanSize` is at most the real mean print (a
 * name emitted at real print counts or more), prints are drawn independently instead and scaled
 * down if needed. Written into `out` (cleared first), in random order.
 *
 * @example
 * ```ts
 * const sizes: number[] = [];
 * minuteTradeSizes(Rng.for(42, "x"), 16, 5000, sizes); // mostly odd lots and 100s, one or two blocks, ~80,000 in all
 * ```
 */
export function minuteTradeSizes(rng: Rng, count: number, meanSize: number, out: number[]): number[] {
  out.length = 0;
  if (count === 0) return out;
  if (meanSize <= REAL_MEAN_TRADE_SIZE) {
    const shrink = meanSize / REAL_MEAN_TRADE_SIZE;
    for (let i = 0; i < count; i++) {
      const size = bodyOrBlock(rng) || block(rng, MIN_BLOCK_MEAN);
      out.push(Math.max(1, Math.round(size * shrink)));
    }
    return out;
  }
  let body = 0, blocks = 0;
  for (let i = 0; i < count; i++) {
    const size = bodyOrBlock(rng);
    out.push(size);
    body += size;
    if (size === 0) blocks++;
  }
  if (blocks === 0) {
    // The minute's volume needs a block: one print of the body becomes one.
    const k = rng.int(0, count - 1);
    body -= out[k];
    out[k] = 0;
    blocks = 1;
  }
  const volume = count * meanSize * Math.exp(MINUTE_VOLUME_LOG_SD * rng.normal() - MINUTE_VOLUME_LOG_SD * MINUTE_VOLUME_LOG_SD / 2);
  const carried = Math.max(MIN_BLOCK_MEAN * blocks, volume - body);
  // The blocks share the carried volume in log-normal proportions, so they add up to it exactly.
  const weights: number[] = [];
  let total = 0;
  for (let k = 0; k < blocks; k++) total += weights[k] = Math.exp(BLOCK_LOG_SD * rng.normal());
  for (let i = 0, k = 0; i < count; i++) if (out[i] === 0) out[i] = roundLots(carried * weights[k++] / total);
  return out;
}

/**
 * The size of a print that takes a quote at a new high or low of the session: an odd lot or a
 * round lot or a few, as the body of the real shape (no block).
 *
 * @example
 * ```ts
 * extremeSize(Rng.for(42, "x")); // e.g. 37, 100 or 300
 * ```
 */
export function extremeSize(rng: Rng): number {
  let size = 0;
  while (size === 0) size = bodyOrBlock(rng);
  return size;
}
