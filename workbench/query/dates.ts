/**
 * Dates as a call gives them (text or a Date) and as the service reads them (`YYYY-MM-DD`), and
 * the `start`/`end` range of a call. Every date argument of the workbench passes here.
 */
import { QueryError } from "../errors/base.ts";

/** A date as a call may give it: `"2023-11-21"` or a Date (its UTC calendar date). */
export type DateLike = string | Date;

/** A `start`/`end` range as dates, both inclusive. */
export interface DateRange {
  /** The first date, `YYYY-MM-DD`; absent: from the dataset's first. */
  start?: string;
  /** The last date, `YYYY-MM-DD`; absent: to the dataset's last. */
  end?: string;
}

/** A date as `YYYY-MM-DD`: a `Date` gives its UTC calendar date (as filter values do). */
export function isoDate(value: DateLike, what: string): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new QueryError(`${what} is an invalid Date: give a valid Date or a date as YYYY-MM-DD`);
    return value.toISOString().slice(0, 10);
  }
  const parsed = typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : undefined;
  // An impossible date (2023-13-01, 2023-02-30) parses as Invalid Date or rolls over: refused either way.
  const ok = parsed !== undefined && !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value as string);
  if (!ok) throw new QueryError(`${what} '${String(value)}' is not a date: use YYYY-MM-DD (such as "2023-11-21") or a Date`);
  return value;
}

/** Checks `start`/`end` and returns them as dates; a reversed range is refused. */
export function dateRange(start: DateLike | undefined, end: DateLike | undefined): DateRange {
  const range: DateRange = {
    start: start === undefined ? undefined : isoDate(start, "start"),
    end: end === undefined ? undefined : isoDate(end, "end"),
  };
  if (range.start && range.end && range.start > range.end) {
    throw new QueryError(`The range is reversed: start ${range.start} is after end ${range.end}; swap them`);
  }
  return range;
}
