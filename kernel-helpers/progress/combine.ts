/**
 * One bar for several fetches (tickers, aggregations): each part reports its own events; the
 * bar shows their sum, with the rate and ETA of the whole, and is done when every part is.
 */
import type { ProgressListener } from "../../workbench/mod.ts";
import type { RichProgressEvent } from "./view.ts";

/**
 * Combines the latest event of each part into one.
 *
 * @example
 * ```ts
 * const combine = combiner("eq-taq-1min, 4 tickers", 4, 3840);
 * combine("AAPL", event); // the combined event
 * ```
 */
export function combiner(
  label: string,
  parts: number,
  expectedRows?: number,
): (key: string, event: RichProgressEvent) => RichProgressEvent {
  const latest = new Map<string, RichProgressEvent>();
  const started = performance.now();
  return (key: string, event: RichProgressEvent): RichProgressEvent => {
    latest.set(key, event);
    const all = [...latest.values()];
    const rows = all.reduce((s, e) => s + e.rows, 0);
    const elapsedSeconds = (performance.now() - started) / 1000;
    const rowsPerSecond = rows / Math.max(elapsedSeconds, 1e-3);
    const done = all.length === parts && all.every((e) => e.done);
    const known = all.every((e) => e.expectedRows !== undefined) && all.length === parts;
    const expected = expectedRows ?? (known ? all.reduce((s, e) => s + (e.expectedRows ?? 0), 0) : undefined);
    const waiting = all.find((e) => e.waiting && !e.done)?.waiting;
    // Once every part has ended, the bar ends as the worst of them: failed, else interrupted.
    const stopped = done ? (all.find((e) => e.stopped === "failed") ?? all.find((e) => e.stopped))?.stopped : undefined;
    return {
      dataset: label,
      rows,
      done,
      elapsedSeconds,
      rowsPerSecond,
      expectedRows: expected,
      waiting,
      ...(stopped ? { stopped } : {}),
      pages: all.reduce((s, e) => s + e.pages, 0),
      bytes: all.reduce((s, e) => s + e.bytes, 0),
      tickers: { done: all.filter((e) => e.done).length, total: parts },
      etaSeconds: done ? 0 : expected !== undefined && rowsPerSecond > 0 ? Math.max(0, (expected - rows) / rowsPerSecond) : undefined,
    };
  };
}

/** A listener with a `part(key)` per fetch, for one bar over several fetches. */
export type SharedListener = ProgressListener & { part: (key: string) => ProgressListener };
