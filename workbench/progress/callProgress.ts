/**
 * One progress stream for a whole call, however many units (requests) it fetches at once:
 * rows, pages and bytes summed over the units, the tickers asked for done of total (a ticker
 * is done when every unit of it is: a download of 10 tickers in 3 chunks each is 10 tickers,
 * not 30), the expected totals once known, and waits for the per-minute quota.
 */
import type { ProgressEvent, ProgressListener } from "./progress.ts";

interface UnitCount {
  rows: number;
  pages: number;
  bytes: number;
}

/**
 * Sums a call's progress over its units and reports it to the call's listener.
 *
 * @example
 * ```ts
 * const progress = new CallProgress("eq-taq-1min", 2, (e) => console.log(e.rows));
 * progress.page(0, 960, 120_000);
 * progress.unitDone(0, 960);
 * ```
 */
export class CallProgress {
  private readonly counts: UnitCount[];
  private unitsDone = 0;
  private readonly done = new Set<number>();
  /** The units of each ticker asked for, once known. */
  private unitsOfTicker = new Map<string, number[]>();
  private expectedRows?: number;
  private expectedBytes?: number;
  private waiting?: { seconds: number; reason: string };
  private wire?: { format: "csv" | "csv_gzip"; reason: string };
  private readonly started = performance.now();

  /** Progress of a call of `units` units of `dataset`, told to `listener` (none: counted, not told). */
  constructor(private readonly dataset: string, private readonly units: number, private readonly listener?: ProgressListener) {
    this.counts = Array.from({ length: units }, () => ({ rows: 0, pages: 0, bytes: 0 }));
  }

  /** The call started: an event with nothing fetched yet, so a bar shows at once (indeterminate until a total is known). */
  start(): void {
    this.emit(false);
  }

  /** Unit `index` received a page of `rows` rows in `bytes` bytes. */
  page(index: number, rows: number, bytes: number): void {
    const c = this.counts[index];
    this.counts[index] = { rows: c.rows + rows, pages: c.pages + 1, bytes: c.bytes + bytes };
    this.waiting = undefined;
    this.emit(false);
  }

  /** The tickers (or option roots) each unit asks for, in unit order: what the call counts as done. */
  tickers(perUnit: readonly (readonly string[])[]): void {
    this.unitsOfTicker = new Map();
    perUnit.forEach((list, i) => {
      for (const t of list) {
        const units = this.unitsOfTicker.get(t);
        if (units) units.push(i);
        else this.unitsOfTicker.set(t, [i]);
      }
    });
  }

  /** A unit finished (fetched or read from the cache), with its final counts when known. */
  unitDone(index: number, rows?: number): void {
    this.unitsDone++;
    this.done.add(index);
    if (rows !== undefined) this.counts[index].rows = rows;
    this.emit(false);
  }

  /** Totals projected once the first answer arrived. */
  expect(rows: number, bytes: number): void {
    this.expectedRows = rows;
    this.expectedBytes = bytes;
  }

  /** The call is waiting (`seconds` left) for `reason`, e.g. "per-minute quota". */
  wait(seconds: number, reason: string): void {
    this.waiting = { seconds, reason };
    this.emit(false);
    this.waiting = undefined;
  }

  /**
   * The call asks its pages in `format` (chosen by the workbench), for `reason`: said with the
   * next page's progress, not as an update of its own (a bar would redraw with nothing new).
   */
  wireFormat(format: "csv" | "csv_gzip", reason: string): void {
    this.wire = { format, reason };
  }

  /** The call completed: the last event, marked done. */
  finish(): void {
    this.emit(true);
  }

  /** The call ended without completing: the last event, with the counts reached. */
  stop(reason: "interrupted" | "failed"): void {
    this.emit(true, reason);
  }

  /** Tells the listener where the call stands. */
  private emit(done: boolean, stopped?: "interrupted" | "failed"): void {
    if (!this.listener) return;
    const sum = this.counts.reduce((a, c) => ({ rows: a.rows + c.rows, pages: a.pages + c.pages, bytes: a.bytes + c.bytes }), {
      rows: 0,
      pages: 0,
      bytes: 0,
    });
    const elapsedSeconds = (performance.now() - this.started) / 1000;
    const rowsPerSecond = elapsedSeconds > 0 ? sum.rows / elapsedSeconds : 0;
    // Share done: by rows when the total is projected, else by units finished.
    // Nothing fetched yet: no share, so the bar is indeterminate until a total is known.
    const started = sum.pages > 0 || this.unitsDone > 0;
    let share = this.expectedRows
      ? Math.min(1, sum.rows / this.expectedRows)
      : this.units > 1 && started
      ? this.unitsDone / this.units
      : undefined;
    if (done && !stopped) share = 1;
    const etaSeconds = share !== undefined && share > 0 ? (elapsedSeconds * (1 - share)) / share : undefined;
    const event: ProgressEvent = {
      dataset: this.dataset,
      ...sum,
      elapsedSeconds,
      rowsPerSecond,
      expectedRows: done && !stopped ? sum.rows : this.expectedRows,
      expectedBytes: done && !stopped ? sum.bytes : this.expectedBytes,
      etaSeconds: done ? 0 : etaSeconds,
      percent: share !== undefined ? Math.round(share * 1000) / 10 : undefined,
      tickers: this.tickerCounts(),
      waiting: this.waiting,
      ...(this.wire ? { wireFormat: this.wire } : {}),
      done,
      ...(stopped ? { stopped } : {}),
    };
    this.listener(event);
  }

  /** The tickers asked for, done (every unit of them) of all, when the call asks for more than one. */
  private tickerCounts(): { done: number; total: number } | undefined {
    const units = this.unitsOfTicker;
    if (units.size < 2) return undefined;
    const done = [...units.values()].filter((list) => list.every((i) => this.done.has(i))).length;
    return { done, total: units.size };
  }
}
