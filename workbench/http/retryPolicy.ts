/**
 * The one retry policy of a workbench: which failures are tried again, how long each waits,
 * and how often, for every request it sends. A 503, a network failure that may pass (a reset,
 * a timeout) and a per-minute 429 are retried, as is an answer whose connection dropped while
 * its body was read, and a 504 on a one-row page (the pager halves a larger page instead: that
 * is a smaller question, not a retry). A 429 whose wait is longer than `maxWaitSeconds` (a
 * monthly quota, days away) and what no retry can fix (failFast.ts) raise at once. The waits
 * are the Retry-After an answer names, else exponential backoff with full jitter; the defaults
 * (8 retries, 120 s) are written here only.
 */
import { HTTPError, TimeoutError } from "ky";
import { realWaits, retryDelay, type Waits } from "../runtime/timers.ts";
import { permanentNetworkCause } from "./failFast.ts";

/** The policy's defaults: retries of one request, and the longest Retry-After waited out (seconds). */
export const RETRY_DEFAULTS: { readonly retries: number; readonly maxWaitSeconds: number } = { retries: 8, maxWaitSeconds: 120 };

/** What a policy is built from (the transport's options of the same names). */
export interface RetrySettings {
  /** Retries of one request (default RETRY_DEFAULTS.retries). */
  retries?: number;
  /** The longest single wait, in seconds (default RETRY_DEFAULTS.maxWaitSeconds). */
  maxWaitSeconds?: number;
  /** How waits are slept (default the real clock; tests pass their own). */
  waits?: Waits;
}

/**
 * Decides, for each failed attempt of a request, whether it is tried again and after how long.
 *
 * @example
 * ```ts
 * const policy = new RetryPolicy({ retries: 3 });
 * const ms = policy.afterFailure(error, 0, "http://127.0.0.1:8000", params); // undefined: raise it
 * ```
 */
export class RetryPolicy {
  /** Retries of one request (attempts after the first), every kind of failure counted together. */
  readonly retries: number;
  /** The longest wait a 429's Retry-After may name and still be waited out (the rate window's too). */
  readonly maxWaitSeconds: number;
  /** How the policy waits (the real clock unless a test hands in others). */
  readonly waits: Waits;

  /** The policy with `settings`, defaults from RETRY_DEFAULTS. */
  constructor(settings: RetrySettings = {}) {
    this.retries = settings.retries ?? RETRY_DEFAULTS.retries;
    this.maxWaitSeconds = settings.maxWaitSeconds ?? RETRY_DEFAULTS.maxWaitSeconds;
    this.waits = settings.waits ?? realWaits;
  }

  /**
   * The milliseconds to wait before trying again after attempt `attempt` (from 0) failed with
   * `error` before an answer's body (ky's HTTPError, a timeout, a network failure), or undefined
   * when the failure is raised. `params` tells a one-row page (whose 504 is retried).
   */
  afterFailure(error: unknown, attempt: number, baseUrl: string, params?: URLSearchParams): number | undefined {
    if (attempt >= this.retries) return undefined;
    if ((error as Error)?.name === "AbortError") return undefined; // a call interrupted: nothing to retry
    if (error instanceof HTTPError) {
      const status = error.response.status;
      if (status === 504) return params?.get("limit") === "1" ? this.waits.backoffDelay(attempt) : undefined;
      if (status === 429) {
        const wait = Number(error.response.headers.get("Retry-After") ?? "60");
        if (!(wait <= this.maxWaitSeconds)) return undefined;
      } else if (status !== 503) return undefined;
      return retryDelay(this.waits, attempt, error.response.headers.get("Retry-After") ?? error.response.headers.get("RateLimit-Reset"));
    }
    if (!(error instanceof TimeoutError) && permanentNetworkCause(error, baseUrl)) return undefined;
    return this.waits.backoffDelay(attempt);
  }

  /** The wait before asking again for an answer whose connection dropped while its body was read, or undefined past the retries. */
  afterDroppedBody(attempt: number): number | undefined {
    return attempt >= this.retries ? undefined : this.waits.backoffDelay(attempt);
  }

  /** Waits `ms` (through `waits`); rejects when `signal` fires. */
  pause(ms: number, signal?: AbortSignal): Promise<void> {
    return this.waits.sleep(ms, signal);
  }
}
