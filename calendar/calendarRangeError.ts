/**
 * The error for a date outside the years the NYSE calendar records. The calendar's rules and
 * one-off closures are checked day by day only from its coverage start; before it the exchange
 * kept other holidays (election days until 1980, for one), so an answer there would be a guess.
 *
 * @module
 */

/**
 * Thrown when the NYSE calendar is asked about a date it does not cover. Carries the date asked
 * and the covered range, and names both in its message.
 *
 * @example Catch it and clamp to the coverage
 * ```ts
 * import { CalendarRangeError, tradingDays } from "./calendar/calendar.ts";
 * try {
 *   tradingDays("1985-09-27", "1990-01-05");
 * } catch (e) {
 *   if (e instanceof CalendarRangeError) tradingDays(e.coverageStart, "1990-01-05");
 * }
 * ```
 */
export class CalendarRangeError extends RangeError {
  /** The date asked for, as given (`YYYY-MM-DD`). */
  readonly date: string;
  /** First date the calendar answers for, `YYYY-MM-DD`. */
  readonly coverageStart: string;
  /** Last date the calendar answers for, or null when its rules run on without an end. */
  readonly coverageEnd: string | null;

  /**
   * Builds the error and its message from the date and the coverage.
   *
   * @param date The date asked for.
   * @param coverageStart First covered date.
   * @param coverageEnd Last covered date, or null for none.
   * @param role What the date was in the call ("date", "start", "end"), for the message.
   */
  constructor(date: string, coverageStart: string, coverageEnd: string | null, role = "date") {
    const covered = coverageEnd === null ? `from ${coverageStart} on` : `from ${coverageStart} to ${coverageEnd}`;
    super(
      `Cannot answer for ${role} '${date}': the NYSE calendar covers dates ${covered} ` +
        `(its holiday rules and one-off closures are recorded and checked only for those); ask for dates ${covered}`,
    );
    this.name = "CalendarRangeError";
    this.date = date;
    this.coverageStart = coverageStart;
    this.coverageEnd = coverageEnd;
  }
}
