/**
 * Civil-date arithmetic the calendar's rules are written in: epoch days (whole days since
 * 1970-01-01), weekdays, the n-th weekday of a month and Easter.
 *
 * @module
 */
import { epochDay } from "./nyTime.ts";

/** Sunday, as {@link weekday} numbers it. */
export const SUN = 0;
/** Monday, as {@link weekday} numbers it. */
export const MON = 1;
/** Wednesday, as {@link weekday} numbers it. */
export const WED = 3;
/** Thursday, as {@link weekday} numbers it. */
export const THU = 4;
/** Friday, as {@link weekday} numbers it. */
export const FRI = 5;
/** Saturday, as {@link weekday} numbers it. */
export const SAT = 6;

/**
 * Day of week of an epoch day, 0 = Sunday; 1970-01-01 was a Thursday.
 *
 * @example
 * ```ts
 * weekday(0); // 4 (Thursday)
 * ```
 */
export const weekday = (day: number): number => (((day + 4) % 7) + 7) % 7;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * Epoch day of a year, month (1-12) and day of month.
 *
 * @example
 * ```ts
 * ymd(1970, 1, 2); // 1
 * ```
 */
export const ymd = (y: number, m: number, d: number): number => epochDay(`${pad(y, 4)}-${pad(m)}-${pad(d)}`);

/**
 * The n-th given weekday of a month (n = 1 for the first), as an epoch day.
 *
 * @example Thanksgiving 2023, the fourth Thursday of November
 * ```ts
 * nthWeekday(2023, 11, THU, 4) === ymd(2023, 11, 23); // true
 * ```
 */
export function nthWeekday(year: number, month: number, dow: number, n: number): number {
  const first = ymd(year, month, 1);
  return first + ((dow - weekday(first) + 7) % 7) + 7 * (n - 1);
}

/**
 * The last given weekday of a month, as an epoch day.
 *
 * @example Memorial Day 2024, the last Monday of May
 * ```ts
 * lastWeekday(2024, 5, MON) === ymd(2024, 5, 27); // true
 * ```
 */
export function lastWeekday(year: number, month: number, dow: number): number {
  const last = (month === 12 ? ymd(year + 1, 1, 1) : ymd(year, month + 1, 1)) - 1;
  return last - ((weekday(last) - dow + 7) % 7);
}

/**
 * Easter Sunday by the anonymous Gregorian (Meeus/Jones/Butcher) algorithm, as an epoch day.
 *
 * @example
 * ```ts
 * easter(2024) === ymd(2024, 3, 31); // true
 * ```
 */
export function easter(year: number): number {
  const a = year % 19, b = Math.floor(year / 100), c = year % 100;
  const d = Math.floor(b / 4), e = b % 4, f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3), h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4), k = c % 4, l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return ymd(year, month, ((h + l - 7 * m + 114) % 31) + 1);
}
