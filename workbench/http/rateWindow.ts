/**
 * The per-minute request window, shared by every call of a workbench: requests wait here
 * (visibly, as progress events) when the window is used up, instead of being sent into a
 * 429 or stalling without a word. The window is read from the RateLimit-Remaining and
 * RateLimit-Reset headers of each answer. It is the only place the workbench paces requests.
 */
import { sleep } from "../runtime/timers.ts";
import { RETRY_DEFAULTS } from "./retryPolicy.ts";

/** The per-minute request window of one workbench (see the module's doc). */
export class RateWindow {
  #remaining = Number.POSITIVE_INFINITY;
  #limit = Number.POSITIVE_INFINITY;
  #resetAt = 0;

  /**
   * Reads the window from an answer's headers.
   *
   * @example
   * ```ts
   * import { RateWindow } from "./workbench/http/rateWindow.ts";
   * const window = new RateWindow();
   * window.observe(new Headers({ "RateLimit-Remaining": "9", "RateLimit-Reset": "30", "RateLimit-Limit": "10" }));
   * ```
   */
  observe(headers: Headers): void {
    const remaining = headers.get("RateLimit-Remaining");
    if (remaining === null) return;
    const resetAt = Date.now() + Number(headers.get("RateLimit-Reset") ?? "60") * 1000;
    const limit = headers.get("RateLimit-Limit");
    if (limit !== null) this.#limit = Number(limit);
    // A later window replaces the count; in the same window the lowest count seen is the truth
    // (answers of concurrent requests arrive out of order).
    const newWindow = Date.now() >= this.#resetAt || resetAt > this.#resetAt + 2000;
    this.#remaining = newWindow ? Number(remaining) : Math.min(this.#remaining, Number(remaining));
    this.#resetAt = resetAt;
  }

  /**
   * Takes one request of the window, waiting for the next window when it is used up. A wait
   * longer than `maxWaitSeconds` (the transport's limit for a 429) is not taken: the request
   * goes, and the service's 429 says why. A wait ends at once when `signal` fires.
   *
   * @example
   * ```ts
   * import { RateWindow } from "./workbench/http/rateWindow.ts";
   * await new RateWindow().acquire((seconds) => console.log(`waiting ${seconds} s`));
   * ```
   */
  async acquire(onWait?: (seconds: number) => void, maxWaitSeconds = RETRY_DEFAULTS.maxWaitSeconds, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    for (;;) {
      const now = Date.now();
      if (this.#remaining <= 0 && now >= this.#resetAt) this.#remaining = this.#limit;
      if (this.#remaining > 0 || (this.#resetAt - now) / 1000 > maxWaitSeconds) {
        this.#remaining--;
        return;
      }
      onWait?.(Math.ceil((this.#resetAt - now) / 1000));
      await sleep(Math.min(1000, this.#resetAt - now), signal);
    }
  }
}
