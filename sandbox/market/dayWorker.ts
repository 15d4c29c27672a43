/**
 * A worker thread of market generation (started by dayPool.ts): writes the equity days it is
 * sent, one at a time in the order they arrive, and answers each with its result.
 *
 * Messages: in `{ index, input }` (an EquityDayInput); out `{ index, result }` or
 * `{ index, error }` (the failure's stack: the pool fails the generation with it).
 */
/// <reference lib="deno.worker" />
import { type EquityDayInput, writeEquityDay } from "./equityDay.ts";

self.onmessage = (event: MessageEvent<{ index: number; input: EquityDayInput }>) => {
  const { index, input } = event.data;
  try {
    self.postMessage({ index, result: writeEquityDay(input) });
  } catch (e) {
    self.postMessage({ index, error: (e as Error).stack ?? String(e) });
  }
};
