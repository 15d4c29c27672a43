/**
 * Checking the admin command's input. A bad value is an `AdminInputError` (exit 2) whose
 * message names the value and says what was expected, like the sandbox's own CLI does.
 */
import type { OptionValues } from "./command.ts";

/** Input the command cannot act on; the entry point prints it and exits 2. */
export class AdminInputError extends Error {}

/**
 * A positive integer read from `text`; `what` names it in the error.
 *
 * @example
 * ```ts
 * positiveInt("3", "--identity"); // 3
 * positiveInt("x", "--identity"); // throws: --identity 'x' is not a positive integer
 * ```
 */
export function positiveInt(text: string, what: string): number {
  if (!/^[0-9]{1,15}$/.test(text) || Number(text) === 0) throw new AdminInputError(`${what} '${text}' is not a positive integer`);
  return Number(text);
}

/**
 * A non-negative integer (quota limits may be 0, which refuses everything).
 *
 * @example
 * ```ts
 * nonNegativeInt("0", "--monthly"); // 0
 * ```
 */
export function nonNegativeInt(text: string, what: string): number {
  if (!/^[0-9]{1,16}$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new AdminInputError(`${what} '${text}' is not a non-negative integer`);
  }
  return Number(text);
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * An instant in the form the state stores (`toISOString`), from a date (`2030-01-01`, midnight
 * UTC) or a date-time with a zone (`2030-01-01T12:00:00Z`, `...+02:00`). A zone is required:
 * a local time would mean different instants on different machines.
 *
 * @example
 * ```ts
 * isoInstant("2030-01-01", "--expires"); // "2030-01-01T00:00:00.000Z"
 * ```
 */
export function isoInstant(text: string, what: string): string {
  const m = ISO.exec(text);
  const date = new Date(text);
  // V8 rolls 2030-02-31 over to March; the calendar date must survive the round trip.
  const sameDay = m && !Number.isNaN(date.getTime()) &&
    new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])).toISOString().slice(0, 10) === `${m[1]}-${m[2]}-${m[3]}`;
  if (!sameDay) {
    throw new AdminInputError(`${what} '${text}' is not an ISO date or date-time with a zone, such as 2030-01-01 or 2030-01-01T12:00:00Z`);
  }
  return date.toISOString();
}

/**
 * The string value of option `name`, or undefined when absent.
 *
 * @example
 * ```ts
 * optionalString({ identity: "3" }, "identity"); // "3"
 * ```
 */
export function optionalString(options: OptionValues, name: string): string | undefined {
  return options[name] as string | undefined;
}

/**
 * The string value of option `name`; its absence is an input error quoting `usage`.
 *
 * @example
 * ```ts
 * requiredString({}, "identity", "keys create --identity N"); // throws: Option --identity is required: ...
 * ```
 */
export function requiredString(options: OptionValues, name: string, usage: string): string {
  const value = optionalString(options, name);
  if (value === undefined) throw new AdminInputError(`Option --${name} is required: ${usage}`);
  return value;
}
