/**
 * `--latency` and `--bandwidth` over real HTTP: an answer's headers come no earlier than the
 * latency, and a body of N bytes at B MB/s no earlier than N / B after them. Lower bounds only:
 * a busy machine makes answers later, never earlier.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

const LATENCY_MS = 300;
const MBPS = 1;
/** Timers may fire a millisecond before the other process's clock says: not a slower network. */
const CLOCK_SLACK_MS = 2;

describe("the sandbox imitating a network (--latency, --bandwidth)", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ args: ["--latency", String(LATENCY_MS), "--bandwidth", String(MBPS)] });
  });
  afterAll(() => sb.stop());

  it("says so at start", () => {
    expect(sb.stdout).toContain(`network: ${LATENCY_MS} ms before each answer's first byte, ${MBPS} MB/s per connection`);
  });

  it("holds each answer's first byte for the latency", async () => {
    const started = performance.now();
    const r = await sb.get("/api/v1/account/my", "demo-full-access");
    const firstByte = performance.now() - started;
    expect(r.status).toBe(200);
    await r.text();
    expect(firstByte).toBeGreaterThanOrEqual(LATENCY_MS - CLOCK_SLACK_MS);
  });

  it("paces a body at the bandwidth, framed with its length", async () => {
    const started = performance.now();
    // Uncompressed, so that the bytes read are the bytes paced and Content-Length is sent.
    // A page of 2,000 bars: long enough that pacing shows, short enough not to wait seconds.
    const r = await sb.get("/api/v1/data/us-equity/eq-taq-1min/AAPL?limit=2000&response_format=csv", "demo-full-access", {
      "Accept-Encoding": "identity",
    });
    const firstByte = performance.now() - started;
    const body = new Uint8Array(await r.arrayBuffer());
    const whole = performance.now() - started;
    expect(r.status).toBe(200);
    expect(body.length).toBeGreaterThan(250_000); // long enough that pacing shows
    expect(r.headers.get("Content-Length")).toBe(String(body.length));
    expect(firstByte).toBeGreaterThanOrEqual(LATENCY_MS - CLOCK_SLACK_MS);
    expect(whole).toBeGreaterThanOrEqual(LATENCY_MS + (body.length / (MBPS * 1e6)) * 1000 - CLOCK_SLACK_MS);
  });

  it("compresses no answer, even for a client that accepts gzip: the paced bytes are the bytes sent", async () => {
    // 50 rows go as bytes, 500 (over 64 KiB) as a stream of one chunk: Deno would gzip either.
    for (const limit of [50, 500]) {
      const r = await sb.get(`/api/v1/data/us-equity/eq-taq-1min/AAPL?limit=${limit}&response_format=csv`, "demo-full-access", {
        "Accept-Encoding": "gzip, deflate, br",
      });
      const body = new Uint8Array(await r.arrayBuffer());
      expect(r.status).toBe(200);
      expect(r.headers.get("Content-Encoding")).toBeNull();
      expect(r.headers.get("Cache-Control")).toBe("no-transform");
      expect(r.headers.get("Content-Length")).toBe(String(body.length));
      expect(new TextDecoder().decode(body).trimEnd().split("\n")).toHaveLength(limit + 1);
    }
  });

  it("answers HEAD after the latency, with no body", async () => {
    const started = performance.now();
    const r = await fetch(`${sb.baseUrl}/api/v1/data/us-equity/eq-taq-1min/AAPL?limit=100000&response_format=csv`, {
      method: "HEAD",
      headers: { "X-API-KEY": "demo-full-access" },
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(LATENCY_MS - CLOCK_SLACK_MS);
    expect(r.status).toBe(200);
    expect((await r.arrayBuffer()).byteLength).toBe(0);
  });
});

describe("the sandbox imitating a shared line (--line)", () => {
  const LINE_MBPS = 2;
  let sb: TestSandbox;
  beforeAll(async () => {
    // Two workers: the line is one for every connection of every worker.
    sb = await startSandbox({ args: ["--line", String(LINE_MBPS), "--workers", "2"] });
  });
  afterAll(() => sb.stop());

  it("says so at start", () => {
    expect(sb.stdout).toContain(`one line of ${LINE_MBPS} MB/s shared by every connection (--latency, --line)`);
  });

  it("makes two downloads at once take the line's time for both, not each its own", async () => {
    const page = (ticker: string) =>
      sb.get(`/api/v1/data/us-equity/eq-taq-1min/${ticker}?limit=2000&response_format=csv`, "demo-full-access", {
        "Accept-Encoding": "identity",
      });
    const started = performance.now();
    const bodies = await Promise.all(["AAPL", "MSFT"].map(async (t) => new Uint8Array(await (await page(t)).arrayBuffer())));
    const together = performance.now() - started;
    const bytes = bodies[0].length + bodies[1].length;
    expect(Math.min(...bodies.map((b) => b.length))).toBeGreaterThan(250_000);
    // Each alone on its own connection would take its own bytes' time; together, the sum's.
    expect(together).toBeGreaterThanOrEqual((bytes / (LINE_MBPS * 1e6)) * 1000 - CLOCK_SLACK_MS);
  });
});
