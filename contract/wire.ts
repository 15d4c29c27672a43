/**
 * Wire values of the Datasets Service, as a real service may send them: dates `YYYY-MM-DD`;
 * date-times ISO 8601 with an offset, with `Z`, or naive (read as New York time), with
 * sub-second precision up to nanoseconds; integers of any size (counters beyond 2^53 stay
 * integers). One definition for the sandbox (which validates and documents with it) and the
 * workbench (which checks the service's answers with it).
 */
import { z } from "zod";
import { epochDay, nyUtcOffsetMinutes } from "../calendar/nyTime.ts";

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Groups: date, hour, minute, second, fraction (1-9 digits), offset (`Z`, `+HH:MM`, `+HHMM`, `+HH`). */
const DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Whether `text` is a real calendar date written `YYYY-MM-DD` (2023-02-30 is not). */
export function isWireDate(text: string): boolean {
  const m = DATE_RE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/**
 * The instant a wire date-time names, in nanoseconds since the epoch (UTC); a naive value is
 * New York wall time. Returns undefined when `text` is not a date-time.
 *
 * @example Naive, `Z` and offset forms of one instant
 * ```ts
 * wireDateTimeToEpochNs("2023-11-21T09:30:00");            // 1700577000000000000n
 * wireDateTimeToEpochNs("2023-11-21T14:30:00Z");           // 1700577000000000000n
 * wireDateTimeToEpochNs("2023-11-21T09:30:00.000000001-05:00"); // 1700577000000000001n
 * ```
 */
export function wireDateTimeToEpochNs(text: string): bigint | undefined {
  const m = DATE_TIME_RE.exec(text);
  if (!m || !isWireDate(m[1])) return undefined;
  const [hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4] ?? "0")];
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const fraction = BigInt((m[5] ?? "").padEnd(9, "0"));
  const offsetMinutes = m[6] === undefined ? nyUtcOffsetMinutes(m[1]) : offsetOf(m[6]);
  const wallSeconds = BigInt(epochDay(m[1])) * 86_400n + BigInt(hour * 3600 + minute * 60 + second);
  return (wallSeconds - BigInt(offsetMinutes) * 60n) * 1_000_000_000n + fraction;
}

function offsetOf(text: string): number {
  if (text === "Z") return 0;
  const digits = text.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || "0");
  return text[0] === "-" ? -minutes : minutes;
}

/** A calendar date, `YYYY-MM-DD`. */
export const WireDate: z.ZodString = z.string().refine(isWireDate, { message: "Expected a real date as YYYY-MM-DD" })
  .meta({ id: "WireDate", description: "A calendar date, YYYY-MM-DD", format: "date" });

/** A date-time: offset, `Z` or naive (New York time), up to nanoseconds. */
export const WireDateTime: z.ZodString = z.string().refine((s) => wireDateTimeToEpochNs(s) !== undefined, {
  message: "Expected an ISO 8601 date-time (offset, Z, or naive New York time; up to 9 fractional digits)",
}).meta({
  id: "WireDateTime",
  description: "ISO 8601 date-time with an offset or Z; a naive value is New York time; up to nanosecond precision",
  format: "date-time",
});

/**
 * An integer of any size. JSON numbers beyond 2^53 arrive rounded but still whole, so this is
 * not `z.int()` (which stops at 2^53); data pages keep such values exact (the workbench reads
 * them as Int64 from the page's bytes).
 */
export const WireInteger: z.ZodNumber = z.number().refine(Number.isInteger, { message: "Expected an integer" })
  .meta({ id: "WireInteger", description: "An integer (int64; may exceed 2^53)", type: "integer", format: "int64" });
