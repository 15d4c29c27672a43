/**
 * The one way the workbench waits: `sleep`, the backoff every retry uses (the retry policy's:
 * http/retryPolicy.ts) and the wait a Retry-After names. `Waits` carries `sleep` and `backoffDelay` to whoever waits, so a test can hand in
 * waits that return at once and check only the outcome of a fetch under faults.
 */

/**
 * Resolves after `ms` milliseconds; rejects with the signal's reason as soon as `signal` fires
 * (an interrupted call does not sit out its backoff).
 *
 * @example
 * ```ts
 * import { sleep } from "./workbench/runtime/timers.ts";
 * await sleep(10);
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Exponential backoff with full jitter: a random wait of up to 300 ms x 2^attempt, never more
 * than 10 s (`attempt` counts from 0). Full jitter keeps concurrent pages that failed together
 * from retrying together.
 *
 * @example
 * ```ts
 * import { backoffDelay } from "./workbench/runtime/timers.ts";
 * backoffDelay(0) <= 300; // true
 * ```
 */
export function backoffDelay(attempt: number): number {
  return Math.random() * Math.min(10_000, 300 * 2 ** attempt);
}

/**
 * The wait before retry `attempt` (from 0) of an answer: the milliseconds its Retry-After
 * names (seconds, or an HTTP date) when it names a wait, else the backoff.
 *
 * @example
 * ```ts
 * import { realWaits, retryDelay } from "./workbench/runtime/timers.ts";
 * retryDelay(realWaits, 0, "2"); // 2000
 * ```
 */
export function retryDelay(waits: Waits, attempt: number, retryAfter: string | null): number {
  if (retryAfter !== null && retryAfter.trim() !== "") {
    const seconds = Number(retryAfter);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
    if (Number.isFinite(ms)) return Math.max(0, ms);
  }
  return waits.backoffDelay(attempt);
}

/**
 * How the workbench waits between retries: `sleep` and `backoffDelay`. The real ones
 * (`realWaits`) unless a test hands in others (the transport's `waits` option).
 *
 * @example
 * ```ts
 * import { connect, type Waits } from "./workbench/mod.ts";
 * const instant: Waits = { sleep: () => Promise.resolve(), backoffDelay: () => 0 };
 * const quick = await connect({ baseUrl: "http://127.0.0.1:8787", apiKey: "demo-full-access", waits: instant });
 * ```
 */
export interface Waits {
  /** Resolves after `ms` milliseconds (or, in a test, when the test says so); the real one rejects when `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** The backoff before retry `attempt` (from 0), in milliseconds. */
  backoffDelay(attempt: number): number;
}

/** The real waits: the clock's `sleep` and the jittered `backoffDelay`. */
export const realWaits: Waits = { sleep, backoffDelay };
