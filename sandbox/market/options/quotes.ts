/**
 * The NBBO of a contract at the last minute of the session, around its model price. The spread
 * grows with the price and shrinks with liquidity, the quote is centred on the model price plus
 * a little noise (never more than most of the half spread, so the model price stays inside the
 * quote), and both sides sit on the contract's tick grid: a deep out-of-the-money option bids
 * 0 and offers one tick. A deep in-the-money option can thus have a mid below its intrinsic
 * value, which is what gives real data its "not converged" implied vols.
 */
import type { Rng } from "../rng.ts";
import type { TickClass } from "./roots.ts";

/** Spread = (fixed + proportional x price) x noise, per root class. */
const SPREADS = {
  // Penny-pilot ETFs (SPY, QQQ) quote a cent or two wide near the money.
  etf: { fixed: 0.006, proportional: 0.001 },
  1: { fixed: 0.01, proportional: 0.006 },
  2: { fixed: 0.02, proportional: 0.025 },
  3: { fixed: 0.04, proportional: 0.05 },
  adjusted: { fixed: 0.08, proportional: 0.08 },
  index: { fixed: 0.05, proportional: 0.006 },
} as const;
export type SpreadClass = keyof typeof SPREADS;

/** Seconds since the last quote update at the close, on average, per root class. */
const QUOTE_AGE_SECONDS: Readonly<Record<SpreadClass, number>> = { etf: 1, 1: 1.5, 2: 5, 3: 25, adjusted: 240, index: 2 };

export interface Quote {
  bid: number;
  ask: number;
  mid: number;
}

/**
 * Minimum price increment of an option quote at `price`.
 *
 * @example
 * ```ts
 * optionTick("penny", 2.5); // 0.01
 * optionTick("penny", 3.2); // 0.05
 * ```
 */
function optionTick(cls: TickClass, price: number): number {
  if (cls === "penny-all") return 0.01;
  if (cls === "penny") return price < 3 ? 0.01 : 0.05;
  return price < 3 ? 0.05 : 0.1;
}

const cents = (x: number) => Math.round(x * 100) / 100;

/**
 * A quote around `fair` (the model price at the surface volatility).
 *
 * @example
 * ```ts
 * quoteAround(Rng.for(42, "q"), 4.87, 1, "penny"); // e.g. { bid: 4.8, ask: 4.95, mid: 4.875 }
 * ```
 */
export function quoteAround(rng: Rng, fair: number, cls: SpreadClass, tickClass: TickClass): Quote {
  const s = SPREADS[cls];
  const half = ((s.fixed + s.proportional * fair) * rng.gammaUnitMean(8)) / 2;
  const centre = fair + half * Math.min(Math.max(0.3 * rng.normal(), -0.8), 0.8);
  const rawBid = centre - half, rawAsk = centre + half;
  const bidTick = optionTick(tickClass, rawBid), askTick = optionTick(tickClass, rawAsk);
  // Each side goes to its nearest tick (a quote narrower than a tick widens to one tick below).
  let bid = rawBid <= 0 ? 0 : cents(Math.max(0, Math.round(rawBid / bidTick)) * bidTick);
  let ask = cents(Math.round(rawAsk / askTick) * askTick);
  // Rounding to the grid must not leave the model price outside the quote (parity would then
  // break across a call and its put by more than their spreads).
  if (bid > fair) bid = cents(Math.max(0, Math.floor(fair / bidTick)) * bidTick);
  if (ask < fair) ask = cents(Math.ceil(fair / askTick) * askTick);
  if (ask <= bid) ask = cents(bid + optionTick(tickClass, bid));
  return { bid, ask, mid: Math.round(((bid + ask) / 2) * 1e4) / 1e4 };
}

/**
 * Milliseconds after midnight of the last bid and ask updates before `closeMs` (the end of the
 * contract's last minute): recent for liquid near-the-money contracts, older for quiet ones,
 * never before the 09:30 open.
 *
 * @example
 * ```ts
 * quoteTimes(Rng.for(42, "t"), 16 * 3_600_000, 1, 0); // e.g. { bidMs: 57599123, askMs: 57598410 }
 * ```
 */
export function quoteTimes(rng: Rng, closeMs: number, cls: SpreadClass, quietness: number): { bidMs: number; askMs: number } {
  const mean = QUOTE_AGE_SECONDS[cls] * 1000 * (1 + quietness);
  const open = 9.5 * 3_600_000;
  const draw = () => Math.max(open, closeMs - 1 - Math.floor(rng.exponential(mean)));
  return { bidMs: draw(), askMs: draw() };
}
