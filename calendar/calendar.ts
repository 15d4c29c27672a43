/**
 * The NYSE trading calendar, computed from the exchange's holiday rules and a short table of
 * one-off closures (no data files), for every date from 1990-01-01 on: the holidays as they
 * changed (Martin Luther King Jr. Day from 1998, Juneteenth from 2022), the one-off closures
 * since 1990 and the scheduled early closes of each year. Earlier dates raise a
 * {@link CalendarRangeError}. It agrees with QuantLib's NYSE calendar on every day of 1990-2030
 * but one, judged in docs/calendar.md.
 *
 * @module
 */
import { CalendarRangeError } from "./calendarRangeError.ts";
import { SAT, SUN, weekday } from "./dates.ts";
import { FOUR_PM, scheduledClose } from "./earlyCloses.ts";
import { holidaysOf } from "./holidays.ts";
import { dateFromEpochDay, epochDay } from "./nyTime.ts";

export { CalendarRangeError } from "./calendarRangeError.ts";

/** One NYSE session. */
export interface TradingDay {
  /** Trading date as `YYYY-MM-DD`. */
  date: string;
  /** True when regular hours end before 16:00 by the exchange's schedule (13:00; 14:00 before 1993). */
  earlyClose: boolean;
  /** Minutes after NY midnight when pre-market trading starts: 240 (04:00). */
  preOpenMinute: number;
  /** Minutes after NY midnight when regular hours start: 570 (09:30). */
  openMinute: number;
  /** Minutes after NY midnight when regular hours end: 960, or 780 (840 before 1993) on early-close days. */
  closeMinute: number;
  /**
   * Minutes after NY midnight when post-market trading ends, four hours after the close: 1200
   * (20:00), or 1020 (17:00) after a 13:00 close.
   */
  postCloseMinute: number;
}

/**
 * The dates the calendar answers for: from `start` on, with no end (later years follow the
 * rules; a closure not yet announced cannot be known).
 */
export const CALENDAR_COVERAGE: { readonly start: string; readonly end: string | null } = { start: "1990-01-01", end: null };

const PRE_OPEN_MINUTE = 240, OPEN_MINUTE = 570, EXTENDED_HOURS_AFTER_CLOSE = 240;
const FIRST_DAY = epochDay(CALENDAR_COVERAGE.start);

/** The epoch day of a date the calendar covers; throws for a malformed or uncovered one. */
function coveredDay(date: string, role = "date"): number {
  const day = epochDay(date);
  if (day < FIRST_DAY) throw new CalendarRangeError(date, CALENDAR_COVERAGE.start, CALENDAR_COVERAGE.end, role);
  return day;
}

/**
 * Name of the NYSE full-day closure on `date`, if any.
 *
 * @param date A real calendar date as `YYYY-MM-DD`, from 1990-01-01 on.
 * @returns The holiday or closure name ("(observed)" when moved off a weekend), or
 *   `undefined` for trading days and plain weekends.
 * @throws {Error} When `date` is not a real calendar date.
 * @throws {CalendarRangeError} When `date` is before the calendar's coverage (1990-01-01).
 * @example
 * ```ts
 * import { holidayName } from "./calendar/calendar.ts";
 * holidayName("2023-11-23"); // "Thanksgiving Day"
 * holidayName("2022-12-26"); // "Christmas Day (observed)"
 * holidayName("1994-04-27"); // "National Day of Mourning for Richard Nixon"
 * ```
 */
export function holidayName(date: string): string | undefined {
  return holidaysOf(Number(date.slice(0, 4))).get(coveredDay(date));
}

/** Whether a covered epoch day is a weekday with no closure. */
function isOpen(date: string, day: number): boolean {
  const dow = weekday(day);
  return dow !== SAT && dow !== SUN && !holidaysOf(Number(date.slice(0, 4))).has(day);
}

/**
 * Whether NYSE holds a regular session on `date` (a weekday that is not a closure).
 *
 * @param date A real calendar date as `YYYY-MM-DD`, from 1990-01-01 on.
 * @returns `true` on trading days, including early-close days.
 * @throws {Error} When `date` is not a real calendar date.
 * @throws {CalendarRangeError} When `date` is before the calendar's coverage (1990-01-01).
 * @example
 * ```ts
 * import { isTradingDay } from "./calendar/calendar.ts";
 * isTradingDay("2023-11-24"); // true (early close)
 * isTradingDay("2025-01-09"); // false (Carter national day of mourning)
 * ```
 */
export function isTradingDay(date: string): boolean {
  return isOpen(date, coveredDay(date));
}

/**
 * Whether regular hours end early on `date` by the exchange's schedule: the day after
 * Thanksgiving (since 1992), Christmas Eve, July 3 (since 1995; when July 4 is a Thursday,
 * Friday July 5 until 2012 and Wednesday July 3 since 2013), and two one-off Fridays after
 * Christmas (1997, 2003). The close is 13:00, or 14:00 before 1993.
 *
 * @param date A real calendar date as `YYYY-MM-DD`, from 1990-01-01 on.
 * @returns `true` only for trading days that close early.
 * @throws {Error} When `date` is not a real calendar date.
 * @throws {CalendarRangeError} When `date` is before the calendar's coverage (1990-01-01).
 * @example
 * ```ts
 * import { isEarlyClose } from "./calendar/calendar.ts";
 * isEarlyClose("2024-12-24"); // true
 * isEarlyClose("2024-12-23"); // false
 * isEarlyClose("2002-07-05"); // true: July 4 was a Thursday
 * ```
 */
export function isEarlyClose(date: string): boolean {
  return isTradingDay(date) && scheduledClose(date) < FOUR_PM;
}

/**
 * NYSE sessions from `start` to `end`, both inclusive, in ascending order.
 *
 * @param start First date to consider, `YYYY-MM-DD`, from 1990-01-01 on.
 * @param end Last date to consider, `YYYY-MM-DD`; not before `start`.
 * @returns One entry per trading day with its session bounds in minutes after NY midnight.
 * @throws {Error} When either date is not a real calendar date or `start` is after `end`.
 * @throws {CalendarRangeError} When `start` is before the calendar's coverage (1990-01-01).
 * @example Thanksgiving week 2023
 * ```ts
 * import { tradingDays } from "./calendar/calendar.ts";
 * tradingDays("2023-11-22", "2023-11-24");
 * // [{ date: "2023-11-22", earlyClose: false, preOpenMinute: 240, openMinute: 570,
 * //    closeMinute: 960, postCloseMinute: 1200 },
 * //  { date: "2023-11-24", earlyClose: true, preOpenMinute: 240, openMinute: 570,
 * //    closeMinute: 780, postCloseMinute: 1020 }]
 * ```
 */
export function tradingDays(start: string, end: string): TradingDay[] {
  const first = epochDay(start), last = epochDay(end);
  if (first > last) {
    throw new Error(`Cannot list trading days from '${start}' to '${end}': start is after end`);
  }
  coveredDay(start, "start");
  const days: TradingDay[] = [];
  for (let day = first; day <= last; day++) {
    const date = dateFromEpochDay(day);
    if (!isOpen(date, day)) continue;
    const closeMinute = scheduledClose(date);
    days.push({
      date,
      earlyClose: closeMinute < FOUR_PM,
      preOpenMinute: PRE_OPEN_MINUTE,
      openMinute: OPEN_MINUTE,
      closeMinute,
      postCloseMinute: closeMinute + EXTENDED_HOURS_AFTER_CLOSE,
    });
  }
  return days;
}
