/**
 * Warnings the workbench attached to a frame (a ticker with no rows, a list member missing, a
 * partial answer), read from the shared registry so display needs no import of the writer.
 */
const KEY = Symbol.for("market-workbench.frameWarnings");

/**
 * The warnings recorded for `frame` (empty when none).
 *
 * @example
 * ```ts
 * storedWarnings(bars); // ["MSFT: no rows for 2023-11-23 (market closed: Thanksgiving)"]
 * ```
 */
export function storedWarnings(frame: object): string[] {
  const registry = (globalThis as Record<symbol, unknown>)[KEY];
  return registry instanceof WeakMap ? ((registry.get(frame) as string[] | undefined) ?? []) : [];
}
