/**
 * Progress of a paged fetch: rows, pages, bytes, rate and (when the total is known) ETA.
 * The notebook helpers render these as a live bar; in a terminal, `terminalProgress` writes
 * one line that updates in place.
 */

export interface ProgressEvent {
  dataset: string;
  rows: number;
  pages: number;
  bytes: number;
  elapsedSeconds: number;
  rowsPerSecond: number;
  /** Rows expected in all, when known (a maxRows bound or an estimate). */
  expectedRows?: number;
  /** Bytes expected in all, when known (an estimate once the first answer arrived). */
  expectedBytes?: number;
  /** Seconds left at the current rate, when the total is known. */
  etaSeconds?: number;
  /** Multi-ticker calls: tickers (units) finished and in all, in one shared event stream. */
  tickers?: { done: number; total: number };
  /** Present while the call waits, e.g. `{ seconds: 42, reason: "per-minute quota" }`. */
  waiting?: { seconds: number; reason: string };
  /** 0-100 when the total is known. */
  percent?: number;
  done: boolean;
}

export type ProgressListener = (event: ProgressEvent) => void;

/** Accumulates page arrivals and emits events. */
export class ProgressTracker {
  private rows = 0;
  private pages = 0;
  private bytes = 0;
  private readonly started = performance.now();

  constructor(private readonly dataset: string, private readonly listener?: ProgressListener, private readonly expectedRows?: number) {}

  page(rows: number, bytes: number): void {
    this.rows += rows;
    this.pages++;
    this.bytes += bytes;
    this.emit(false);
  }

  finish(): void {
    this.emit(true);
  }

  private emit(done: boolean): void {
    if (!this.listener) return;
    const elapsedSeconds = (performance.now() - this.started) / 1000;
    const rowsPerSecond = elapsedSeconds > 0 ? this.rows / elapsedSeconds : 0;
    const expected = this.expectedRows !== undefined && Number.isFinite(this.expectedRows) ? this.expectedRows : undefined;
    const etaSeconds = expected !== undefined && rowsPerSecond > 0 ? Math.max(0, (expected - this.rows) / rowsPerSecond) : undefined;
    this.listener({ dataset: this.dataset, rows: this.rows, pages: this.pages, bytes: this.bytes, elapsedSeconds, rowsPerSecond, expectedRows: expected, etaSeconds: done ? 0 : etaSeconds, done });
  }
}

/** A listener that keeps one progress line up to date on a terminal's stderr. */
export function terminalProgress(write: (text: string) => void = (t) => void (globalThis as { process?: { stderr: { write: (s: string) => void } } }).process?.stderr.write(t)): ProgressListener {
  return (e) => {
    const mb = (e.bytes / 1e6).toFixed(1);
    const eta = e.etaSeconds !== undefined && !e.done ? `, ETA ${e.etaSeconds.toFixed(0)} s` : "";
    const tickers = e.tickers ? `, ${e.tickers.done}/${e.tickers.total} tickers` : "";
    const waiting = e.waiting ? `, waiting ${e.waiting.seconds} s for the ${e.waiting.reason}` : "";
    write(`\r${e.dataset}: ${e.rows.toLocaleString("en-US")} rows, ${e.pages} pages, ${mb} MB, ${Math.round(e.rowsPerSecond).toLocaleString("en-US")} rows/s${tickers}${eta}${waiting}${e.done ? " done\n" : ""}`);
  };
}
