/**
 * A live progress bar for the workbench's progress events: one output in the notebook,
 * updated in place (rows, pages, MB, rate, ETA when known); a progress line on a terminal.
 */
import type { ProgressEvent, ProgressListener } from "../../workbench/mod.ts";
import { terminalProgress } from "../../workbench/mod.ts";
import { inKernel, type MediaBundle, showBundle } from "../display/jupyter.ts";

let bars = 0;

function bundle(e: ProgressEvent): MediaBundle {
  const fraction = e.done ? 1 : e.expectedRows ? Math.min(1, e.rows / e.expectedRows) : undefined;
  const rate = `${Math.round(e.rowsPerSecond).toLocaleString("en-US")} rows/s`;
  const eta = e.etaSeconds !== undefined && !e.done ? `, ETA ${Math.ceil(e.etaSeconds)} s` : "";
  const text = `${e.dataset}: ${e.rows.toLocaleString("en-US")} rows, ${e.pages} pages, ${(e.bytes / 1e6).toFixed(1)} MB, ${rate}${eta}${e.done ? ", done" : ""}`;
  // Without a known total the bar sweeps (indeterminate) until done.
  const width = fraction === undefined ? 100 : Math.round(fraction * 100);
  const fill = fraction === undefined ? "repeating-linear-gradient(45deg,#9ecae1 0 8px,#c6dbef 8px 16px)" : e.done ? "#31a354" : "#3182bd";
  const html = `<div style="font:12px sans-serif;max-width:520px"><div style="background:#eee;border-radius:3px;height:10px;overflow:hidden"><div style="width:${width}%;height:100%;background:${fill}"></div></div><div style="margin-top:3px;color:#333">${text}</div></div>`;
  return { "text/html": html, "text/plain": text };
}

/**
 * A progress listener that renders a live bar in the notebook (or a line on a terminal).
 *
 * @example
 * ```ts
 * const bars = await wb.data.eqTaq1Min("AAPL", { onProgress: progressBar() });
 * ```
 */
export function progressBar(): ProgressListener {
  if (!inKernel()) return terminalProgress();
  const displayId = `wb-progress-${Date.now()}-${bars++}`;
  let shown = false;
  let pending = Promise.resolve();
  return (event) => {
    const update = shown;
    shown = true;
    // Keep updates in order: each waits for the previous one to reach the kernel. A failed
    // update is dropped rather than left rejecting the chain, which would freeze the bar.
    pending = pending.then(() => showBundle(bundle(event), { displayId, update })).catch(() => {});
  };
}
