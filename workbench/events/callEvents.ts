/**
 * The event stream of one data call or download: what progress bars, the provenance recorder
 * and any other observer hear, in order. The pipeline emits these and knows nothing of who
 * listens; a listener that throws is reported and does not stop the call.
 */
import type pl from "nodejs-polars";
import type { PreparedRequest } from "../query/prepare.ts";

/** What a call is, as its observers are told when it starts. */
export interface CallInfo {
  /** `call`: a data call returning a frame; `download`: a `wb.download` into a lake folder. */
  kind: "call" | "download";
  /** The dataset's text id, e.g. `eq-taq-1min`. */
  dataset: string;
  /** The path values the call was given (before planning). */
  pathValues: unknown;
  /** The query (or download options) the call was given. */
  query: unknown;
  /** The lake folder of a download. */
  dir?: string;
  /**
   * A download's warnings: the very list its result returns, where an observer adds what the
   * user must know of the call (its provenance record could not be written).
   */
  warnings?: string[];
  /** Set on a call that resumes a failed one: what the failed call's observers returned for it. */
  resumes?: unknown;
}

/** One partition a download wrote from a unit (`frame` absent: asked for, and empty). */
export interface WrittenPartition {
  /** The partition's path in the lake; absent for rows of a date not asked for (not written). */
  path?: string;
  /** The rows, when the sink keeps them. */
  frame?: pl.DataFrame;
}

/** Everything that happens during a call, in the order it happens. */
export type CallEvent =
  /** The call's requests are built and checked; `units` is how many. */
  | { type: "prepared"; requests: readonly PreparedRequest[] }
  /** The service answered a request of unit `unit` (a page, before it is parsed). */
  | { type: "answer"; unit: number; requestId: string | null; bytes: number }
  /** A page of unit `unit` was parsed. */
  | { type: "page"; unit: number; offset: number; frame: pl.DataFrame; bytes: number }
  /** The totals the call is expected to reach, once projected from the first answer. */
  | { type: "expected"; rows: number; bytes: number }
  /** The call asks its pages in `format` from now on, for `reason` (chosen by the workbench: the call named no format). */
  | { type: "wire-format"; format: "csv" | "csv_gzip"; reason: string }
  /** The call waits `seconds` for `reason` (the per-minute quota). */
  | { type: "waiting"; seconds: number; reason: string }
  /** Unit `unit` is complete (`fromCache`: read from the on-disk cache, nothing sent). */
  | { type: "unit-done"; unit: number; frame: pl.DataFrame; fromCache: boolean }
  /** A download found `partitions` partitions already in its folder. */
  | { type: "reusing"; partitions: number }
  /** A partition of the download's range the folder already held; `read` gives its rows. */
  | { type: "reused-partition"; path: string; rows: number; read: () => pl.DataFrame | undefined }
  /** A download wrote unit `unit`'s frame as these partitions, in the unit's row order. */
  | { type: "partitions"; unit: number; frame: pl.DataFrame; parts: readonly WrittenPartition[]; contiguous: boolean }
  /** The call returned (`frame`: a data call's result). */
  | { type: "ended"; requests: readonly PreparedRequest[]; frame?: pl.DataFrame }
  /** The call failed with `error` (refused before sending when `requests` is empty). */
  | { type: "failed"; requests: readonly PreparedRequest[]; error: unknown };

/** Hears one call's events; a promise it returns is awaited before the call returns (a record being completed). */
export type CallListener = (event: CallEvent) => void | Promise<void>;

/**
 * Watches calls: for each call that starts, a listener for its events, or undefined to skip it.
 * What `observe` returns is kept with the call, so a resumed call can name what it resumes.
 */
export interface CallObserver {
  /** The listener for `call`, or undefined when this observer has nothing to do with it. */
  observe(call: CallInfo): CallListener | undefined;
}

/**
 * The listeners of one call, told each event in turn.
 *
 * @example
 * ```ts
 * const events = new CallEvents([(e) => console.log(e.type)]);
 * events.emit({ type: "waiting", seconds: 3, reason: "per-minute quota" });
 * ```
 */
export class CallEvents {
  readonly #listeners: CallListener[];
  readonly #pending: Promise<void>[] = [];

  /** Events go to each of `listeners` in order; undefined ones are skipped. */
  constructor(listeners: readonly (CallListener | undefined)[]) {
    this.#listeners = listeners.filter((l): l is CallListener => l !== undefined);
  }

  /** Tells every listener; one that throws is reported with console.warn, and the call goes on. */
  emit(event: CallEvent): void {
    for (const listener of this.#listeners) {
      const warn = (error: unknown) => console.warn(`A listener of ${event.type} events failed: ${(error as Error)?.message ?? error}`);
      try {
        const done = listener(event);
        if (done) this.#pending.push(done.catch(warn));
      } catch (error) {
        warn(error);
      }
    }
  }

  /** Resolves once every promise a listener returned so far has settled. */
  async settled(): Promise<void> {
    while (this.#pending.length > 0) await Promise.all(this.#pending.splice(0));
  }
}
