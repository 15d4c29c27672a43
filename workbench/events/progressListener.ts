/**
 * A call's `onProgress`, fed from the call's event stream: one progress stream for the whole
 * call however many units it fetches at once.
 */
import { CallProgress } from "../progress/callProgress.ts";
import type { ProgressListener } from "../progress/progress.ts";
import type { CallListener } from "./callEvents.ts";

/**
 * The event listener that reports a call's progress to `onProgress`.
 *
 * @example
 * ```ts
 * const listener = progressListener("eq-taq-1min", (e) => console.log(e.rows, e.done));
 * ```
 */
export function progressListener(dataset: string, onProgress: ProgressListener): CallListener {
  let progress: CallProgress | undefined;
  return (event) => {
    if (event.type === "prepared") progress = new CallProgress(dataset, Math.max(1, event.requests.length), onProgress);
    if (!progress) return;
    if (event.type === "page") progress.page(event.unit, event.frame.height, event.bytes);
    else if (event.type === "unit-done") progress.unitDone(event.unit, event.frame.height);
    else if (event.type === "waiting") progress.wait(event.seconds, event.reason);
    else if (event.type === "expected") progress.expect(event.rows, event.bytes);
    else if (event.type === "ended") progress.finish();
  };
}
