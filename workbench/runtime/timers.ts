/**
 * The one way the workbench waits: `sleep`, and the backoff every retry uses (the transport's
 * 503s and dropped bodies, ky's retries, the pager's one-row 504s).
 */

/**
 * Resolves after `ms` milliseconds.
 *
 * @example
 * ```ts
 * import { sleep } from "./workbench/runtime/timers.ts";
 * await sleep(10);
 * ```
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
