/**
 * The one daily axis of every chart helper: a band of trading days from the project's calendar
 * (no gaps for weekends or holidays), ticked on the first trading day of each week, month or
 * quarter as the span asks, labelled "MM-DD" with the year where the axis starts or crosses one.
 */
import { tradingDays } from "../../workbench/mod.ts";
import { dateTickFormat } from "./dateTicks.ts";

/** The x scale options of a daily axis. */
export interface TradingDayAxis {
  /** Every trading day from the first date to the last ("YYYY-MM-DD"), data days included. */
  domain: string[];
  /** The days that carry a tick. */
  ticks: string[];
  /** Tick text ("MM-DD", the full date at the first tick and at each new year). */
  tickFormat: (d: string) => string;
}

/** At most this many tick labels (each "2023-12-27" is ~60 px at 10 px). */
const MAX_TICKS = 14;

/** The trading days between the first and last of `days`; outside the calendar, the days given. */
function calendarDays(days: string[]): string[] {
  if (days.length === 0) return [];
  try {
    return [...new Set([...tradingDays(days[0], days.at(-1)!), ...days])].sort();
  } catch {
    // Before the calendar's coverage (1990): the data's own days are the axis.
    return days;
  }
}

/** Key of the period a day opens: its ISO week (Monday), month or quarter. */
const PERIODS: [number, (d: string) => string][] = [
  [MAX_TICKS, (d) => d],
  [MAX_TICKS * 5, (d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return new Date(t - ((new Date(t).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
  }],
  [MAX_TICKS * 21, (d) => d.slice(0, 7)],
  [MAX_TICKS * 63, (d) => `${d.slice(0, 4)}Q${Math.floor((Number(d.slice(5, 7)) - 1) / 3)}`],
  [Infinity, (d) => d.slice(0, 4)],
];

/**
 * The daily axis for the dates of a frame (unsorted, repeated: any "YYYY-MM-DD" list).
 *
 * @example
 * ```ts
 * const axis = tradingDayAxis(["2023-11-20", "2023-11-28"]);
 * axis.domain; // ["2023-11-20", "2023-11-21", "2023-11-22", "2023-11-24", "2023-11-27", "2023-11-28"]
 * ```
 */
export function tradingDayAxis(dates: string[]): TradingDayAxis {
  const domain = calendarDays([...new Set(dates)].sort());
  const [, period] = PERIODS.find(([most]) => domain.length <= most)!;
  // The first trading day of each period (a week opening on a holiday ticks on its Tuesday).
  let ticks = domain.filter((d, i) => i === 0 || period(d) !== period(domain[i - 1]));
  // A range starting late in a period: its first day would crowd the next period's tick.
  const spacing = domain.length / Math.max(1, ticks.length);
  if (ticks.length > 2 && domain.indexOf(ticks[1]) < 0.75 * spacing) ticks = ticks.slice(1);
  if (ticks.length > MAX_TICKS) {
    const every = Math.ceil(ticks.length / MAX_TICKS);
    ticks = ticks.filter((_, i) => i % every === 0);
  }
  return { domain, ticks, tickFormat: dateTickFormat(ticks) };
}
