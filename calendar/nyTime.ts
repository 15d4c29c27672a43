/**
 * New York time and civil-date arithmetic for the market sandbox.
 *
 * This is the one module that knows about America/New_York: everything else passes
 * `YYYY-MM-DD` strings and times of day, and asks here for UTC instants. Dates are
 * handled as whole UTC days so the host machine's time zone can never shift a date.
 *
 * @module
 */

const MS_PER_DAY = 86_400_000;
const NS_PER_DAY = 86_400_000_000_000n;
const NS_PER_MINUTE = 60_000_000_000n;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Valid dates seen so far: the option generator converts the same few hundred dates millions of times. */
const epochDayCache = new Map<string, number>();

/**
 * Days since 1970-01-01 for a `YYYY-MM-DD` date (the physical value of a Polars Date).
 *
 * @param date A real calendar date as `YYYY-MM-DD`.
 * @returns Whole days since the Unix epoch; negative before 1970.
 * @throws {Error} When `date` is not a real calendar date in that format.
 * @example Convert a trading date
 * ```ts
 * import { epochDay } from "./calendar/nyTime.ts";
 * epochDay("2023-11-22"); // 19683
 * ```
 */
export function epochDay(date: string): number {
  const cached = epochDayCache.get(date);
  if (cached !== undefined) return cached;
  const match = DATE_PATTERN.exec(date);
  if (match) {
    const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
    // setUTCFullYear, unlike Date.UTC, does not remap years 0-99 to 1900-1999.
    const ms = new Date(0).setUTCFullYear(y, m - 1, d);
    // Date rolls 2023-02-30 over to March; a round trip catches that.
    if (dateFromMs(ms) === date) {
      epochDayCache.set(date, ms / MS_PER_DAY);
      return ms / MS_PER_DAY;
    }
  }
  throw new Error(`Cannot parse date '${date}': expected a real calendar date as YYYY-MM-DD`);
}

/**
 * Inverse of {@link epochDay}: the `YYYY-MM-DD` date a day count since 1970-01-01 names.
 *
 * @param day Whole days since the Unix epoch.
 * @returns The date as `YYYY-MM-DD`.
 * @throws {Error} When `day` is not an integer or falls outside years 0000-9999.
 * @example Read a Polars Date physical value
 * ```ts
 * import { dateFromEpochDay } from "./calendar/nyTime.ts";
 * dateFromEpochDay(19683); // "2023-11-22"
 * ```
 */
export function dateFromEpochDay(day: number): string {
  const date = Number.isInteger(day) ? dateFromMs(day * MS_PER_DAY) : "";
  if (!DATE_PATTERN.test(date)) {
    throw new Error(`Cannot convert epoch day ${day}: expected an integer within years 0000-9999`);
  }
  return date;
}

/**
 * Adds `n` calendar days (negative to go back) to a `YYYY-MM-DD` date.
 *
 * @param date A real calendar date as `YYYY-MM-DD`.
 * @param n Whole number of days to add.
 * @returns The resulting date as `YYYY-MM-DD`.
 * @throws {Error} When `date` is not a real date or `n` is not an integer.
 * @example Step over a month end
 * ```ts
 * import { addDays } from "./calendar/nyTime.ts";
 * addDays("2024-02-28", 2); // "2024-03-01"
 * ```
 */
export function addDays(date: string, n: number): string {
  if (!Number.isInteger(n)) throw new Error(`Cannot add ${n} days to '${date}': expected an integer`);
  return dateFromEpochDay(epochDay(date) + n);
}

const offsetCache = new Map<string, number>();
let formatter: Intl.DateTimeFormat | undefined;

/**
 * UTC offset in minutes of New York at local noon of `date`: -300 (EST) or -240 (EDT).
 *
 * DST switches happen at 02:00 local on Sundays, so the noon offset holds for the whole
 * trading session. Results are cached per date because Intl formatting is slow.
 *
 * @param date A real calendar date as `YYYY-MM-DD`.
 * @returns Minutes to add to UTC to get New York wall time.
 * @throws {Error} When `date` is not a real calendar date.
 * @example Either side of the 2023 autumn switch
 * ```ts
 * import { nyUtcOffsetMinutes } from "./calendar/nyTime.ts";
 * nyUtcOffsetMinutes("2023-11-03"); // -240
 * nyUtcOffsetMinutes("2023-11-06"); // -300
 * ```
 */
export function nyUtcOffsetMinutes(date: string): number {
  const cached = offsetCache.get(date);
  if (cached !== undefined) return cached;
  // 17:00 UTC is noon EST or 13:00 EDT: the same local date under either offset.
  const instant = epochDay(date) * MS_PER_DAY + 17 * 3_600_000;
  formatter ??= new Intl.DateTimeFormat("en-US", {
    timeZone: "America/New_York",
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  });
  const part = (type: string) => Number(formatter!.formatToParts(instant).find((p) => p.type === type)?.value);
  const wall = new Date(0).setUTCFullYear(part("year"), part("month") - 1, part("day")) +
    (part("hour") * 60 + part("minute")) * 60_000;
  const offset = Math.round((wall - instant) / 60_000);
  offsetCache.set(date, offset);
  return offset;
}

/**
 * Epoch nanoseconds (UTC) of a New York wall-clock time on a trading date.
 *
 * One offset per date is exact for 04:00-20:00 because trading hours never cross a DST
 * switch. BigInt keeps nanosecond precision that a float would lose.
 *
 * @param date A real calendar date as `YYYY-MM-DD`.
 * @param nsOfDay Nanoseconds after New York local midnight.
 * @returns Nanoseconds since the Unix epoch, UTC.
 * @throws {Error} When `date` is not a real calendar date.
 * @example The 09:30 open
 * ```ts
 * import { nyEpochNs } from "./calendar/nyTime.ts";
 * nyEpochNs("2023-11-22", 34_200_000_000_000n); // 1700663400000000000n (14:30Z)
 * ```
 */
export function nyEpochNs(date: string, nsOfDay: bigint): bigint {
  const offset = BigInt(nyUtcOffsetMinutes(date));
  return BigInt(epochDay(date)) * NS_PER_DAY + nsOfDay - offset * NS_PER_MINUTE;
}

/**
 * Epoch milliseconds (UTC) of a New York wall-clock time on a trading date.
 *
 * @param date A real calendar date as `YYYY-MM-DD`.
 * @param msOfDay Milliseconds after New York local midnight.
 * @returns Milliseconds since the Unix epoch, UTC, usable with `new Date(...)`.
 * @throws {Error} When `date` is not a real calendar date.
 * @example The 16:00 close
 * ```ts
 * import { nyEpochMs } from "./calendar/nyTime.ts";
 * new Date(nyEpochMs("2023-11-22", 16 * 3_600_000)).toISOString(); // "2023-11-22T21:00:00.000Z"
 * ```
 */
export function nyEpochMs(date: string, msOfDay: number): number {
  return epochDay(date) * MS_PER_DAY + msOfDay - nyUtcOffsetMinutes(date) * 60_000;
}

/** ISO date part of an epoch millisecond, or "" when out of the Date range. */
function dateFromMs(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString().slice(0, 10) : "";
}
