/**
 * When NYSE's regular session ends before 16:00 by the exchange's own schedule: the day after
 * Thanksgiving, Christmas Eve and the days around Independence Day, as they were kept in each
 * year since 1990, and the few one-off early closes of a holiday season. Unscheduled early
 * closes (snow, a circuit breaker, a systems fault) are not here: docs/calendar.md lists them.
 *
 * @module
 */
import { FRI, nthWeekday, THU, WED, weekday, ymd } from "./dates.ts";

/** 13:00, the early close since 1993, in minutes after New York midnight. */
const ONE_PM = 780;
/** 14:00, the early close until 1992. */
const TWO_PM = 840;
/** 16:00, the regular close. */
export const FOUR_PM = 960;

/** Early closes no yearly rule gives: the Friday after a Thursday Christmas in two years only. */
const ONE_OFF_EARLY_CLOSES: Readonly<Record<string, number>> = {
  "1997-12-26": ONE_PM,
  "2003-12-26": ONE_PM,
};

/**
 * The scheduled close of a trading day, in minutes after New York midnight.
 *
 * @param date The trading day as `YYYY-MM-DD` (the caller has checked it is one).
 * @returns 960 (16:00) on a normal day, 780 (13:00) or 840 (14:00, before 1993) on an early close.
 * @example
 * ```ts
 * scheduledClose("2023-11-24"); // 780
 * scheduledClose("1992-11-27"); // 840
 * scheduledClose("1991-11-29"); // 960: no early close after Thanksgiving before 1992
 * ```
 */
export function scheduledClose(date: string): number {
  const oneOff = ONE_OFF_EARLY_CLOSES[date];
  if (oneOff !== undefined) return oneOff;
  const year = Number(date.slice(0, 4)), month = Number(date.slice(5, 7)), dayOfMonth = Number(date.slice(8, 10));
  const day = ymd(year, month, dayOfMonth), dow = weekday(day);
  // The day after Thanksgiving: first shortened in 1992 (to 14:00), at 13:00 since 1993.
  if (day === nthWeekday(year, 11, THU, 4) + 1 && year >= 1992) return year === 1992 ? TWO_PM : ONE_PM;
  // Christmas Eve: 14:00 in 1990-1992, 13:00 since (it fell on a weekend or the observed
  // Christmas holiday in 1993-1995, so 1996 is the first 13:00 one).
  if (month === 12 && dayOfMonth === 24) return year <= 1992 ? TWO_PM : ONE_PM;
  if (month === 7 && year >= 1995) {
    // July 3 from 1995 on; when July 4 is a Thursday, the early close was the Friday after
    // (July 5) until 2012 and has been the Wednesday before (July 3) since 2013.
    if (dayOfMonth === 3 && (dow !== WED || year >= 2013)) return ONE_PM;
    if (dayOfMonth === 5 && dow === FRI && year <= 2012) return ONE_PM;
  }
  return FOUR_PM;
}
