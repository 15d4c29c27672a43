/**
 * Axes that keep daily expiries readable beside two-year ones. Days to expiry go on a symlog
 * scale (log(1 + days)): 0, 1 and 2 days apart get as much room as 90 and 180 days, where a
 * linear date axis squeezes a month of SPY dailies into its left 5%. Ticks sit on familiar
 * tenors, thinned so labels never touch.
 */
import { DEFAULT_WIDTH } from "./render.ts";

/** Tenors in calendar days that may carry a tick: days, weeks, months, years. */
const TENORS = [0, 1, 2, 3, 5, 7, 10, 14, 21, 30, 45, 60, 90, 120, 180, 270, 365, 540, 730, 1095, 1460, 1825, 2555, 3650];

/** Least distance between two tick labels, in pixels. */
const MIN_GAP_PX = 36;

/**
 * The x scale options for days to expiry from `min` to `max` days, on a chart `width` wide.
 *
 * @example
 * ```ts
 * daysToExpiryScale(0, 760); // { type: "symlog", ticks: [0, 1, 2, 3, 5, 7, 10, 14, 21, 30, 45, 60, 90, 180, 365, 730] ...
 * ```
 */
export function daysToExpiryScale(min: number, max: number, width = DEFAULT_WIDTH): { type: "symlog"; ticks: number[] } {
  const f = (d: number) => Math.sign(d) * Math.log1p(Math.abs(d));
  const pxPerUnit = (width - 100) / Math.max(1e-9, f(max) - f(min));
  const ticks: number[] = [];
  for (const t of TENORS.filter((t) => t >= Math.floor(min) && t <= Math.ceil(max))) {
    if (ticks.length === 0 || (f(t) - f(ticks.at(-1)!)) * pxPerUnit >= MIN_GAP_PX) ticks.push(t);
  }
  return { type: "symlog", ticks };
}

/** Calendar days from `from` to `to` (instants at midnight UTC, as Date columns read). */
export const daysBetween = (from: Date, to: Date) => Math.round((to.getTime() - from.getTime()) / 86_400_000);

/**
 * At most `most` of `values` (sorted), evenly picked, the first always: tick labels for a band
 * of expiries that would otherwise overlap.
 *
 * @example
 * ```ts
 * thinned(["2023-12-01", "2023-12-04", "2023-12-05", "2023-12-06"], 2); // ["2023-12-01", "2023-12-05"]
 * ```
 */
export function thinned<T>(values: T[], most: number): T[] {
  const every = Math.max(1, Math.ceil(values.length / most));
  return values.filter((_, i) => i % every === 0);
}
