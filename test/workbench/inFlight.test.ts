/**
 * Requests in flight: by default a call of several units keeps up to eight in flight in all
 * (units and their pages sharing them), a call of one unit pages four at once after the first,
 * and a `concurrency` given bounds units and each unit's pages; a value out of range or of the
 * wrong type is refused before any request. Counted at the client's fetch, against the
 * sandbox's app in-process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, QueryError, type Workbench } from "../../workbench/mod.ts";
import { inFlight } from "../../workbench/fetch/inFlight.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";

describe("the rule", () => {
  it("shares eight among a call's units, pages one unit four at once, and obeys a concurrency given", () => {
    expect(inFlight(13)).toEqual({ units: 8, pages: 1 });
    expect(inFlight(3)).toEqual({ units: 3, pages: 2 });
    expect(inFlight(2)).toEqual({ units: 2, pages: 4 });
    expect(inFlight(1)).toEqual({ units: 1, pages: 4 });
    expect(inFlight(13, 2)).toEqual({ units: 2, pages: 2 });
    expect(inFlight(1, 16)).toEqual({ units: 16, pages: 16 });
  });
});

describe("requests in flight at the client's fetch", () => {
  let sb: AppSandbox;
  let wb: Workbench;
  const counter = { now: 0, most: 0 };
  const TICKERS = ["SPY", "AAPL", "MSFT", "QQQ", "JPM", "TSM", "ODFL", "SIRI", "CVX", "HES"];
  const RANGE = { start: "2023-11-20", end: "2023-11-22" };

  beforeAll(async () => {
    sb = await openAppSandbox();
    const fetch = async (input: Request | URL | string, init?: RequestInit) => {
      const data = String(input instanceof Request ? input.url : input).includes("/api/v1/data/");
      if (data) counter.most = Math.max(counter.most, ++counter.now);
      try {
        const response = await sb.fetch(input, init);
        // Held until the body is read: the request is in flight until then.
        const body = new Uint8Array(await response.arrayBuffer());
        return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
      } finally {
        if (data) counter.now -= 1;
      }
    };
    wb = await connect({ baseUrl: sb.baseUrl, fetch: fetch as typeof globalThis.fetch, apiKey: "demo-full-access" });
    await wb.meta.schema("eq-taq-1min");
  });
  afterAll(async () => await sb?.stop());

  const most = async (call: () => Promise<unknown>) => {
    Object.assign(counter, { now: 0, most: 0 });
    await call();
    return counter.most;
  };

  it("a universe call keeps up to eight in flight, not more, with pages of its units one at a time", async () => {
    const pages = await most(() => wb.data.eqTaq1Min(TICKERS, { ...RANGE, pageSize: 400, force: true }));
    expect(pages).toBeGreaterThan(4);
    expect(pages).toBeLessThanOrEqual(8);
  });

  it("a call of one unit pages four at once after the first", async () => {
    const pages = await most(() => wb.data.eqTaq1Min("SPY", { ...RANGE, pageSize: 200, force: true }));
    expect(pages).toBeGreaterThan(1);
    expect(pages).toBeLessThanOrEqual(4);
  });

  it.each([
    [0, "concurrency 0 is out of range: use 1 to 16"],
    [17, "concurrency 17 is out of range: use 1 to 16"],
    [2.5, "concurrency 2.5 is out of range: use 1 to 16"],
    ["8", "concurrency is '8': give a whole number"],
  ])("a universe call with concurrency %o is refused before any request, naming it", async (concurrency, message) => {
    const error = await most(() => wb.data.eqTaq1Min(TICKERS, { ...RANGE, concurrency: concurrency as number, force: true })).catch((e) =>
      e
    );
    expect(error).toBeInstanceOf(QueryError);
    expect(error.message).toContain(message);
    expect(counter.most).toBe(0);
  });

  it("a concurrency given bounds the units and each unit's pages", async () => {
    expect(await most(() => wb.data.eqTaq1Min(TICKERS, { ...RANGE, pageSize: 400, concurrency: 1, force: true }))).toBe(1);
    const two = await most(() => wb.data.eqTaq1Min(TICKERS, { ...RANGE, pageSize: 400, concurrency: 2, force: true }));
    expect(two).toBeGreaterThan(2);
    expect(two).toBeLessThanOrEqual(4);
  });
});
