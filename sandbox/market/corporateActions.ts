/**
 * Synthetic corporate actions placed inside every profile's range, so that adjusted option
 * roots, price jumps and a ticker change exist in tiny, demo and large alike. Dates are set
 * by position in the profile's trading days, which keeps them inside any range of six or more
 * trading days.
 */
import type { TradingDay } from "../../calendar/calendar.ts";

/** `newShares` for `oldShares`: 3-for-2 is {3, 2}, a 1-for-4 reverse split {1, 4}. */
interface Split {
  kind: "split";
  asid: number;
  /** First trading day at the new share count. */
  exDate: string;
  newShares: number;
  oldShares: number;
}

/** The target's holders receive `shareRatio` acquirer shares plus `cashPerShare` per share. */
export interface Merger {
  kind: "merger";
  targetAsid: number;
  acquirerAsid: number;
  /** First trading day on which the target no longer trades. */
  effectiveDate: string;
  shareRatio: number;
  cashPerShare: number;
}

interface TickerChange {
  kind: "ticker-change";
  asid: number;
  /** First trading day under the new ticker. */
  date: string;
  oldTicker: string;
  newTicker: string;
}

export type CorporateAction = Split | Merger | TickerChange;

/** Plans the market's four corporate actions over a profile's trading days. */
export function planCorporateActions(days: readonly TradingDay[]): CorporateAction[] {
  if (days.length < 6) {
    throw new Error(`A market needs at least 6 trading days to place its corporate actions, got ${days.length}`);
  }
  const at = (fraction: number, min: number) => days[Math.max(min, Math.floor(fraction * days.length))].date;
  return [
    { kind: "split", asid: 100009, exDate: at(0.25, 1), newShares: 3, oldShares: 2 }, // ODFL 3-for-2
    { kind: "split", asid: 100010, exDate: at(0.4, 2), newShares: 1, oldShares: 4 }, // SIRI 1-for-4 reverse
    { kind: "merger", targetAsid: 100011, acquirerAsid: 100012, effectiveDate: at(0.55, 3), shareRatio: 1.025, cashPerShare: 4.5 }, // HES into CVX
    { kind: "ticker-change", asid: 100013, date: at(0.7, 4), oldTicker: "SQ", newTicker: "XYZ" },
  ];
}

/** The ticker a security trades under on a date. */
export function tickerOn(asid: number, initialTicker: string, date: string, actions: readonly CorporateAction[]): string {
  let ticker = initialTicker;
  for (const a of actions) {
    if (a.kind === "ticker-change" && a.asid === asid && date >= a.date) ticker = a.newTicker;
  }
  return ticker;
}

/** Whether a security still trades on a date (a merger target stops on its effective date). */
export function tradesOn(asid: number, date: string, actions: readonly CorporateAction[]): boolean {
  return !actions.some((a) => a.kind === "merger" && a.targetAsid === asid && date >= a.effectiveDate);
}

/** Factor applied to the price level at the open of a date (1.5 split divides by 1.5). */
export function priceFactorOn(asid: number, date: string, actions: readonly CorporateAction[]): number {
  let factor = 1;
  for (const a of actions) {
    if (a.kind === "split" && a.asid === asid && a.exDate === date) factor *= a.oldShares / a.newShares;
  }
  return factor;
}
