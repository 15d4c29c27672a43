/**
 * What bounds one query's work: its time budget, its client (the request's AbortSignal, which
 * the HTTP server aborts when the client goes away), and a ceiling on the memory its frames
 * hold. The engine cannot be interrupted inside a collect, so a query's work is cut into
 * steps (a batch of files each: see batches.ts) and the query checks its control before each
 * step and after it: past the budget or the ceiling it stops with 504, its client gone it
 * stops with 499 (which nobody reads), and no further step runs. At most the step under way
 * finishes on the engine's threads after the answer.
 */
import { gatewayTimeout, HttpError } from "../errors.ts";

/** The status logged for a query whose client went away before its answer (nginx's "client closed request"). */
const CLIENT_GONE = 499;

/** A query stopped because its client went away; the answer reaches nobody. */
const clientGone = () => new HttpError(CLIENT_GONE, "Client closed request");

/**
 * The budget, the client and the memory ceiling of one query.
 *
 * @example
 * ```ts
 * const control = new QueryControl(30_000, 256 * 2 ** 20, request.signal);
 * const frame = await control.step(lazy.collect()); // 504 past the budget, 499 once the client is gone
 * control.hold(estimatedBytes(frame));            // 504 past the ceiling
 * ```
 */
export class QueryControl {
  readonly #deadline: number;
  readonly #client?: AbortSignal | (() => AbortSignal);
  #signal?: AbortSignal;
  #held = 0;

  constructor(
    /** Milliseconds the query may take. */
    readonly budgetMs: number,
    /** Bytes the query's frames may hold at once (estimated: see frameCache.ts's estimatedBytes). */
    readonly memoryBytes: number,
    /**
     * Aborted when the client goes away; or a function giving it, asked at the first step only
     * (a request's signal costs Deno's server work to make, and most pages run no step).
     */
    client?: AbortSignal | (() => AbortSignal),
  ) {
    this.#deadline = performance.now() + budgetMs;
    this.#client = client;
  }

  /** The client's signal, once asked for. */
  get signal(): AbortSignal | undefined {
    if (this.#signal === undefined && this.#client !== undefined) {
      this.#signal = typeof this.#client === "function" ? this.#client() : this.#client;
    }
    return this.#signal;
  }

  /** Throws 499 once the client has gone, 504 past the budget. */
  check(): void {
    if (this.signal?.aborted) throw clientGone();
    if (performance.now() > this.#deadline) throw gatewayTimeout();
  }

  /**
   * `work` (a step of the query), checked before and after: it rejects as soon as the budget
   * passes or the client goes, even while the step is under way (when the runtime's timers
   * run meanwhile), and the query goes no further.
   */
  async step<T>(work: () => Promise<T>): Promise<T> {
    this.check();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(gatewayTimeout()), Math.max(0, this.#deadline - performance.now()));
      onAbort = () => reject(clientGone());
      this.signal?.addEventListener("abort", onAbort, { once: true });
    });
    const running = work();
    // A step abandoned by the race still settles later, unheard: its failure is no one's.
    running.catch(() => {});
    try {
      return await Promise.race([running, stopped]);
    } finally {
      clearTimeout(timer);
      if (onAbort) this.signal?.removeEventListener("abort", onAbort);
      // Under Deno a pending native collect holds timers back, so the race alone may not
      // stop a step that outlived the budget: the clock decides too.
      this.check();
    }
  }

  /** Counts `bytes` more held by the query's frames: throws 504 past the ceiling. */
  hold(bytes: number): void {
    this.#held += bytes;
    if (this.#held > this.memoryBytes) throw gatewayTimeout();
  }

  /** Counts `bytes` no longer held (frames the query let go). */
  release(bytes: number): void {
    this.#held = Math.max(0, this.#held - bytes);
  }

  /** Bytes the query's frames hold now, as counted. */
  get heldBytes(): number {
    return this.#held;
  }
}
