/**
 * Warnings attached to a frame: an answer that is empty or partial says why, on the frame and
 * in the notebook, without throwing. They live in one WeakMap shared through a global symbol
 * (`Symbol.for("market-workbench.frameWarnings")`), so copies of this module loaded from
 * different paths in one kernel see the same warnings (the notebook display reads them with
 * `frameWarnings`), and a frame dropped by the user frees its warnings.
 */
import type pl from "nodejs-polars";

const KEY = Symbol.for("market-workbench.frameWarnings");

function registry(): WeakMap<object, string[]> {
  const g = globalThis as unknown as Record<symbol, WeakMap<object, string[]> | undefined>;
  return (g[KEY] ??= new WeakMap<object, string[]>());
}

/**
 * Attaches warnings to a frame and prints each with console.warn; returns the frame.
 *
 * @example
 * ```ts
 * const df = addFrameWarnings(frame, ["MSFTT is absent from the result of eq-daily-ohlc"]);
 * ```
 */
export function addFrameWarnings<T extends object>(frame: T, messages: readonly string[]): T {
  if (messages.length === 0) return frame;
  const map = registry();
  map.set(frame, [...(map.get(frame) ?? []), ...messages]);
  for (const m of messages) console.warn(`Warning: ${m}`);
  return frame;
}

/**
 * The warnings the workbench attached to a frame (a known ticker with no rows, a list member
 * absent from the result, a partial answer); `[]` when there are none.
 *
 * @example
 * ```ts
 * const bars = await wb.data.eqTaq1Min(["SPY", "QQQ"], { start: "2023-11-20", end: "2023-11-24" });
 * frameWarnings(bars); // e.g. ["QQQ has no rows in eq-taq-1min from 2023-11-20 to 2023-11-24"]
 * ```
 */
export function frameWarnings(frame: pl.DataFrame | object): string[] {
  return [...(registry().get(frame) ?? [])];
}
