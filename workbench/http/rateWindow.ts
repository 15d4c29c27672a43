/**
 * The per-minute request window, shared by every call of a workbench: requests wait here
 * (visibly, as progress events) when the window is used up, instead of being sent into a
 * 429 or stalling without a word. The window is read from the RateLimit-Remaining and
 * RateLimit-Reset headers of each answer.
 */
import type { RawResponse, Transport } from "./transport.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const RATE_HEADERS = ["RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Limit"];

export class RateGate {
  private remaining = Number.POSITIVE_INFINITY;
  private limit = Number.POSITIVE_INFINITY;
  private resetAt = 0;

  /** Reads the window from an answer's headers. */
  observe(headers: Headers): void {
    const remaining = headers.get("RateLimit-Remaining");
    if (remaining === null) return;
    const resetAt = Date.now() + Number(headers.get("RateLimit-Reset") ?? "60") * 1000;
    const limit = headers.get("RateLimit-Limit");
    if (limit !== null) this.limit = Number(limit);
    // A later window replaces the count; in the same window the lowest count seen is the truth
    // (answers of concurrent requests arrive out of order).
    const newWindow = Date.now() >= this.resetAt || resetAt > this.resetAt + 2000;
    this.remaining = newWindow ? Number(remaining) : Math.min(this.remaining, Number(remaining));
    this.resetAt = resetAt;
  }

  /**
   * Takes one request of the window, waiting for the next window when it is used up. A wait
   * longer than `maxWaitSeconds` (the transport's limit for a 429) is not taken: the request
   * goes, and the service's 429 says why.
   */
  async acquire(onWait?: (seconds: number) => void, maxWaitSeconds = 120): Promise<void> {
    for (;;) {
      const now = Date.now();
      if (this.remaining <= 0 && now >= this.resetAt) this.remaining = this.limit;
      if (this.remaining > 0 || (this.resetAt - now) / 1000 > maxWaitSeconds) {
        this.remaining--;
        return;
      }
      onWait?.(Math.ceil((this.resetAt - now) / 1000));
      await sleep(Math.min(1000, this.resetAt - now));
    }
  }
}

export interface GateHooks {
  gate: RateGate;
  /** Awaited before each request is sent (the quota guard holds later pages here). */
  beforeSend?: () => Promise<void>;
  /** Hears each successful answer's headers as soon as they arrive. */
  onHeaders?: (headers: Headers) => void;
  /** Hears that a request settled (answered or failed). */
  settled?: () => void;
  onWait?: (seconds: number) => void;
}

/** Headers without the per-minute window, so the pager leaves the waiting to the gate. */
function withoutRateHeaders(headers: Headers): Headers {
  const copy = new Headers(headers);
  for (const h of RATE_HEADERS) copy.delete(h);
  return copy;
}

/**
 * The transport as a pager sees it during one call: every request passes the call's hooks
 * and the shared gate first. It is the same transport underneath (its request count and
 * retries), so nothing else changes.
 *
 * @example
 * ```ts
 * const pager = new Pager(gatedTransport(wb.transport, { gate: new RateGate() }), request);
 * ```
 */
export function gatedTransport(transport: Transport, hooks: GateHooks): Transport {
  const gated = Object.create(transport) as Transport;
  gated.get = async (path: string, params?: URLSearchParams, onHeaders?: (headers: Headers) => void): Promise<RawResponse> => {
    await hooks.beforeSend?.();
    await hooks.gate.acquire(hooks.onWait, transport.options.maxWaitSeconds ?? 120);
    // The headers are copied once per answer (a Headers copy costs about 0.25 ms of CPU).
    let seen: [Headers, Headers] | undefined;
    const stripped = (headers: Headers) => (seen?.[0] === headers ? seen[1] : (seen = [headers, withoutRateHeaders(headers)])[1]);
    try {
      const r = await transport.get(path, params, (headers) => {
        hooks.gate.observe(headers);
        hooks.onHeaders?.(headers);
        onHeaders?.(stripped(headers));
      });
      return { ...r, headers: stripped(r.headers) };
    } finally {
      hooks.settled?.();
    }
  };
  return gated;
}
