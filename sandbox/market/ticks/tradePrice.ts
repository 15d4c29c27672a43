/**
 * Where a continuous trade prints against the NBBO, which way it goes, and how it moves the
 * price. Exchange trades hit the quotes (a few print inside a wide quote or sweep through it);
 * off-exchange (FINRA TRF) prints are often inside the spread: midpoint crosses and wholesalers'
 * sub-penny retail price improvement, the only sub-penny prices. Each trade moves the efficient
 * price in its direction (permanent impact), so quote midpoints follow signed order flow and a
 * trade's realized spread is below its effective spread, as in real markets.
 */
import { Rng } from "../rng.ts";
import { tickSize } from "../securities.ts";
import type { NbboBook } from "./nbboBook.ts";

/** Shares of TRF prints at the quote, at the midpoint, with sub-penny retail improvement; the rest print inside at a whole cent when the spread allows. */
const TRF_AT_QUOTE = 0.55;
const TRF_AT_MID = 0.12;
const TRF_RETAIL = 0.28;
/** Largest retail price improvement, dollars per share (wholesalers give tenths of a cent). */
const RETAIL_IMPROVEMENT_MAX = 0.002;
/** An exchange trade sweeps through a stale quote (the efficient price already beyond it) this often. */
const STALE_SWEEP = 0.5;
/**
 * Permanent impact of a trade of the mean emitted size, as a share of the half spread; it grows
 * with the square root of size (the square-root law), so a block moves the quote most.
 */
const IMPACT_PER_MEAN_TRADE = 0.12;

const round4 = (p: number) => Math.round(p * 1e4) / 1e4;

export interface PricedTrade {
  price: number;
  /** Swept through the quote (an intermarket sweep). */
  sweep: boolean;
  /** +1 a buy, -1 a sell. */
  side: number;
}

/**
 * Price and side of a continuous trade against the current NBBO; an exchange order meeting a
 * stale quote (the efficient price already beyond it) often sweeps it.
 *
 * @example
 * ```ts
 * const { price, side } = tradePrice(rng, book, 190.013, true); // a TRF print, maybe inside the spread
 * ```
 */
export function tradePrice(rng: Rng, book: NbboBook, fair: number, isTrf: boolean): PricedTrade {
  const { bid, ask } = book;
  const tick = tickSize(fair);
  const width = ask - bid;
  // Buys and sells are equally likely: the price follows the flow (impact), not the other way round.
  const buy = rng.chance(0.5);
  const side = buy ? 1 : -1;
  const touch = buy ? ask : bid;
  const u = rng.uniform();
  if (width <= 0) return { price: round4(touch), sweep: false, side };
  const widthTicks = Math.round(width / tick);
  const mid = (bid + ask) / 2;
  if (isTrf) {
    if (u < TRF_AT_QUOTE) return { price: round4(touch), sweep: false, side };
    if (u < TRF_AT_QUOTE + TRF_AT_MID) return { price: round4(mid), sweep: false, side };
    if (u < TRF_AT_QUOTE + TRF_AT_MID + TRF_RETAIL || widthTicks < 2) {
      // Retail improvement: a fraction of a cent better than the quote, never past the midpoint.
      const improvement = Math.min(0.0001 * rng.int(1, RETAIL_IMPROVEMENT_MAX * 1e4), width / 2);
      return { price: round4(buy ? ask - improvement : bid + improvement), sweep: false, side };
    }
    const inside = rng.int(1, widthTicks - 1) * tick;
    return { price: round4(buy ? ask - inside : bid + inside), sweep: false, side };
  }
  // A marketable order arriving after the price has moved past the quote takes it and the next level.
  const stale = buy ? fair > ask : fair < bid;
  if (stale && rng.chance(STALE_SWEEP)) return { price: round4(buy ? ask + tick : Math.max(tick, bid - tick)), sweep: true, side };
  if (u < 0.86 || (u < 0.94 && widthTicks < 2)) return { price: round4(touch), sweep: false, side };
  if (u < 0.94) {
    const inside = rng.int(1, widthTicks - 1) * tick;
    return { price: round4(buy ? ask - inside : bid + inside), sweep: false, side };
  }
  const through = rng.int(1, 2) * tick;
  return { price: round4(buy ? ask + through : Math.max(tick, bid - through)), sweep: true, side };
}

/**
 * How far a trade moves the efficient price, in dollars, signed by its side: a share of the
 * current half spread times the square root of its size over the mean emitted print.
 *
 * @example
 * ```ts
 * priceImpact(book, 20_000, 5_000, 1); // a buy block four times the mean print: +0.24 half spreads
 * ```
 */
export function priceImpact(book: NbboBook, size: number, meanSize: number, side: number): number {
  const halfSpread = Math.max(book.ask - book.bid, tickSize(book.bid)) / 2;
  return side * IMPACT_PER_MEAN_TRADE * halfSpread * Math.sqrt(size / meanSize);
}
