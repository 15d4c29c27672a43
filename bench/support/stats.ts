/**
 * The small figures every benchmark prints: the median of its rounds and the machine's load.
 */
import { loadavg } from "node:os";

/**
 * The median of `xs` (for an even count, the upper of the two middle values); NaN when empty.
 *
 * @example
 * ```ts
 * median([3, 1, 2]); // 2
 * ```
 */
export function median(xs: readonly number[]): number {
  return xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/**
 * The load average over 1, 5 and 15 minutes, as `uptime` shows it: "1.2 0.8 0.5".
 *
 * @example
 * ```ts
 * console.log(`load average at start: ${loadAverages()}`);
 * ```
 */
export function loadAverages(): string {
  return loadavg().map((x) => x.toFixed(1)).join(" ");
}
