/**
 * NYSE full-day closures: the yearly holidays as the exchange has kept them since 1990, and the
 * one-off closures since then. See docs/calendar.md for the history and sources.
 *
 * @module
 */
import { easter, lastWeekday, MON, nthWeekday, SAT, SUN, THU, weekday, ymd } from "./dates.ts";
import { epochDay } from "./nyTime.ts";

/**
 * Unscheduled full-day closures since 1990 (national days of mourning, attacks, storms), from
 * the NYSE's history of closings; the one before, Hurricane Gloria on 1985-09-27, is outside
 * the calendar's coverage.
 */
const ONE_OFF_CLOSURES: Readonly<Record<string, string>> = {
  "1994-04-27": "National Day of Mourning for Richard Nixon",
  "2001-09-11": "September 11 attacks",
  "2001-09-12": "September 11 attacks",
  "2001-09-13": "September 11 attacks",
  "2001-09-14": "September 11 attacks",
  "2004-06-11": "National Day of Mourning for Ronald Reagan",
  "2007-01-02": "National Day of Mourning for Gerald Ford",
  "2012-10-29": "Hurricane Sandy",
  "2012-10-30": "Hurricane Sandy",
  "2018-12-05": "National Day of Mourning for George H. W. Bush",
  "2025-01-09": "National Day of Mourning for Jimmy Carter",
};

const holidayCache = new Map<number, Map<number, string>>();

/**
 * All full-day closures of a year, keyed by epoch day, with their names. The rules are those in
 * force from 1990 on; earlier years are refused by the caller, not answered here.
 *
 * @param year A year from the calendar's coverage.
 * @returns Epoch day to closure name ("(observed)" when moved off a weekend).
 * @example
 * ```ts
 * holidaysOf(2023).get(ymd(2023, 11, 23)); // "Thanksgiving Day"
 * ```
 */
export function holidaysOf(year: number): ReadonlyMap<number, string> {
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
  // yearly accounting period (1993-12-31, 1999-12-31, 2004-12-31, 2010-12-31, 2021-12-31).
  const newYear = ymd(year, 1, 1), newYearDow = weekday(newYear);
  if (newYearDow === SUN) out.set(newYear + 1, "New Year's Day (observed)");
  else if (newYearDow !== SAT) out.set(newYear, "New Year's Day");
  // NYSE first closed for Martin Luther King Jr. Day in 1998, 12 years after the federal holiday.
  if (year >= 1998) out.set(nthWeekday(year, 1, MON, 3), "Martin Luther King Jr. Day");
  // Third Monday of February and last Monday of May since the Uniform Monday Holiday Act (1971).
  out.set(nthWeekday(year, 2, MON, 3), "Washington's Birthday");
  out.set(easter(year) - 2, "Good Friday");
  out.set(lastWeekday(year, 5, MON), "Memorial Day");
  // A federal holiday from 2021; the exchanges first closed for it in 2022.
  if (year >= 2022) fixed(6, 19, "Juneteenth National Independence Day");
  fixed(7, 4, "Independence Day");
  out.set(nthWeekday(year, 9, MON, 1), "Labor Day");
  out.set(nthWeekday(year, 11, THU, 4), "Thanksgiving Day");
  fixed(12, 25, "Christmas Day");
  for (const [date, name] of Object.entries(ONE_OFF_CLOSURES)) {
    if (date.startsWith(`${year}-`)) out.set(epochDay(date), name);
  }
  holidayCache.set(year, out);
  return out;
}
