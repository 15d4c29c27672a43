/**
 * A call's `onProgress`, fed from the call's event stream: one progress stream for the whole
 * call however many units it fetches at once. The first event comes at once, before any
 * request (nothing fetched, no total yet), so a bar shows while the call's checks and first
 * page are under way; the last says the call is done, or that it was interrupted or failed.
 */
import { InterruptedError } from "../errors/interrupted.ts";
import { CallProgress } from "../progress/callProgress.ts";
import type { ProgressListener } from "../progress/progress.ts";
import type { CallListener } from "./callEvents.ts";

/**
 * The event listener that reports a call's progress to `onProgress`. With `units` (the
 * requests the call will send, when its plan knows them, and the tickers each asks for) the
 * first event is reported at once; without, when the call's requests are prepared.
 *
 * @example
 * ```ts
 * const listener = progressListener("eq-taq-1min", (e) => console.log(e.rows, e.done), 2);
 * ```
 */
export function progressListener(
  dataset: string,
  onProgress: ProgressListener,
  units?: number,
  tickers?: readonly (readonly string[])[],
): CallListener {
  let progress: CallProgress | undefined;
  const begin = (count: number, perUnit?: readonly (readonly string[])[]) => {
    progress = new CallProgress(dataset, Math.max(1, count), onProgress);
    if (perUnit) progress.tickers(perUnit);
    progress.start();
  };
  if (units !== undefined) begin(units, tickers);
  return (event) => {
    if (event.type === "prepared" && (!progress || Math.max(1, event.requests.length) !== Math.max(1, units ?? -1))) {
      begin(event.requests.length);
    }
    if (!progress) return;
    // Progress counts what the call asked for: its tickers, however many requests each takes.
    if (event.type === "prepared") progress.tickers(event.requests.map((r) => r.tickers?.asked ?? []));
    if (event.type === "page") progress.page(event.unit, event.frame.height, event.bytes);
    else if (event.type === "unit-done") progress.unitDone(event.unit, event.frame.height);
    else if (event.type === "waiting") progress.wait(event.seconds, event.reason);
    else if (event.type === "wire-format") progress.wireFormat(event.format, event.reason);
    else if (event.type === "expected") progress.expect(event.rows, event.bytes);
    else if (event.type === "ended") progress.finish();
    else if (event.type === "failed") progress.stop(event.error instanceof InterruptedError ? "interrupted" : "failed");
  };
}
