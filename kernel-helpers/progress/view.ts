/**
 * How one progress event reads: "starting" with a sweeping bar before the first page, a
 * determinate bar (percent, rows of the total, MiB, rate, ETA) once the total is known, a
 * sweeping bar before, an amber "waiting N s for the per-minute
 * quota" state while the workbench waits, green when done, grey when interrupted (the stop
 * button) and red when failed, at the counts reached; in a terminal, the same on one line.
 */
import type { ProgressEvent } from "../../workbench/mod.ts";
import { formatBytes } from "../display/bytes.ts";
import { escapeHtml } from "../display/html.ts";
import type { MediaBundle } from "../display/jupyter.ts";

/** The workbench's progress event; its optional fields (totals, ETA, tickers, waits) are shown when present. Kept as a name for existing imports. */
export type RichProgressEvent = ProgressEvent;

const n = (x: number) => Math.round(x).toLocaleString("en-US");

/** Percent done (0-100), when the total is known. */
function percentOf(e: RichProgressEvent): number | undefined {
  if (e.done && !e.stopped) return 100;
  if (e.percent !== undefined) return Math.max(0, Math.min(100, e.percent));
  if (e.expectedRows) return Math.min(100, (100 * e.rows) / e.expectedRows);
  return undefined;
}

function duration(seconds: number): string {
  const s = Math.ceil(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** The parts of the status line, in reading order. */
function parts(e: RichProgressEvent, percent: number | undefined): string[] {
  const rows = e.expectedRows ? `${n(e.rows)} of ${n(e.expectedRows)} rows` : `${n(e.rows)} rows`;
  const out = [
    ...(percent !== undefined ? [`${Math.floor(percent)}%`] : []),
    rows,
    ...(e.tickers ? [`${e.tickers.done} of ${e.tickers.total} tickers`] : []),
    `${e.pages} page${e.pages === 1 ? "" : "s"}`,
    formatBytes(e.bytes),
    `${n(e.rowsPerSecond)} rows/s`,
  ];
  if (e.waiting && !e.done) out.push(`waiting ${Math.ceil(e.waiting.seconds)} s for the ${e.waiting.reason}`);
  else if (e.etaSeconds !== undefined && !e.done && percent !== undefined) out.push(`ETA ${duration(e.etaSeconds)}`);
  if (e.done) out.push(e.stopped ? `${e.stopped} after ${duration(e.elapsedSeconds)}` : `done in ${duration(e.elapsedSeconds)}`);
  return out;
}

/** The status line (also the plain-text part of the notebook bar). */
function progressText(e: RichProgressEvent): string {
  if (!e.done && !e.waiting && e.pages === 0 && e.rows === 0) {
    return `${e.dataset}: starting${e.tickers ? `, ${e.tickers.total} tickers` : ""}, waiting for the first page`;
  }
  // The workbench's own choice of csv_gzip is news (bytes cost more than CPU here); plain CSV is not.
  const wire = e.wireFormat?.format === "csv_gzip" ? ", csv_gzip" : "";
  return `${e.dataset}: ${parts(e, percentOf(e)).join(", ")}${wire}`;
}

/**
 * The notebook bar for an event.
 *
 * @example
 * ```ts
 * progressBundle({ dataset: "eq-taq-1min", rows: 500, expectedRows: 1000, pages: 1, bytes: 1e5, elapsedSeconds: 1, rowsPerSecond: 500, done: false });
 * ```
 */
export function progressBundle(e: RichProgressEvent): MediaBundle {
  const percent = percentOf(e);
  const waiting = e.waiting !== undefined && !e.done;
  // Without a known total the bar sweeps (indeterminate) until done; waiting is amber.
  const stopped = e.done ? e.stopped : undefined;
  const width = stopped && percent === undefined ? 0 : percent === undefined ? 100 : Math.max(percent, 0.5);
  const fill = stopped === "interrupted"
    ? "#969696"
    : stopped === "failed"
    ? "#de2d26"
    : e.done
    ? "#31a354"
    : waiting
    ? "repeating-linear-gradient(45deg,#fdae6b 0 8px,#fdd0a2 8px 16px)"
    : percent === undefined
    ? "repeating-linear-gradient(45deg,#9ecae1 0 8px,#c6dbef 8px 16px)"
    : "#3182bd";
  const state = stopped ?? (e.done ? "done" : waiting ? "waiting" : percent === undefined ? "indeterminate" : "determinate");
  const text = progressText(e);
  const html = `<div class="wb-progress wb-progress-${state}"${
    e.wireFormat ? ` title="${escapeHtml(`${e.wireFormat.format}: ${e.wireFormat.reason}`)}"` : ""
  } style="font:12px sans-serif;max-width:620px"><div style="background:#eee;border-radius:3px;height:10px;overflow:hidden"><div style="width:${
    width.toFixed(1)
  }%;height:100%;background:${fill}"></div></div><div style="margin-top:3px;color:${waiting ? "#a63603" : "#333"}">${
    escapeHtml(text)
  }</div></div>`;
  return { "text/html": html, "text/plain": text };
}

/**
 * The terminal line: a 20-cell bar when the total is known, then the same status.
 *
 * @example
 * ```ts
 * const bars = await wb.data.eqTaq1Min("AAPL", { onProgress: (event) => Deno.stderr.writeSync(new TextEncoder().encode(`\r${progressLine(event)}`)) });
 * ```
 */
export function progressLine(e: RichProgressEvent): string {
  const percent = percentOf(e);
  const bar = percent === undefined ? "" : `[${"#".repeat(Math.round(percent / 5)).padEnd(20, "-")}] `;
  return `${bar}${progressText(e)}`;
}
