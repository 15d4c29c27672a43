/**
 * The NYSE trading calendar, computed from the exchange's holiday rules (no data files).
 *
 * The rules are those in force since 1998, when NYSE first closed for Martin Luther King Jr.
 * Day; earlier years follow the same rules and may differ from history. One-off closures
 * since 2001 come from the small table below.
 *
 * @module
 */
import { dateFromEpochDay, epochDay } from "./nyTime.ts";

/** One NYSE session. */
export interface TradingDay {
  /** Trading date as `YYYY-MM-DD`. */
  date: string;
  /** True when regular hours end at 13:00 instead of 16:00. */
  earlyClose: boolean;
  /** Minutes after NY midnight when pre-market trading starts: 240 (04:00). */
  preOpenMinute: number;
  /** Minutes after NY midnight when regular hours start: 570 (09:30). */
  openMinute: number;
  /** Minutes after NY midnight when regular hours end: 960, or 780 on early-close days. */
  closeMinute: number;
  /**
   * Minutes after NY midnight when post-market trading ends: 1200 (20:00), or 1020 (17:00)
   * on early-close days, when the extended session ends four hours after the 13:00 close.
   */
  postCloseMinute: number;
}

/** Session bounds of a normal and of an early-close day, in minutes after NY midnight. */
const NORMAL_DAY = { preOpenMinute: 240, openMinute: 570, closeMinute: 960, postCloseMinute: 1200 };
const EARLY_CLOSE_DAY = { ...NORMAL_DAY, closeMinute: 780, postCloseMinute: 1020 };

/** Unscheduled full-day closures since 2001 (national mourning, attacks, storms). */
const SPECIAL_CLOSURES: Readonly<Record<string, string>> = {
  "2001-09-11": "September 11 attacks", "2001-09-12": "September 11 attacks",
  "2001-09-13": "September 11 attacks", "2001-09-14": "September 11 attacks",
  "2004-06-11": "National Day of Mourning for Ronald Reagan",
  "2007-01-02": "National Day of Mourning for Gerald Ford",
  "2012-10-29": "Hurricane Sandy", "2012-10-30": "Hurricane Sandy",
  "2018-12-05": "National Day of Mourning for George H. W. Bush",
  "2025-01-09": "National Day of Mourning for Jimmy Carter",
};

const [SUN, MON, THU, SAT] = [0, 1, 4, 6];

/** Day of week of an epoch day, 0 = Sunday; 1970-01-01 was a Thursday. */
const weekday = (day: number) => (((day + 4) % 7) + 7) % 7;
const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const ymd = (y: number, m: number, d: number) => epochDay(`${pad(y, 4)}-${pad(m)}-${pad(d)}`);

/** The n-th given weekday of a month (n = 1 for the first). */
function nthWeekday(year: number, month: number, dow: number, n: number): number {
  const first = ymd(year, month, 1);
  return first + ((dow - weekday(first) + 7) % 7) + 7 * (n - 1);
}

/** The last given weekday of a month. */
function lastWeekday(year: number, month: number, dow: number): number {
  const last = (month === 12 ? ymd(year + 1, 1, 1) : ymd(year, month + 1, 1)) - 1;
  return last - ((weekday(last) - dow + 7) % 7);
}

/** Easter Sunday by the anonymous Gregorian (Meeus/Jones/Butcher) algorithm. */
function easter(year: number): number {
  const a = year % 19, b = Math.floor(year / 100), c = year % 100;
  const d = Math.floor(b / 4), e = b % 4, f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3), h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4), k = c % 4, l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return ymd(year, month, ((h + l - 7 * m + 114) % 31) + 1);
}

const holidayCache = new Map<number, Map<number, string>>();

