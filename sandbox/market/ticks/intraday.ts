/**
 * The shape of a trading day, minute by minute from 04:00 to 20:00 New York time, fitted to
 * the real AAPL sample in shared/data (see the calibration table in the README):
 * activity follows a U over regular hours (open and close about 3.5x midday), thins to a few
 * percent of midday before 09:30 and after 16:00, and spreads widen several-fold outside
 * regular hours.
 */

/** Minutes in the 04:00-20:00 day; bar m starts at 04:00 + m minutes. */
export const MINUTES_PER_DAY = 960;
/** Minute of day (after midnight) of the first bar. */
export const FIRST_MINUTE_OF_DAY = 240;
/** Minute of day of the regular open, 09:30. */
export const OPEN_MINUTE_OF_DAY = 570;

/** Trade intensity of a minute relative to a regular-hours midday minute. */
function tradeActivity(minuteOfDay: number, closeMinuteOfDay: number): number {
  if (minuteOfDay < 420) return 0.006;
  if (minuteOfDay < 480) return 0.05;
  if (minuteOfDay < OPEN_MINUTE_OF_DAY) return minuteOfDay < 485 ? 0.14 : 0.08;
  if (minuteOfDay < closeMinuteOfDay) {
    const sinceOpen = minuteOfDay - OPEN_MINUTE_OF_DAY;
    const toClose = closeMinuteOfDay - 1 - minuteOfDay;
    return 0.82 + 5 * Math.exp(-sinceOpen / 15) + 0.8 * Math.exp(-sinceOpen / 90) +
      4.2 * Math.exp(-toClose / 12) + 0.6 * Math.exp(-toClose / 60);
  }
  const sinceClose = minuteOfDay - closeMinuteOfDay;
  return 0.02 + 0.45 * Math.exp(-sinceClose / 8) + 0.08 * Math.exp(-sinceClose / 60);
}

/** Trade intensity of a minute of a trading day: none once the extended session has ended (17:00 after an early close). */
export function dayActivity(day: { closeMinute: number; postCloseMinute: number }, minuteOfDay: number): number {
  return minuteOfDay >= day.postCloseMinute ? 0 : tradeActivity(minuteOfDay, day.closeMinute);
}

/** NBBO updates per trade in a minute (quotes are busier than trades in regular hours). */
export function quotesPerTrade(minuteOfDay: number, closeMinuteOfDay: number): number {
  if (minuteOfDay < OPEN_MINUTE_OF_DAY) return 1.6;
  if (minuteOfDay < closeMinuteOfDay) return 3.7;
  return 1.1;
}

/** Spread of a minute relative to the regular-hours midday spread. */
export function spreadMultiplier(minuteOfDay: number, closeMinuteOfDay: number): number {
  if (minuteOfDay < 420) return 9;
  if (minuteOfDay < 480) return 6.5;
  if (minuteOfDay < OPEN_MINUTE_OF_DAY) return 5;
  if (minuteOfDay < closeMinuteOfDay) {
    const sinceOpen = minuteOfDay - OPEN_MINUTE_OF_DAY;
    return 1 + 1.6 * Math.exp(-sinceOpen / 6) + 0.3 * Math.exp(-sinceOpen / 45);
  }
  const sinceClose = minuteOfDay - closeMinuteOfDay;
  return sinceClose < 2 ? 1.8 : 3 + 2.5 * (1 - Math.exp(-sinceClose / 30));
}

/** Probability that a print in this minute is reported to a FINRA TRF (off-exchange). */
export function trfProbability(minuteOfDay: number, closeMinuteOfDay: number, regularHoursShare: number): number {
  if (minuteOfDay < 480) return 0.03;
  if (minuteOfDay < OPEN_MINUTE_OF_DAY) return 0.22;
  if (minuteOfDay < closeMinuteOfDay) return regularHoursShare;
  return 0.35;
}

/** Whether a minute of day lies in regular hours for a day closing at `closeMinuteOfDay`. */
export function isRegularHours(minuteOfDay: number, closeMinuteOfDay: number): boolean {
  return minuteOfDay >= OPEN_MINUTE_OF_DAY && minuteOfDay < closeMinuteOfDay;
}
