/**
 * A call stopped on purpose: by the kernel's interrupt (JupyterLab's stop button) or by the
 * `signal` the call was given. It says how far the call got, keeps the rows fetched so far
 * (`partial`) and, for a data call, how to fetch the rest (`resume()`); a download keeps its
 * finished partitions on disk, and running it again fetches only what is missing. The
 * session's last one stays reachable (`lastInterrupted()`): a notebook cell whose call was
 * stopped keeps no variable of it.
 */
import { type CallState, WorkbenchError } from "./base.ts";

/** How far an interrupted call got. */
export interface InterruptedProgress {
  /** What stopped it: the session's interrupt (`interruptCalls()`, the kernel's stop button) or the call's own signal. */
  by: "interrupt" | "signal";
  /** The signal's reason, when the call's own signal stopped it. */
  reason?: unknown;
  /** `call` (a frame) or `download` (a lake folder). */
  kind: "call" | "download";
  /** The dataset's id. */
  dataset: string;
  /** Rows fetched and kept: on `partial` for a call, written to the lake for a download. */
  rows: number;
  /** Rows the call was expected to fetch in all, when it was known (an estimate). */
  expectedRows?: number;
  /** Parts of the call complete (tickers, ticker-days, a download's chunks) and in all. */
  parts: { done: number; total: number; noun: string };
  /** The lake folder of a download. */
  dir?: string;
}

const n = (x: number) => Math.round(x).toLocaleString("en-US");

/** The message: what stopped the call, how many rows of how many, and how to go on. */
function message(p: InterruptedProgress): string {
  const what = p.by === "interrupt"
    ? "Interrupted"
    : `Aborted by the call's signal${p.reason === undefined ? "" : ` (${reasonText(p.reason)})`}`;
  const of = p.expectedRows !== undefined ? `of about ${n(Math.max(p.expectedRows, p.rows))}` : "the total not yet known";
  const parts = p.parts.total > 1 ? `; ${p.parts.done} of ${p.parts.total} ${p.parts.noun} complete` : "";
  if (p.kind === "download") {
    return `${what}: the download of ${p.dataset} into '${p.dir}' wrote ${
      n(p.rows)
    } rows (${of}${parts}). Run the same wb.download again: it fetches only what is missing.`;
  }
  if (p.rows === 0) return `${what}: ${p.dataset} fetched no rows yet (${of}${parts}). await lastInterrupted().resume() fetches them.`;
  return `${what}: ${p.dataset} fetched ${
    n(p.rows)
  } rows (${of}${parts}). They are on lastInterrupted().partial; await lastInterrupted().resume() fetches the rest.`;
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error || reason instanceof DOMException) return reason.message || reason.name;
  return String(reason);
}

/**
 * A data call or download stopped by the kernel's interrupt or by its own `signal`. Every
 * variable of the notebook is kept; `partial` holds the rows fetched before the stop (every
 * part that had rows, in the order asked) and `resume()` fetches the rest. A download's
 * finished partitions stay in its folder: run it again to go on. `lastInterrupted()` returns
 * the session's last one.
 *
 * @example
 * ```ts
 * try {
 *   await wb.data.eqTaq1Min(["AAPL", "MSFT"], { start: "2023-11-01", end: "2023-11-30" });
 * } catch (e) {
 *   if (e instanceof InterruptedError) console.log(e.message, e.rows, e.partial?.height); // stop button pressed
 *   else throw e;
 * }
 * ```
 */
export class InterruptedError extends WorkbenchError {
  /** What stopped the call: the session's interrupt or the call's own signal. */
  readonly by: "interrupt" | "signal";
  /** Rows fetched and kept. */
  readonly rows: number;
  /** Rows expected in all, when known. */
  readonly expectedRows?: number;
  /** Parts complete and in all (tickers, ticker-days, a download's chunks). */
  readonly parts: { done: number; total: number; noun: string };

  /**
   * The error of a call stopped after `progress`.
   *
   * @param progress how far the call got
   * @param state the rows it keeps and how it goes on
   */
  constructor(progress: InterruptedProgress, state: CallState = {}) {
    super(message(progress), state);
    this.#progress = progress;
    this.by = progress.by;
    this.rows = progress.rows;
    this.expectedRows = progress.expectedRows;
    this.parts = progress.parts;
    (globalThis as Record<symbol, unknown>)[LAST] = this;
  }

  readonly #progress: InterruptedProgress;

  /** The same stop, made again with what the call keeps (it becomes `lastInterrupted()`). */
  override keeping(state: CallState): InterruptedError {
    return new InterruptedError(this.#progress, { partial: this.partial, resume: this.resume, ...state });
  }
}

/** Where the session's last interrupted call is kept (one for every copy of the workbench). */
const LAST = Symbol.for("market-workbench.lastInterrupted");

/**
 * The last call interrupted in this session, with its rows (`partial`) and `resume()`: a cell
 * whose call was stopped keeps no variable of it, and this is where its rows are.
 *
 * @example
 * ```ts
 * const bars = lastInterrupted()?.partial; // the rows fetched before the stop button
 * const all = await lastInterrupted()!.resume!(); // the whole frame
 * ```
 */
export function lastInterrupted(): InterruptedError | undefined {
  return (globalThis as Record<symbol, InterruptedError | undefined>)[LAST];
}
