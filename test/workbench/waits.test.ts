/**
 * The workbench's waits on the clock, checked without sleeping through them: the backoff's
 * bounds, the Retry-After the transport honours (with the real sleep, under vitest's fake
 * timers, so production really waits it out), the waits a transport hands to an injected
 * `waits`, and the backoff between retries of a 503 without a Retry-After. Tests that only need
 * the outcome under faults (faults504, resilience, pageHashes) inject waits that return at once.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Transport } from "../../workbench/http/transport.ts";
import { GatewayTimeoutError } from "../../workbench/mod.ts";
import { backoffDelay, realWaits, retryDelay } from "../../workbench/runtime/timers.ts";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

/** A service whose first `failures.length` answers are the given ones, then a success; counts the requests. */
function scripted(failures: (() => Response)[]) {
  const at: number[] = [];
  const fetch = (_input: Request | URL | string) => {
    at.push(Date.now());
    const next = failures[at.length - 1];
    return Promise.resolve(next ? next() : json(200, { identity_id: 1, name: "test" }));
  };
  return { fetch, at };
}
const perMinute = (retryAfter?: string) => () =>
  json(429, { detail: "Per-minute request limit exceeded" }, retryAfter === undefined ? {} : { "Retry-After": retryAfter });
const unavailable = () => json(503, { detail: "Service unavailable" });

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("backoffDelay", () => {
  it("is full jitter under 300 ms x 2^attempt, capped at 10 s", () => {
    vi.spyOn(Math, "random").mockReturnValue(0.999999);
    const caps = [300, 600, 1_200, 2_400, 4_800, 9_600, 10_000, 10_000, 10_000];
    caps.forEach((cap, attempt) => {
      expect(backoffDelay(attempt)).toBeLessThan(cap);
      expect(backoffDelay(attempt)).toBeGreaterThan(cap * 0.99);
    });
    vi.spyOn(Math, "random").mockReturnValue(0);
    expect(backoffDelay(5)).toBe(0);
  });
});

describe("retryDelay", () => {
  const waits = { sleep: realWaits.sleep, backoffDelay: (attempt: number) => 7 + attempt };
  it("is the Retry-After's seconds, or its HTTP date, else the backoff", () => {
    expect(retryDelay(waits, 0, "2")).toBe(2_000);
    expect(retryDelay(waits, 0, "0.5")).toBe(500);
    const at = retryDelay(waits, 0, new Date(Date.now() + 30_000).toUTCString());
    expect(at).toBeGreaterThan(28_000);
    expect(at).toBeLessThanOrEqual(30_000);
    expect(retryDelay(waits, 3, null)).toBe(10);
    expect(retryDelay(waits, 3, "")).toBe(10);
    expect(retryDelay(waits, 3, "soon")).toBe(10);
  });
});

describe("the transport's waits", () => {
  it("by default waits out a per-minute 429's Retry-After on the clock before asking again", async () => {
    vi.useFakeTimers();
    const service = scripted([perMinute("5")]);
    const transport = new Transport({ baseUrl: "http://service.test", apiKey: "k", fetch: service.fetch });
    const answer = transport.get("/api/v1/account/my");
    await vi.advanceTimersByTimeAsync(4_900);
    expect(service.at).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(service.at).toHaveLength(2);
    expect((await answer).status).toBe(200);
    expect(service.at[1] - service.at[0]).toBeGreaterThanOrEqual(5_000);
  });

  it("hands each wait to injected waits: the Retry-After, else the backoff of that retry", async () => {
    const waited: number[] = [];
    const waits = { sleep: (ms: number) => (waited.push(ms), Promise.resolve()), backoffDelay: (attempt: number) => 100 + attempt };
    const service = scripted([perMinute("3"), unavailable, perMinute(), unavailable]);
    const transport = new Transport({ baseUrl: "http://service.test", apiKey: "k", fetch: service.fetch, waits });
    expect((await transport.get("/api/v1/account/my")).status).toBe(200);
    expect(transport.requestsSent).toBe(5);
    expect(waited).toEqual([3_000, 101, 102, 103]);
  });

  it("gives up after its retries, each waited", async () => {
    const waited: number[] = [];
    const waits = { sleep: (ms: number) => (waited.push(ms), Promise.resolve()), backoffDelay: () => 1 };
    const service = scripted(Array(10).fill(unavailable));
    const transport = new Transport({ baseUrl: "http://service.test", apiKey: "k", fetch: service.fetch, retries: 3, waits });
    await expect(transport.get("/api/v1/account/my")).rejects.toMatchObject({ status: 503 });
    expect(transport.requestsSent).toBe(4);
    expect(waited).toEqual([1, 1, 1]);
  });
});

describe("a one-row page's 504", () => {
  // A one-row page: a 504 can halve it no further, so the transport's retry policy retries it
  // after the backoff (a larger page's 504 is raised at once: the pager halves it).
  const gatewayTimeout = () => json(504, { detail: "Gateway timeout" });
  const page = (limit: number) => new URLSearchParams({ offset: "0", limit: String(limit), response_format: "json" });

  it("by default sleeps the backoff before retrying a one-row page's 504", async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, "random").mockReturnValue(0.5); // backoffDelay(0) = 150 ms
    const service = scripted(Array(10).fill(gatewayTimeout));
    const transport = new Transport({ baseUrl: "http://service.test", apiKey: "k", fetch: service.fetch, retries: 1 });
    const fetched = transport.get("/api/v1/data/eq-daily-ohlc", page(1)).catch((e) => e);
    await vi.advanceTimersByTimeAsync(140);
    expect(service.at).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(service.at).toHaveLength(2);
    expect(await fetched).toBeInstanceOf(GatewayTimeoutError);
  });

  it("hands each backoff to injected waits, as often as it retries; a larger page's 504 is not retried", async () => {
    const waited: number[] = [];
    const waits = { sleep: (ms: number) => (waited.push(ms), Promise.resolve()), backoffDelay: (attempt: number) => 10 + attempt };
    const service = scripted(Array(10).fill(gatewayTimeout));
    const transport = new Transport({ baseUrl: "http://service.test", apiKey: "k", fetch: service.fetch, retries: 3, waits });
    await expect(transport.get("/api/v1/data/eq-daily-ohlc", page(1))).rejects.toBeInstanceOf(GatewayTimeoutError);
    expect(service.at).toHaveLength(4);
    expect(waited).toEqual([10, 11, 12]);
    await expect(transport.get("/api/v1/data/eq-daily-ohlc", page(2))).rejects.toBeInstanceOf(GatewayTimeoutError);
    expect(service.at).toHaveLength(5);
  });
});
