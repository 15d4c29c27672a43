/**
 * Progress of a data call: rows, pages, bytes, rate and (when the total is known) ETA.
 * The notebook helpers render these as a live bar; in a terminal, `terminalProgress` writes
 * one line that updates in place.
 */

/** Where a data call stands, as `onProgress` listeners receive it. */
export interface ProgressEvent {
  /** The dataset's id, e.g. `eq-taq-1min`. */
  dataset: string;
  /** Rows received so far. */
  rows: number;
  /** Pages received so far. */
  pages: number;
  /** Bytes received so far (as sent: compressed when gzip). */
  bytes: number;
  /** Seconds since the call started. */
  elapsedSeconds: number;
  /** Rows per second so far. */
  rowsPerSecond: number;
  /** Rows expected in all, when known (a maxRows bound or an estimate). */
  expectedRows?: number;
  /** Bytes expected in all, when known (an estimate once the first answer arrived). */
  expectedBytes?: number;
  /** Seconds left at the current rate, when the total is known. */
  etaSeconds?: number;
  /**
   * Calls of several tickers (or option roots): those finished (every request of them) and all
   * the call asks for, in one shared event stream; absent for a call of one ticker.
   */
  tickers?: { done: number; total: number };
  /**
   * The wire format the call asks its pages in, when the workbench chose it (the call named no
   * `format`), and why: e.g. `{ format: "csv_gzip", reason: "the line measured 11.8 MB/s ..." }`.
   */
  wireFormat?: { format: "csv" | "csv_gzip"; reason: string };
  /** Present while the call waits, e.g. `{ seconds: 42, reason: "per-minute quota" }`. */
  waiting?: { seconds: number; reason: string };
  /** 0-100 when the total is known. */
  percent?: number;
  /** True in the last event of the call. */
  done: boolean;
  /**
   * In the last event of a call that did not complete: `interrupted` (the kernel's stop button,
   * or the call's own signal) or `failed` (any other error). Absent when the call completed.
   */
  stopped?: "interrupted" | "failed";
}

/** What a call's `onProgress` receives, at each page and each change of state. */
export type ProgressListener = (event: ProgressEvent) => void;

/**
 * A listener that keeps one progress line up to date on a terminal's stderr.
 *
 * @example
 * ```ts
 * import { terminalProgress } from "./workbench/mod.ts";
 * const onProgress = terminalProgress(); // pass as { onProgress } to any data call
 * ```
 */
export function terminalProgress(
  write: (text: string) => void = (t) =>
    void (globalThis as { process?: { stderr: { write: (s: string) => void } } }).process?.stderr.write(t),
): ProgressListener {
  return (e) => {
    const mb = (e.bytes / 1e6).toFixed(1);
    const eta = e.etaSeconds !== undefined && !e.done ? `, ETA ${e.etaSeconds.toFixed(0)} s` : "";
    const tickers = e.tickers ? `, ${e.tickers.done}/${e.tickers.total} tickers` : "";
    const waiting = e.waiting ? `, waiting ${e.waiting.seconds} s for the ${e.waiting.reason}` : "";
    write(
      `\r${e.dataset}: ${e.rows.toLocaleString("en-US")} rows, ${e.pages} page${e.pages === 1 ? "" : "s"}, ${mb} MB, ${
        Math.round(e.rowsPerSecond).toLocaleString("en-US")
      } rows/s${tickers}${eta}${waiting}${e.done ? ` ${e.stopped ?? "done"}\n` : ""}`,
    );
  };
}
