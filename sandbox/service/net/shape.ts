/**
 * A network like a user's, on loopback: `--latency MS` holds each answer that long before its
 * first byte (the headers), and `--bandwidth MBPS` paces each answer's body at that many
 * megabytes (10^6 bytes) a second. An HTTP/1.1 connection carries one answer at a time, so the
 * pace is per connection: a client with four requests in flight gets four times the bytes, as it
 * would from a remote service whose bottleneck is each connection's window, not a shared link.
 * The pace counts the body as the service writes it, which is what the wire carries: the
 * sandbox asks Deno not to compress answers (worker.ts).
 * Pacing is by due time from the body's first byte (slice k leaves no earlier than its last
 * byte's share of the time), so a late timer is caught up on the next slice instead of adding up.
 * `--line MBPS` adds one line every connection shares (line.ts): each slice also waits for its
 * turn on the line, so the answers in flight divide its rate between them.
 */
import { SharedLine } from "./line.ts";

/** The network the sandbox imitates; both at 0 (or absent) leave answers untouched. */
export interface NetworkShape {
  /** Milliseconds added before each answer's first byte (0: none). */
  latencyMs: number;
  /** Megabytes (10^6 bytes) a second per connection (undefined: as fast as loopback goes). */
  bandwidthMBps?: number;
  /** Megabytes (10^6 bytes) a second shared by every connection: one line (undefined: none). */
  lineMBps?: number;
}

/**
 * Whether `shape` changes anything: a latency, a per-connection pace or a line.
 *
 * @example
 * ```ts
 * shapesAnswers({ latencyMs: 0 }); // false: plain loopback
 * ```
 */
export function shapesAnswers(shape: NetworkShape | undefined): shape is NetworkShape {
  return shape !== undefined && (shape.latencyMs > 0 || shape.bandwidthMBps !== undefined || shape.lineMBps !== undefined);
}

/**
 * Bytes sent between two due-time checks: 4 ms of the pace, and at least 16 KiB (1 MB/s flows in
 * steps of 16 ms). Each slice is a turn of the stream and a write to the socket: at a fast pace,
 * fixed 16 KiB slices cost the server about as much CPU as writing the CSV of the page.
 */
const SLICE_SECONDS = 0.004;
const MIN_SLICE = 16 * 1024;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `body` paced at `bytesPerSecond` (its last byte leaves no earlier than bytes / rate after its
 * first is asked for) and through `line` (each slice waits for its turn on the shared line).
 *
 * @example
 * ```ts
 * const paced = throttleBody(new Response("x".repeat(1_000_000)).body!, 2_000_000); // about 0.5 s
 * ```
 */
function throttleBody(body: ReadableStream<Uint8Array>, bytesPerSecond: number | undefined, line?: SharedLine): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const fastest = Math.min(bytesPerSecond ?? Infinity, line ? line.megabytesPerSecond * 1e6 : Infinity);
  const sliceBytes = Math.max(MIN_SLICE, Math.round(fastest * SLICE_SECONDS));
  let pending: Uint8Array = new Uint8Array(0);
  let started: number | undefined;
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pending.length === 0) {
        const next = await reader.read();
        if (next.done) return controller.close();
        pending = next.value;
      }
      started ??= performance.now();
      const slice = pending.subarray(0, sliceBytes);
      pending = pending.subarray(slice.length);
      sent += slice.length;
      const due = Math.max(
        bytesPerSecond === undefined ? 0 : started + (sent / bytesPerSecond) * 1000,
        line ? line.reserve(slice.length) : 0,
      );
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      controller.enqueue(slice);
    },
    cancel: (reason) => reader.cancel(reason),
  }, { highWaterMark: 0 });
}

/**
 * The answer as it would arrive over `shape`: after its latency, its body paced. The length is
 * kept: an answer that had no Content-Length (Deno computes it for bytes) gets one, so a paced
 * answer is framed as the unpaced one is, not chunked.
 *
 * @example
 * ```ts
 * const slow = await shapeAnswer("GET", () => app.fetch(request), { latencyMs: 40, bandwidthMBps: 20 });
 * ```
 */
export async function shapeAnswer(
  method: string,
  answer: () => Promise<Response>,
  shape: NetworkShape,
  line?: SharedLine,
): Promise<Response> {
  if (shape.latencyMs > 0) await sleep(shape.latencyMs);
  const response = await answer();
  if ((shape.bandwidthMBps === undefined && line === undefined) || method === "HEAD" || response.body === null) return response;
  const headers = new Headers(response.headers);
  let body: ReadableStream<Uint8Array> = response.body;
  if (!headers.has("Content-Length")) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    headers.set("Content-Length", String(bytes.length));
    body = new Response(bytes).body!;
  }
  return new Response(throttleBody(body, shape.bandwidthMBps === undefined ? undefined : shape.bandwidthMBps * 1e6, line), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * The start-up line naming the network, or undefined for plain loopback.
 *
 * @example
 * ```ts
 * networkReport({ latencyMs: 40, bandwidthMBps: 20 }); // "network: 40 ms before each answer's first byte, 20 MB/s per connection (--latency, --bandwidth)"
 * networkReport({ latencyMs: 40, lineMBps: 12.5 }); // "network: 40 ms before each answer's first byte, one line of 12.5 MB/s shared by every connection (--latency, --line)"
 * ```
 */
export function networkReport(shape: NetworkShape): string | undefined {
  if (!shapesAnswers(shape)) return undefined;
  const paces = [
    ...(shape.bandwidthMBps === undefined ? [] : [`${shape.bandwidthMBps} MB/s per connection`]),
    ...(shape.lineMBps === undefined ? [] : [`one line of ${shape.lineMBps} MB/s shared by every connection`]),
  ];
  const flags = [
    "--latency",
    ...(shape.bandwidthMBps === undefined ? [] : ["--bandwidth"]),
    ...(shape.lineMBps === undefined ? [] : ["--line"]),
  ];
  return `network: ${shape.latencyMs} ms before each answer's first byte, ${paces.length ? paces.join(", ") : "loopback speed"} (${
    flags.join(", ")
  })`;
}