/** All full-day closures of a year, keyed by epoch day. */
function holidaysOf(year: number): Map<number, string> {
  const cached = holidayCache.get(year);
  if (cached) return cached;
  const out = new Map<number, string>();
  // Saturday holidays move to Friday, Sunday ones to Monday ...
  const fixed = (month: number, day: number, name: string) => {
    const date = ymd(year, month, day), dow = weekday(date);
    if (dow === SAT) out.set(date - 1, `${name} (observed)`);
    else if (dow === SUN) out.set(date + 1, `${name} (observed)`);
    else out.set(date, name);
  };
  // ... except New Year's Day: NYSE stays open on the Friday before because it ends the
  // yearly accounting period.
  const newYear = ymd(year, 1, 1), newYearDow = weekday(newYear);
  if (newYearDow === SUN) out.set(newYear + 1, "New Year's Day (observed)");
  else if (newYearDow !== SAT) out.set(newYear, "New Year's Day");
  if (year >= 1998) out.set(nthWeekday(year, 1, MON, 3), "Martin Luther King Jr. Day");
  out.set(nthWeekday(year, 2, MON, 3), "Washington's Birthday");
  out.set(easter(year) - 2, "Good Friday");
  out.set(lastWeekday(year, 5, MON), "Memorial Day");
  if (year >= 2022) fixed(6, 19, "Juneteenth National Independence Day");
  fixed(7, 4, "Independence Day");
  out.set(nthWeekday(year, 9, MON, 1), "Labor Day");
  out.set(nthWeekday(year, 11, THU, 4), "Thanksgiving Day");
  fixed(12, 25, "Christmas Day");
  for (const [date, name] of Object.entries(SPECIAL_CLOSURES)) {
    if (date.startsWith(`${year}-`)) out.set(epochDay(date), name);
  }
  holidayCache.set(year, out);
  return out;
}

const yearOf = (date: string) => Number(date.slice(0, 4));

/**
 * Name of the NYSE full-day closure on `date`, if any.
 *
 * @param date A real calendar date as `YYYY-MM-DD`.
 * @returns The holiday or closure name ("(observed)" when moved off a weekend), or
 *   `undefined` for trading days and plain weekends.
 * @throws {Error} When `date` is not a real calendar date.
 * @example
 * ```ts
 * import { holidayName } from "./calendar/calendar.ts";
 * holidayName("2023-11-23"); // "Thanksgiving Day"
 * holidayName("2022-12-26"); // "Christmas Day (observed)"
 * ```
 */
export function holidayName(date: string): string | undefined {
  return holidaysOf(yearOf(date)).get(epochDay(date));
}

/**
 * Whether NYSE holds a regular session on `date` (a weekday that is not a closure).
 *
 * @param date A real calendar date as `YYYY-MM-DD`.
 * @returns `true` on trading days, including early-close days.
 * @throws {Error} When `date` is not a real calendar date.
 * @example
 * ```ts
 * import { isTradingDay } from "./calendar/calendar.ts";
 * isTradingDay("2023-11-24"); // true (early close)
 * isTradingDay("2025-01-09"); // false (Carter national day of mourning)
 * ```
 */
export function isTradingDay(date: string): boolean {
  const dow = weekday(epochDay(date));
  return dow !== SAT && dow !== SUN && holidayName(date) === undefined;
}

/**
 * Whether regular hours end at 13:00 on `date`: July 3 (the eve of Independence Day), the
 * day after Thanksgiving and Christmas Eve, whenever those are trading days.
 *
 * @param date A real calendar date as `YYYY-MM-DD`.
 * @returns `true` only for trading days that close early.
 * @throws {Error} When `date` is not a real calendar date.
 * @example
 * ```ts
 * import { isEarlyClose } from "./calendar/calendar.ts";
 * isEarlyClose("2024-12-24"); // true
 * isEarlyClose("2024-12-23"); // false
 * ```
 */
export function isEarlyClose(date: string): boolean {
  if (!isTradingDay(date)) return false;
  const year = yearOf(date), day = epochDay(date);
  return day === ymd(year, 7, 3) || day === ymd(year, 12, 24) ||
    day === nthWeekday(year, 11, THU, 4) + 1;
}

/**
 * NYSE sessions from `start` to `end`, both inclusive, in ascending order.
 *
 * @param start First date to consider, `YYYY-MM-DD`.
 * @param end Last date to consider, `YYYY-MM-DD`; not before `start`.
 * @returns One entry per trading day with its session bounds in minutes after NY midnight.
 * @throws {Error} When either date is not a real calendar date or `start` is after `end`.
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
  const days: TradingDay[] = [];
  for (let day = first; day <= last; day++) {
    const date = dateFromEpochDay(day);
    if (!isTradingDay(date)) continue;
    const earlyClose = isEarlyClose(date);
    days.push({ date, earlyClose, ...(earlyClose ? EARLY_CLOSE_DAY : NORMAL_DAY) });
  }
  return days;
}
