/**
 * A live progress bar for the workbench's progress events: one output in the notebook, updated
 * in place; one line on a terminal. One bar can follow several fetches (`bar.part(key)`).
 */
import type { ProgressEvent, ProgressListener } from "../../workbench/mod.ts";
import { inKernel, showBundle } from "../display/jupyter.ts";
import { combiner, type SharedListener } from "./combine.ts";
import { progressBundle, progressLine, type RichProgressEvent } from "./view.ts";

let bars = 0;

/** How `progressBar` labels and renders its bar, and how many fetches it follows. */
export interface ProgressBarOptions {
  /** Text before the status, for a bar over several fetches (default: the dataset). */
  label?: string;
  /** Fetches the bar follows with `part(key)` (default 1). */
  parts?: number;
  /** Rows expected over all parts, when you know them (e.g. from `wb.estimate`). */
  expectedRows?: number;
  /** Where the terminal line goes (default stderr). */
  write?: (text: string) => void;
}

/** Renders events in the notebook (one output, updated) or as a terminal line. */
function renderer(write?: (text: string) => void): (e: RichProgressEvent) => void {
  if (!inKernel() || write) {
    const out = write ??
      ((t: string) => void (globalThis as { process?: { stderr: { write: (s: string) => void } } }).process?.stderr.write(t));
    return (e) => out(`\r${progressLine(e)}${e.done ? "\n" : ""}`);
  }
  const displayId = `wb-progress-${Date.now()}-${bars++}`;
  let shown = false;
  let pending = Promise.resolve();
  return (event) => {
    const update = shown;
    shown = true;
    // Keep updates in order: each waits for the previous one to reach the kernel. A failed
    // update is dropped rather than left rejecting the chain, which would freeze the bar.
    pending = pending.then(() => showBundle(progressBundle(event), { displayId, update })).catch(() => {});
  };
}

/**
 * Counts a quota wait down once a second between events (the workbench reports the wait once,
 * then is silent until the next page), so the bar never looks frozen.
 */
function withCountdown(render: (e: RichProgressEvent) => void): (e: RichProgressEvent) => void {
  let timer: ReturnType<typeof setInterval> | undefined;
  return (event) => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    render(event);
    const waiting = event.waiting;
    if (!waiting || event.done || waiting.seconds <= 1) return;
    const started = Date.now();
    timer = setInterval(() => {
      const left = waiting.seconds - (Date.now() - started) / 1000;
      if (left <= 0.5) {
        clearInterval(timer);
        timer = undefined;
        return;
      }
      render({ ...event, waiting: { ...waiting, seconds: left } });
    }, 1000);
    // A countdown must never keep a script alive by itself.
    (timer as unknown as { unref?: () => void }).unref?.();
  };
}

/**
 * A progress listener that renders a live bar in the notebook (a line on a terminal). Pass
 * `parts` and use `bar.part(key)` per fetch to follow several fetches with one bar.
 *
 * @example
 * ```ts
 * const bars = await wb.data.eqTaq1Min("AAPL", { onProgress: progressBar() });
 * const tickers = ["AAPL", "MSFT", "SPY", "QQQ"];
 * const bar = progressBar({ label: "eq-taq-1min, 4 tickers", parts: 4 });
 * await Promise.all(tickers.map((t) => wb.data.eqTaq1Min(t, { onProgress: bar.part(t) })));
 * ```
 */
export function progressBar(options: ProgressBarOptions = {}): SharedListener {
  const render = withCountdown(renderer(options.write));
  const parts = options.parts ?? 1;
  const combine = parts > 1 ? combiner(options.label ?? "progress", parts, options.expectedRows) : undefined;
  const single: ProgressListener = (e: ProgressEvent) => {
    render({ ...e, dataset: options.label ?? e.dataset, expectedRows: e.expectedRows ?? options.expectedRows });
  };
  const listener = (combine ? (event: ProgressEvent) => render(combine("", event)) : single) as SharedListener;
  listener.part = (key: string) => (combine ? (event: ProgressEvent) => render(combine(key, event)) : single);
  return listener;
}
