/**
 * Fault injection for testing clients: with the `faults` setting on, seeded fractions of data
 * requests are answered 503, 504 or 429 (per-minute, Retry-After 1) or have their connection
 * dropped mid-response. Draws follow the order requests arrive in, over all workers: they
 * share one arrival counter (shareFaultArrivals).
 */
import type { MiddlewareHandler } from "hono";
import { Rng } from "../../market/rng.ts";
import type { Env } from "../context.ts";
import { gatewayTimeout, HttpError, serviceUnavailable } from "../errors.ts";
import { CONTENT_TYPES } from "../query/render.ts";

let arrivals = new Int32Array(new SharedArrayBuffer(4));

/** Counts arrivals in `buffer` (4 bytes, shared by every worker) instead of this worker's own counter. */
export function shareFaultArrivals(buffer: SharedArrayBuffer): void {
  arrivals = new Int32Array(buffer);
}

/**
 * A response whose body fails after the headers: the client sees the connection drop. Its
 * headers are those of the format asked for, as a real answer cut short would have sent them.
 */
function droppedConnection(format: string | undefined): Response {
  const type = format === "csv" || format === "csv_gzip" ? format : "json";
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(type === "json" ? '{"data":[' : "TradeDate,"));
      controller.error(new Error("connection dropped by fault injection"));
    },
  });
  return new Response(body, { status: 200, headers: { "Content-Type": CONTENT_TYPES[type], "Content-Length": "1000000" } });
}

export const faults: MiddlewareHandler<Env> = async (c, next) => {
  const settings = c.get("settings").faults;
  if (settings) {
    const u = Rng.for(settings.seed, "fault", String(Atomics.add(arrivals, 0, 1))).uniform();
    let edge = settings.rate503;
    if (u < edge) throw serviceUnavailable();
    if (u < (edge += settings.rate504)) throw gatewayTimeout();
    if (u < (edge += settings.rate429)) {
      throw new HttpError(429, "Per-minute request limit exceeded: injected fault.", {
        "Retry-After": "1",
        "RateLimit-Remaining": "0",
        "RateLimit-Reset": "1",
      });
    }
    if (u < (edge += settings.rateDrop)) return droppedConnection(c.req.query("response_format"));
  }
  await next();
};
