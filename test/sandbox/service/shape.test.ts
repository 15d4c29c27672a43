/**
 * The network shaping in-process: a paced answer carries the same bytes, status and headers as
 * the unpaced one (with its length), a HEAD or empty answer is only delayed, and a body that
 * fails mid-way (a dropped connection injected by --faults) still fails for the client.
 */
import { describe, expect, it } from "vitest";
import { networkReport, shapeAnswer } from "../../../sandbox/service/net/shape.ts";
import { Buffer } from "node:buffer";

const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) % 251);

describe("shapeAnswer", () => {
  it("keeps the bytes, status and headers, adding the length, at no more than the bandwidth", async () => {
    const started = performance.now();
    const r = await shapeAnswer("GET", () => Promise.resolve(new Response(bytes, { status: 206, headers: { "X-Page": "1" } })), { latencyMs: 20, bandwidthMBps: 1 });
    const body = new Uint8Array(await r.arrayBuffer());
    expect(performance.now() - started).toBeGreaterThanOrEqual(20 + 100 - 2);
    expect(r.status).toBe(206);
    expect(r.headers.get("X-Page")).toBe("1");
    expect(r.headers.get("Content-Length")).toBe(String(bytes.length));
    expect(Buffer.from(body).equals(Buffer.from(bytes))).toBe(true);
  });

  it("only delays a HEAD answer", async () => {
    const original = new Response(null, { headers: { "Content-Length": "123" } });
    const started = performance.now();
    const r = await shapeAnswer("HEAD", () => Promise.resolve(original), { latencyMs: 30, bandwidthMBps: 1 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(30 - 2);
    expect(r).toBe(original);
  });

  it("passes a body's failure on to the client", async () => {
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
        controller.error(new Error("connection dropped by fault injection"));
      },
    });
    const r = await shapeAnswer("GET", () => Promise.resolve(new Response(failing, { headers: { "Content-Length": "1000000" } })), { latencyMs: 0, bandwidthMBps: 50 });
    await expect(r.arrayBuffer()).rejects.toThrow();
  });

  it("names the network at start, and nothing for plain loopback", () => {
    expect(networkReport({ latencyMs: 40, bandwidthMBps: 20 })).toBe("network: 40 ms before each answer's first byte, 20 MB/s per connection (--latency, --bandwidth)");
    expect(networkReport({ latencyMs: 0 })).toBeUndefined();
  });
});
