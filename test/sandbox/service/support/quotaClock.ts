/**
 * The per-minute quota window is the UTC minute, so a test that counts requests in one window
 * must not straddle a minute boundary: it waits for the next minute when too few seconds of
 * the current one are left.
 *
 * @example
 * ```ts
 * await roomInMinute(10); // at least 10 s of this UTC minute are left now
 * ```
 */
import { setTimeout as sleep } from "node:timers/promises";

/** Seconds left in the current UTC minute. */
export function secondsLeftInMinute(now = new Date()): number {
  return 60 - now.getUTCSeconds() - now.getUTCMilliseconds() / 1000;
}

/** Waits, when needed, until at least `seconds` of the current UTC minute are left. */
export async function roomInMinute(seconds: number): Promise<void> {
  if (seconds >= 59) throw new Error(`roomInMinute(${seconds}): a minute cannot hold that much room`);
  const left = secondsLeftInMinute();
  // A little past the boundary, so this clock and the sandbox's agree on the new minute.
  if (left < seconds) await sleep(left * 1000 + 250);
}

/** The current UTC minute as the service names its window (`2024-01-31T12:34`). */
export const minuteOf = (date = new Date()) => date.toISOString().slice(0, 16);

/** Seconds from `now` to 00:00 UTC on the 1st of next month, when monthly quotas reset. */
export function secondsToMonthReset(now = new Date()): number {
  return (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
}
