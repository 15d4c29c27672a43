/**
 * wb.provenance(): each data call that returned a frame is recorded, against the sandbox's
 * app in-process, with its requests (never the key), the dataset's status, request ids, pages,
 * rows, bytes and the frame's hash; the recorder joins the kernel-wide registry.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connect, frameHash, hashScheme, type Workbench } from "../../../workbench/mod.ts";
import { type AppSandbox, openAppSandbox } from "../../sandbox/service/support/appSandbox.ts";
import { createQuotaAccount } from "../../sandbox/service/support/quotaAccounts.ts";

let sb: AppSandbox;
let key: string;
beforeAll(async () => {
  sb = await openAppSandbox();
  // A key of its own, random and long: any trace of it in the manifest is found by search.
  key = (await createQuotaAccount(sb.statePath, { name: "Provenance", perMinute: 1000, monthly: 100_000 })).keys[0][0];
});
afterAll(() => sb?.stop());

const fresh = () => connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: key, quotaGuard: false, provenance: true });

describe("wb.provenance()", () => {
  let wb: Workbench;
  beforeAll(async () => (wb = await fresh()));

  it("starts empty, with the service's address", () => {
    const m = wb.provenance();
    expect(m.version).toBe(2);
    expect(m.hash).toEqual(hashScheme());
    expect(m.service.baseUrl).toBe(new URL(sb.baseUrl).toString());
    expect(m.calls).toEqual([]);
  });

  it("records a paged call: requests without pager parameters, status, ids, pages, rows, bytes and the frame hash", async () => {
    const bars = await wb.data.eqTaq1Min("ODFL", {
      filters: { TradeDate: "2023-11-22" },
      sort: "BarDateTime",
      pageSize: 300,
      onProgress: () => {},
    });
    const [call] = wb.provenance().calls;
    expect(call.dataset).toBe("eq-taq-1min");
    expect(call.pathValues).toEqual(["ODFL"]);
    expect(call.query).toEqual({ filters: { TradeDate: "2023-11-22" }, sort: "BarDateTime", pageSize: 300 });
    expect(call.requests).toHaveLength(1);
    expect(call.requests[0].path).toBe("/api/v1/data/us-equity/eq-taq-1min/ODFL");
    const names = call.requests[0].params.map(([k]) => k);
    expect(names).not.toContain("offset");
    expect(names).not.toContain("limit");
    expect(names).not.toContain("response_format");
    expect(call.rows).toBe(bars.height);
    // Four pages hold the rows; pages asked concurrently past the end come back empty and count too.
    expect(call.pages).toBeGreaterThanOrEqual(Math.ceil(bars.height / 300));
    expect(call.pages).toBeLessThanOrEqual(Math.ceil(bars.height / 300) + 4);
    expect(call.requestIds).toHaveLength(call.pages);
    expect(new Set(call.requestIds).size).toBe(call.pages);
    expect(call.bytes).toBeGreaterThan(bars.height * 20);
    expect(call.frameHash).toBe(frameHash(bars));
    expect(call.rowBlocks?.size).toBe(Math.ceil(bars.height / 256));
    expect(call.rowBlocks?.digests).toHaveLength(Math.ceil(bars.height / call.rowBlocks!.size));
    const status = await wb.meta.status("eq-taq-1min");
    expect(call.status).toEqual({
      last_updated: status.last_updated,
      first_available_date: status.first_available_date,
      last_available_date: status.last_available_date,
    });
  });

  it("keeps calls in the order they started, however they finish", async () => {
    const before = wb.provenance().calls.length;
    const [big, small] = await Promise.all([
      wb.data.eqTaq("2023-11-21", "ODFL", { pageSize: 2000 }),
      wb.data.eqDailyOhlc({ filters: { Ticker: "ODFL" }, maxRows: 3 }),
    ]);
    const calls = wb.provenance().calls.slice(before);
    expect(calls.map((c) => c.dataset)).toEqual(["eq-taq", "eq-daily-ohlc"]);
    expect(calls.map((c) => c.frameHash)).toEqual([frameHash(big), frameHash(small)]);
    expect(calls[1].rows).toBe(3);
  });

  it("records a universe as one call with one request per ticker", async () => {
    const before = wb.provenance().calls.length;
    const bars = await wb.data.eqTaq1Min(["ODFL", "SIRI"], { filters: { TradeDate: "2023-11-22" } });
    const calls = wb.provenance().calls.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].requests.map((r) => r.path.split("/").at(-1))).toEqual(["ODFL", "SIRI"]);
    expect(calls[0].rows).toBe(bars.height);
    expect(calls[0].frameHash).toBe(frameHash(bars));
  });

  it("never holds the key, in any field", () => {
    const text = JSON.stringify(wb.provenance());
    expect(text.length).toBeGreaterThan(500);
    expect(text).not.toContain(key);
    expect(text.toLowerCase()).not.toContain("x-api-key");
  });

  it("lists every workbench of the process in the registry the notebook runner reads", async () => {
    const other = await fresh();
    const registry = (globalThis as unknown as Record<symbol, { manifest(): unknown }[]>)[Symbol.for("market-workbench.provenance")];
    expect(registry.some((r) => r.manifest() === undefined)).toBe(false);
    await other.data.eqDailyOhlc({ filters: { Ticker: "SIRI" }, maxRows: 2 });
    const counts = registry.map((r) => (r.manifest() as { calls: unknown[] }).calls.length);
    expect(counts).toContain(1); // the other workbench's one call
    expect(counts).toContain(wb.provenance().calls.length);
  });
});

describe("recording is on by default, off when asked", () => {
  it("connect() with MARKETDATA_PROVENANCE unset records its calls", async () => {
    vi.stubEnv("MARKETDATA_PROVENANCE", undefined);
    try {
      const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: key, quotaGuard: false });
      const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "ODFL" }, maxRows: 2 });
      expect(wb.recording).toBe(true);
      expect(wb.provenance().calls.map((c) => [c.dataset, c.rows, c.frameHash])).toEqual([["eq-daily-ohlc", 2, frameHash(daily)]]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  for (
    const [name, options, env] of [["connect({ provenance: false })", { provenance: false }, undefined], [
      "connect() with MARKETDATA_PROVENANCE=0",
      {},
      "0",
    ]] as const
  ) {
    it(`${name} records nothing, hashes nothing, and says so when asked`, async () => {
      vi.stubEnv("MARKETDATA_PROVENANCE", env);
      const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: key, quotaGuard: false, ...options }).finally(() =>
        vi.unstubAllEnvs()
      );
      const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "ODFL" }, maxRows: 2 });
      expect(daily.height).toBe(2);
      expect(wb.recording).toBe(false);
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      try {
        const m = wb.provenance();
        expect(m.calls).toEqual([]);
        expect(m.recording).toBe(false);
        expect(String(warn.mock.calls[0]?.[0])).toMatch(
          /does not record its data calls.*provenance: false or MARKETDATA_PROVENANCE=0.*connect\(\{ provenance: true \}\)/,
        );
      } finally {
        warn.mockRestore();
      }
    });
  }
});
