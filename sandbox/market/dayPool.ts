/**
 * Equity days written on worker threads (dayWorker.ts), handed back in day order. Each worker
 * keeps two days queued so it never waits for this thread, which is busy with the option
 * market between results; results that arrive ahead of an earlier day wait for it, so the
 * caller sees days strictly in order whatever the number of workers.
 */
import type { EquityDayInput, EquityDayResult } from "./equityDay.ts";

/** Days queued on each worker at once. */
const QUEUED_PER_WORKER = 2;

type Reply = { index: number; result?: EquityDayResult; error?: string };

/** Whether this runtime can start the generator's worker threads (Deno can; Node runs days in-thread). */
export const canUseWorkers = (): boolean => typeof (globalThis as { Deno?: unknown }).Deno === "object" && typeof Worker === "function";

/**
 * Writes every day of `inputs` on `workers` threads, yielding each day's result in day order.
 * A worker's failure rejects with the day it failed on; every worker is stopped at the end.
 *
 * @example
 * ```ts
 * for await (const result of equityDaysOnWorkers(inputs, 2)) optionsFor(result);
 * ```
 */
export async function* equityDaysOnWorkers(inputs: readonly EquityDayInput[], workers: number): AsyncGenerator<EquityDayResult> {
  const threads = Array.from(
    { length: Math.min(workers, inputs.length) },
    () => new Worker(new URL("./dayWorker.ts", import.meta.url), { type: "module" }),
  );
  const done = new Map<number, EquityDayResult>();
  let next = 0;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const send = (thread: Worker) => {
    if (next < inputs.length) thread.postMessage({ index: next, input: inputs[next++] });
  };
  for (const thread of threads) {
    thread.onmessage = (e: MessageEvent<Reply>) => {
      const { index, result, error } = e.data;
      if (error !== undefined) failure ??= new Error(`Generating the equities of ${inputs[index].day.date} failed: ${error}`);
      else done.set(index, result!);
      send(thread);
      wake?.();
    };
    thread.onerror = (e) => {
      e.preventDefault();
      failure ??= new Error(`A market generation worker failed: ${e.message}`);
      wake?.();
    };
    for (let k = 0; k < QUEUED_PER_WORKER; k++) send(thread);
  }
  try {
    for (let index = 0; index < inputs.length; index++) {
      while (!done.has(index)) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      const result = done.get(index)!;
      done.delete(index);
      yield result;
    }
  } finally {
    for (const thread of threads) thread.terminate();
  }
}
