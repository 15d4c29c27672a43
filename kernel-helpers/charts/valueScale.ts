/** The value (y) axis every helper starts from: room for the extremes, a grid, the caller's label. */
import type { ScaleOptions } from "@observablehq/plot";

/** Pixels kept free above the highest and below the lowest value. */
const ROOM_PX = 8;

/**
 * A y scale whose domain ends on round ticks beyond the data and keeps a few pixels free at
 * each end, so the highest line and the outermost dots are drawn whole, not clipped. `nice`
 * and `ticks` share one count (d3 widens the domain to multiples of the step its ticks use),
 * so the outermost ticks are the domain's ends; the count follows a panel's height in pixels.
 *
 * @example
 * ```ts
 * valueScale("implied vol", { tickFormat: (v: number) => `${v * 100}%` }, 340);
 * ```
 */
export function valueScale(label: string, more: ScaleOptions = {}, panelHeight = 320): ScaleOptions {
  const count = Math.max(3, Math.round((panelHeight - 60) / 40));
  return { label, grid: true, nice: count, ticks: count, insetTop: ROOM_PX, insetBottom: ROOM_PX, ...more };
}
