/**
 * The network shaping in-process: a paced answer carries the same bytes, status and headers as
 * the unpaced one (with its length), a HEAD or empty answer is only delayed, and a body that
 * fails mid-way (a dropped connection injected by --faults) still fails for the client.
 */
import { describe, expect, it } from "vitest";
import { SharedLine } from "../../../sandbox/service/net/line.ts";
import { networkReport, shapeAnswer } from "../../../sandbox/service/net/shape.ts";
import { Buffer } from "node:buffer";

const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) % 251);

describe("shapeAnswer", () => {
  it("keeps the bytes, status and headers, adding the length, at no more than the bandwidth", async () => {
    const started = performance.now();
    const r = await shapeAnswer("GET", () => Promise.resolve(new Response(bytes, { status: 206, headers: { "X-Page": "1" } })), {
      latencyMs: 20,
      bandwidthMBps: 1,
    });
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
    const r = await shapeAnswer("GET", () => Promise.resolve(new Response(failing, { headers: { "Content-Length": "1000000" } })), {
      latencyMs: 0,
      bandwidthMBps: 50,
    });
    await expect(r.arrayBuffer()).rejects.toThrow();
  });

  it("shares one line between answers sent together: together they take the line's time for both", async () => {
    // Two 200 kB answers on a 1 MB/s line: 0.4 s for the two, where each alone would take 0.2 s.
    const clock = SharedLine.clock();
    const big = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 13) % 251);
    const download = async (line: SharedLine) => {
      const r = await shapeAnswer("GET", () => Promise.resolve(new Response(big)), { latencyMs: 0, lineMBps: 1 }, line);
      const body = new Uint8Array(await r.arrayBuffer());
      return { body, at: performance.now() };
    };
    const started = performance.now();
    // Two SharedLine objects over one clock, as two workers of one sandbox hold them.
    const [a, b] = await Promise.all([download(new SharedLine(clock, 1)), download(new SharedLine(clock, 1))]);
    const together = (Math.max(a.at, b.at) - started) / 1000;
    expect(together).toBeGreaterThanOrEqual(0.4 - 0.01);
    expect(together).toBeLessThan(0.4 + 0.3);
    // Interleaved, not one after the other: the first done finishes after most of the line's time.
    expect((Math.min(a.at, b.at) - started) / 1000).toBeGreaterThan(0.3);
    expect(Buffer.from(a.body).equals(Buffer.from(big)) && Buffer.from(b.body).equals(Buffer.from(big))).toBe(true);
    // Alone on a fresh line, one answer takes its own share only.
    const alone = performance.now();
    await download(new SharedLine(SharedLine.clock(), 1));
    expect((performance.now() - alone) / 1000).toBeLessThan(0.2 + 0.15);
  });

  it("refuses a line of no speed", () => {
    expect(() => new SharedLine(SharedLine.clock(), 0)).toThrow(/carries nothing/);
  });

  it("names the network at start, and nothing for plain loopback", () => {
    expect(networkReport({ latencyMs: 40, lineMBps: 12.5 })).toBe(
      "network: 40 ms before each answer's first byte, one line of 12.5 MB/s shared by every connection (--latency, --line)",
    );
    expect(networkReport({ latencyMs: 40, bandwidthMBps: 20 })).toBe(
      "network: 40 ms before each answer's first byte, 20 MB/s per connection (--latency, --bandwidth)",
    );
    expect(networkReport({ latencyMs: 0 })).toBeUndefined();
  });
});
