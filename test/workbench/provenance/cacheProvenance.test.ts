/**
 * The on-disk cache keeps each cached frame's provenance beside it, and `wb.cache.verify()`
 * tells fresh frames from stale ones against the service's current `last_updated`: the
 * sandbox's app in-process on a copy of the tiny market, reopened at the same address on its
 * state after the market was updated (its manifest rewritten later, which is what
 * `last_updated` reports), as a restart on the same port would.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connect, frameHash, type Workbench } from "../../../workbench/mod.ts";
import { displayKindOf } from "../../../workbench/display/kind.ts";
import { richBundle } from "../../../kernel-helpers/mod.ts";
import { type AppSandbox, openAppSandbox } from "../../sandbox/service/support/appSandbox.ts";

const scratch = mkdtempSync(join(tmpdir(), "cache-provenance-"));
const market = join(scratch, "market");
const cache = join(scratch, "cache");
const state = join(scratch, "state.sqlite");
let sb: AppSandbox | undefined;

const start = async () => (sb = await openAppSandbox({ marketDir: market, statePath: state, baseUrl: "http://cache-provenance.invalid" }));
const session = (): Promise<Workbench> =>
  connect({ baseUrl: sb!.baseUrl, fetch: sb!.fetch, apiKey: "demo-full-access", cache, provenance: true });
const q = { filters: { TradeDate: "2023-11-22" } };
const entries = () => readdirSync(cache).filter((f) => f.endsWith(".provenance.json")).sort();

beforeAll(async () => {
  cpSync(inject("tinyMarketDir"), market, { recursive: true });
  await start();
});
afterAll(async () => {
  await sb?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("a cached frame says where and when it came from", () => {
  it("its entry holds the service, the request, the dataset's status, the time, rows and hash; never the key", async () => {
    const wb = await session();
    const bars = await wb.data.eqTaq1Min("MSFT", q);
    const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "MSFT" } });
    expect(entries()).toHaveLength(2);
    const text = readFileSync(join(cache, entries().find((f) => f.startsWith("eq-taq-1min-"))!), "utf8");
    expect(text).not.toContain("demo-full-access");
    const entry = JSON.parse(text);
    const status = await wb.meta.status("eq-taq-1min");
    expect(entry).toMatchObject({
      version: 1,
      service: new URL(sb!.baseUrl).toString(),
      dataset: "eq-taq-1min",
      request: { path: "/api/v1/data/us-equity/eq-taq-1min/MSFT", params: [["TradeDate", "2023-11-22"]], maxRows: null },
      status: {
        last_updated: status.last_updated,
        first_available_date: status.first_available_date,
        last_available_date: status.last_available_date,
      },
      rows: bars.height,
      columns: bars.width,
      frameHash: frameHash(bars),
    });
    expect(Date.now() - Date.parse(entry.fetchedAt)).toBeLessThan(60_000);
    expect(daily.height).toBeGreaterThan(0);
  });

  it("a hit is recorded as cached, with the same hash and no request", async () => {
    const wb = await session();
    const bars = await wb.data.eqTaq1Min("MSFT", q);
    expect(wb.cache!.hits).toBe(1);
    const [call] = wb.provenance().calls;
    expect(call).toMatchObject({ cached: true, pages: 0, requestIds: [], rows: bars.height, frameHash: frameHash(bars) });
  });

  it("verify() against the same data: every frame fresh, shown as a card", async () => {
    const check = await (await session()).cache!.verify();
    expect(check.fresh.map((e) => e.dataset).sort()).toEqual(["eq-daily-ohlc", "eq-taq-1min"]);
    expect(check.stale).toEqual([]);
    expect(check.unknown).toEqual([]);
    expect(displayKindOf(check)).toBe("cache-check");
  });
});

describe("after the service's data is updated", () => {
  beforeAll(async () => {
    await sb!.stop();
    // The market is regenerated in place: its manifest is written again, later.
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(join(market, "manifest.json"), later, later);
    await start();
  });

  it("verify() reports every cached frame stale, with both update times", async () => {
    const wb = await session();
    const now = (await wb.meta.status("eq-taq-1min")).last_updated;
    const check = await wb.cache!.verify();
    expect(check.fresh).toEqual([]);
    expect(check.stale.map((e) => e.dataset).sort()).toEqual(["eq-daily-ohlc", "eq-taq-1min"]);
    const bars = check.stale.find((e) => e.dataset === "eq-taq-1min")!;
    expect(bars.lastUpdatedNow).toBe(now);
    expect(bars.lastUpdatedThen).not.toBe(now);
    expect(bars.reason).toContain(`eq-taq-1min was updated ${now}, after this frame was fetched`);
    expect(check.removed).toBe(0);
    expect(entries()).toHaveLength(2);
    const card = richBundle(check)!;
    expect(card["text/plain"]).toMatch(/^Cache verified: 2 stale of 2\n/);
    expect(card["text/plain"]).toContain("stale: eq-taq-1min");
    expect(card["text/html"]).toContain("#d9534f"); // shown as a warning
  });

  it("verify({ remove: true }) drops the stale frames; the next call fetches afresh and is fresh", async () => {
    const wb = await session();
    expect((await wb.cache!.verify({ remove: true })).removed).toBe(2);
    expect(readdirSync(cache)).toEqual([]);
    await wb.data.eqTaq1Min("MSFT", q);
    expect(wb.cache!.misses).toBe(1);
    const check = await wb.cache!.verify();
    expect(check.fresh).toHaveLength(1);
    expect(check.stale).toHaveLength(0);
  });

  it("a frame cached without readable provenance (an older workbench, or deleted) cannot be judged, and says it is never served", async () => {
    writeFileSync(join(cache, "eq-daily-ohlc-0123456789abcdef0123456789abcdef.parquet"), "");
    const check = await (await session()).cache!.verify();
    expect(check.unknown).toHaveLength(1);
    expect(check.unknown[0].reason).toMatch(
      /no readable provenance beside it \(missing or garbled\): never served, the next call fetches it again/,
    );
  });
});
