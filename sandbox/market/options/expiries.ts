/**
 * Expiration dates listed on a trading day. Monthly options expire on the third Friday,
 * quarterlies on the third Friday of March, June, September and December, weeklies on the other
 * Fridays; an expiry falling on an exchange holiday moves to the trading day before. How far
 * out each kind is listed depends on the root's liquidity tier.
 */
import { isTradingDay } from "../../../calendar/calendar.ts";
import { addDays, epochDay } from "../../../calendar/nyTime.ts";

export type ExpiryKind = "daily" | "weekly" | "monthly" | "quarterly";

export interface Expiry {
  date: string;
  kind: ExpiryKind;
}

/** How far out a root lists each kind of expiry. */
export interface ExpirySchedule {
  /** Weeklies are listed this many calendar days ahead (0: none). */
  weeklyDays: number;
  /** The nearest this many monthly (or quarterly) expiries are always listed. */
  monthlies: number;
  /** Quarterlies are listed this many calendar days ahead. */
  quarterlyDays: number;
  /** Daily (Monday-Thursday) expiries are listed this many calendar days ahead (SPY, SPXW); none when absent. */
  dailyDays?: number;
}

const FRIDAY = 5;

/**
 * Calendar days from `from` to `to`.
 *
 * @example
 * ```ts
 * daysBetween("2023-11-20", "2023-12-15"); // 25
 * ```
 */
export const daysBetween = (from: string, to: string): number => epochDay(to) - epochDay(from);

/** The trading day an expiry on `friday` falls on: the Friday, or the last trading day before it. */
function expiryOn(friday: string): string {
  let d = friday;
  while (!isTradingDay(d)) d = addDays(d, -1);
  return d;
}

/**
 * Expiries a root with `schedule` has listed on `date` (the expiring one included), nearest first.
 *
 * @example
 * ```ts
 * listedExpiries("2023-11-20", { weeklyDays: 21, monthlies: 3, quarterlyDays: 200 });
 * // [{ date: "2023-11-24", kind: "weekly" }, { date: "2023-12-01", kind: "weekly" }, { date: "2023-12-08", kind: "weekly" },
 * //  { date: "2023-12-15", kind: "quarterly" }, { date: "2024-01-19", kind: "monthly" }, { date: "2024-02-16", kind: "monthly" },
 * //  { date: "2024-03-15", kind: "quarterly" }]
 * ```
 */
export function listedExpiries(date: string, schedule: ExpirySchedule): Expiry[] {
  const out: Expiry[] = [];
  const start = epochDay(date);
  const firstFriday = addDays(date, (FRIDAY - ((start + 4) % 7) + 7) % 7);
  const horizon = Math.max(schedule.weeklyDays, schedule.quarterlyDays, 31 * (schedule.monthlies + 1));
  let monthliesSeen = 0;
  for (let friday = firstFriday; daysBetween(date, friday) <= horizon; friday = addDays(friday, 7)) {
    const day = Number(friday.slice(8, 10)), month = Number(friday.slice(5, 7));
    const third = day >= 15 && day <= 21;
    const kind: ExpiryKind = !third ? "weekly" : month % 3 === 0 ? "quarterly" : "monthly";
    const expiry = expiryOn(friday);
    if (expiry < date) continue;
    const days = daysBetween(date, expiry);
    const listed = kind === "weekly"
      ? days <= schedule.weeklyDays
      : monthliesSeen++ < schedule.monthlies || (kind === "quarterly" && days <= schedule.quarterlyDays);
    if (listed) out.push({ date: expiry, kind });
  }
  // Daily expiries fill the other trading days of the next week or so.
  for (let d = date; daysBetween(date, d) <= (schedule.dailyDays ?? -1); d = addDays(d, 1)) {
    if (isTradingDay(d) && !out.some((e) => e.date === d)) out.push({ date: d, kind: "daily" });
  }
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
