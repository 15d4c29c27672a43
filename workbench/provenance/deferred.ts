/**
 * Recording's hashing, run when the event loop has nothing more urgent to do. A data call
 * spends most of its time waiting for the service; hashing its pages inline (before the pager
 * asks for the next page, before the call returns its frame) put that work on the call's
 * critical path. Deferred, it runs in the waits instead: each task is one `setImmediate`
 * turn, so answers that arrive in between are read first, and a call returns its frame
 * without waiting for its own record. Tasks run in the order they were deferred (a call's
 * pages before its record). Anything that reads records (`wb.provenance()`, the notebook
 * runner's collecting cell) calls `runDeferred()` first, which runs what is left at once; so
 * does the process's exit (a kernel shut down right after a failing cell still journals the
 * records of the calls before it).
 */

import process from "node:process";
import { setImmediate } from "node:timers";

const queue: (() => void)[] = [];
let scheduled = false;
let exitHooked = false;

/**
 * Tasks that may wait at once. Each holds a page or a unit's frame until it runs, and a main
 * thread with no waits (a download writing Parquet while answers keep coming) would let them
 * pile up, and their frames with them, in a download of millions of rows. Past this many, the
 * oldest runs at once, as if hashed on the call's path.
 */
const MAX_QUEUED = 4;

function schedule(): void {
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", () => runDeferred());
  }
  if (scheduled || queue.length === 0) return;
  scheduled = true;
  setImmediate(runOne);
}

function run(task: () => void): void {
  try {
    task();
  } catch (error) {
    // Nothing awaits a deferred task, so its failure is told here (the record it was to
    // complete is then missing from the manifest, which --verify reports).
    console.warn(`provenance: a deferred recording task failed: ${(error as Error)?.message ?? error}`);
  }
}

function runOne(): void {
  scheduled = false;
  const task = queue.shift();
  if (task) run(task);
  schedule();
}

/**
 * Runs `task` at a later turn of the event loop, after the tasks deferred before it (at once,
 * the oldest first, when more than a few are waiting).
 *
 * @example
 * ```ts
 * defer(() => hashes.set(offset, rowHashBytes(page))); // the pager goes on asking at once
 * ```
 */
export function defer(task: () => void): void {
  queue.push(task);
  while (queue.length > MAX_QUEUED) run(queue.shift()!);
  schedule();
}

/**
 * Runs every deferred task now, in order (tasks deferred meanwhile included).
 *
 * @example
 * ```ts
 * runDeferred(); // then every finished call's record is complete
 * ```
 */
export function runDeferred(): void {
  while (queue.length > 0) run(queue.shift()!);
}
