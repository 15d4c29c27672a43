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
  const count = tickCount(panelHeight);
  return { label, grid: true, nice: count, ticks: count, insetTop: ROOM_PX, insetBottom: ROOM_PX, ...more };
}

/** Round ticks over a range: their step (1, 2 or 5 times a power of ten), the ticks, and the domain they end. */
export interface NiceTicks {
  /** The distance between two ticks. */
  step: number;
  /** The ticks, ascending. */
  ticks: number[];
  /** The domain the ticks span: from the first tick to the last. */
  domain: [number, number];
}

/** d3's step for about `count` ticks over `span`: 1, 2 or 5 times a power of ten. */
function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const error = raw / power;
  return power * (error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.sqrt(2) ? 2 : 1);
}

/**
 * About `count` round ticks from below `lo` to above `hi`, as a linear axis made nice draws them
 * (a flat range is widened around its value).
 *
 * @example
 * ```ts
 * niceTicks(171.2, 208.9, 5); // { step: 10, ticks: [170, 180, 190, 200, 210], domain: [170, 210] }
 * ```
 */
export function niceTicks(lo: number, hi: number, count: number): NiceTicks {
  if (!(hi > lo)) [lo, hi] = lo === 0 ? [-1, 1] : [lo - Math.abs(lo) * 0.05, hi + Math.abs(hi) * 0.05];
  let step = niceStep(hi - lo, count);
  let domain: [number, number] = [Math.floor(lo / step) * step, Math.ceil(hi / step) * step];
  // Once widened to whole steps the span may ask for a coarser step (d3 nices twice, too).
  step = niceStep(domain[1] - domain[0], count);
  domain = [Math.floor(lo / step) * step, Math.ceil(hi / step) * step];
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  const ticks = Array.from(
    { length: Math.round((domain[1] - domain[0]) / step) + 1 },
    (_, i) => Number((domain[0] + i * step).toFixed(digits)),
  );
  return { step, ticks, domain };
}

/**
 * The tick count of a value axis `panelHeight` pixels tall (what `valueScale` gives `nice` and `ticks`).
 *
 * @example
 * ```ts
 * tickCount(320); // 7
 * ```
 */
export const tickCount = (panelHeight: number) => Math.max(3, Math.round((panelHeight - 60) / 40));
