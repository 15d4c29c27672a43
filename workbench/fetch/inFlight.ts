/**
 * How many requests a call keeps in flight when the caller does not say (`concurrency`).
 *
 * A call of several units (tickers, days, a download's chunks) runs up to eight units at once,
 * and their pages share those eight: against a distant service each connection spends most of
 * its time waiting for its first byte, and eight hide that wait where four left it showing.
 * Sharing keeps the total at eight (not eight units times several pages each), and a unit of
 * a crowded call asks its pages one after another, so it never asks for a page past the end
 * of its data. A call of one unit pages four at once after the first, as before: each
 * page past four could be one asked past the end. A `concurrency` given applies to both, as
 * documented on `Query.concurrency`.
 */
import { PAGES_IN_FLIGHT } from "../query/prepare.ts";

/** Requests in flight for a call of several units, by default. */
const CALL_IN_FLIGHT = 8;

/**
 * Units run at once and pages in flight per unit for a call of `units` units.
 *
 * @example
 * ```ts
 * inFlight(13);    // { units: 8, pages: 1 }
 * inFlight(3);     // { units: 3, pages: 2 }
 * inFlight(1);     // { units: 1, pages: 4 }
 * inFlight(13, 2); // { units: 2, pages: 2 }
 * ```
 */
export function inFlight(units: number, given?: number): { units: number; pages: number } {
  if (given !== undefined) return { units: given, pages: given };
  if (units <= 1) return { units: 1, pages: PAGES_IN_FLIGHT };
  const running = Math.min(CALL_IN_FLIGHT, units);
  return { units: running, pages: Math.max(1, Math.floor(CALL_IN_FLIGHT / running)) };
}
