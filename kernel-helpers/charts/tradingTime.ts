/**
 * A trading-time axis for intraday data over several days: each trading day of the calendar
 * gets the same width (the hours the data covers on any day, e.g. 04:00-20:00 or 09:30-16:00),
 * days follow one another with no night, weekend or holiday between them, and ticks sit at the
 * session opens of the days the trading-day axis would tick (every day over a week, the first of
 * each week or month over longer spans). Minute bars over three months then fill the axis
 * instead of a tenth of it.
 */
import { minuteOfDay } from "./frameData.ts";
import { dayOf, sessionsBetween } from "./session.ts";
import { tradingDayAxis } from "./tradingDayAxis.ts";

/** One day's regular session on the axis. */
export interface SessionSpan {
  /** The trading day, YYYY-MM-DD. */
  date: string;
  /** Where its regular session opens and closes on the axis. */
  x1: number;
  /** Where it closes on the axis. */
  x2: number;
  /** Whether the session closes early (13:00). */
  earlyClose: boolean;
}

/** A trading-time axis: where each instant goes, its ticks, and each day's session. */
export interface TradingTime {
  /** The position of a New York wall-clock instant (as UTC) on the axis. */
  position: (d: Date) => number;
  /** The x scale options: linear over the days, ticked at session opens. */
  scale: { type: "linear"; domain: [number, number]; ticks: number[]; tickFormat: (x: number) => string };
  /** Each trading day's regular session on the axis (for shading). */
  sessions: SessionSpan[];
}

/** The minutes of a day the axis shows: from the earliest point's minute to the latest's end (one typical step after it). */
function dayWindow(minutes: number[]): [number, number] {
  const sorted = [...new Set(minutes)].sort((a, b) => a - b);
  const steps = sorted.slice(1).map((m, i) => m - sorted[i]).sort((a, b) => a - b);
  const step = steps.length ? steps[Math.floor(steps.length / 2)] : 1;
  return [sorted[0], Math.min(24 * 60, sorted.at(-1)! + step)];
}

/**
 * Whether the instants span more than one New York day (a trading-time axis then applies).
 *
 * @example
 * ```ts
 * spansDays([new Date("2023-11-22T09:30:00Z"), new Date("2023-11-24T09:30:00Z")]); // true
 * ```
 */
export const spansDays = (xs: readonly Date[]) => xs.length > 0 && xs.some((d) => dayOf(d) !== dayOf(xs[0]));

/**
 * The trading-time axis of New York wall-clock instants (as UTC, the charts' convention).
 *
 * @example
 * ```ts
 * const axis = tradingTime(bars.map((r) => r.BarDateTime as Date));
 * axis.position(new Date("2023-11-24T09:30:00Z")); // the 2023-11-24 session open, right after 2023-11-22's day
 * ```
 */
export function tradingTime(xs: readonly Date[]): TradingTime {
  const days = [...new Set(xs.map(dayOf))].sort();
  const calendar = sessionsBetween(days[0], days.at(-1)!);
  // The calendar's trading days, and any day of the data it does not list (a weekend print).
  const all = [...new Set([...calendar.map((d) => d.date), ...days])].sort();
  const index = new Map(all.map((d, i) => [d, i]));
  const [from, to] = dayWindow(xs.map(minuteOfDay));
  const width = to - from;
  const at = (day: string, minute: number) => index.get(day)! * width + Math.max(0, Math.min(width, minute - from));
  const position = (d: Date) => at(dayOf(d), minuteOfDay(d));
  const sessions = calendar.map((d) => ({
    date: d.date,
    x1: at(d.date, d.openMinute),
    x2: at(d.date, d.closeMinute),
    earlyClose: d.earlyClose,
  }))
    .filter((s) => s.x2 > s.x1);
  const opens = new Map(calendar.map((d) => [d.date, at(d.date, d.openMinute)]));
  // Ticks on the days the daily axis ticks, each at its session open (the day's start without one).
  const daily = tradingDayAxis(all);
  const ticks = daily.ticks.map((d) => opens.get(d) ?? at(d, from));
  const dayAt = new Map(daily.ticks.map((d, i) => [ticks[i], d]));
  const tickFormat = (x: number) => {
    const day = dayAt.get(x) ?? all[Math.min(all.length - 1, Math.floor(x / width))];
    return daily.tickFormat(day);
  };
  return { position, scale: { type: "linear", domain: [0, all.length * width], ticks, tickFormat }, sessions };
}
