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
 */

/** The network the sandbox imitates; both at 0 (or absent) leave answers untouched. */
export interface NetworkShape {
  /** Milliseconds added before each answer's first byte (0: none). */
  latencyMs: number;
  /** Megabytes (10^6 bytes) a second per connection (undefined: as fast as loopback goes). */
  bandwidthMBps?: number;
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
 * `body` paced at `bytesPerSecond`: its last byte leaves no earlier than (bytes / rate) after
 * its first is asked for.
 *
 * @example
 * ```ts
 * const paced = throttleBody(new Response("x".repeat(1_000_000)).body!, 2_000_000); // about 0.5 s
 * ```
 */
function throttleBody(body: ReadableStream<Uint8Array>, bytesPerSecond: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const sliceBytes = Math.max(MIN_SLICE, Math.round(bytesPerSecond * SLICE_SECONDS));
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
      const wait = started + (sent / bytesPerSecond) * 1000 - performance.now();
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
export async function shapeAnswer(method: string, answer: () => Promise<Response>, shape: NetworkShape): Promise<Response> {
  if (shape.latencyMs > 0) await sleep(shape.latencyMs);
  const response = await answer();
  if (shape.bandwidthMBps === undefined || method === "HEAD" || response.body === null) return response;
  const headers = new Headers(response.headers);
  let body: ReadableStream<Uint8Array> = response.body;
  if (!headers.has("Content-Length")) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    headers.set("Content-Length", String(bytes.length));
    body = new Response(bytes).body!;
  }
  return new Response(throttleBody(body, shape.bandwidthMBps * 1e6), { status: response.status, statusText: response.statusText, headers });
}

/**
 * The start-up line naming the network, or undefined for plain loopback.
 *
 * @example
 * ```ts
 * networkReport({ latencyMs: 40, bandwidthMBps: 20 }); // "network: 40 ms before each answer's first byte, 20 MB/s per connection (--latency, --bandwidth)"
 * ```
 */
export function networkReport(shape: NetworkShape): string | undefined {
  if (shape.latencyMs === 0 && shape.bandwidthMBps === undefined) return undefined;
  const bandwidth = shape.bandwidthMBps === undefined ? "loopback speed" : `${shape.bandwidthMBps} MB/s per connection`;
  return `network: ${shape.latencyMs} ms before each answer's first byte, ${bandwidth} (--latency, --bandwidth)`;
}
