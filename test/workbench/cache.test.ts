/**
 * The opt-in on-disk cache: a hit sends no data request and spends no quota, results stay
 * apart per key, and a folder that cannot be written is read from but never written to.
 *
 * Tests run as root here, and root writes through `chmod 555`. So the read-only folder is made
 * read-only for root too: `chmod 555` plus the immutable attribute (`chattr +i`), which the
 * kernel enforces for every user and which access(2) reports, as the cache's check uses it.
 * (Not root: `chmod 555` alone is enough.) A second case uses a folder that cannot even be
 * created, because its parent is a regular file.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connect, QueryError, type Workbench } from "../../workbench/mod.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";
import { expectSameFrame } from "./support/frames.ts";
import process from "node:process";

let sb: AppSandbox;
let scratch: string;
const q = { filters: { TradeDate: "2023-11-22" } };

beforeAll(async () => {
  sb = await openAppSandbox();
  scratch = mkdtempSync(join(tmpdir(), "wb-cache-"));
});
afterAll(async () => {
  await sb?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const session = (cache: string, apiKey = "demo-full-access") => connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey, cache });
/** Data requests the key's team has made this month, as the service counts them. */
const monthlyRequests = async (wb: Workbench) => (await wb.account.quotasRaw()).quotas_usage.monthly_requests;
const parquetIn = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".parquet")).sort();

describe("a writable cache folder", () => {
  it("a repeated query is served from disk: no request, no quota, the same frame", async () => {
    const dir = join(scratch, "writable");
    const wb = await session(dir);
    const first = await wb.data.eqTaq1Min("MSFT", q);
    expect(parquetIn(dir)).toHaveLength(1);
    const used = await monthlyRequests(wb);
    const sent = wb.transport.requestsSent;
    const again = await wb.data.eqTaq1Min("MSFT", q);
    expect(wb.transport.requestsSent).toBe(sent);
    expect(wb.cache!.hits).toBe(1);
    expectSameFrame(again, first);
    expect(await monthlyRequests(wb)).toBe(used);
  });

  it("a new session on the same folder hits too, while another query or another key misses", async () => {
    const dir = join(scratch, "writable");
    const wb = await session(dir);
    const used = await monthlyRequests(wb);
    await wb.data.eqTaq1Min("MSFT", q);
    expect(wb.cache!.hits).toBe(1);
    expect(await monthlyRequests(wb)).toBe(used);
    await wb.data.eqTaq1Min("MSFT", { filters: { TradeDate: "2023-11-21" } });
    expect(wb.cache!.misses).toBe(1);
    expect(await monthlyRequests(wb)).toBe(used + 1);
    const other = await session(dir, "demo-restricted");
    await other.data.eqTaq1Min("MSFT", q);
    expect(other.cache!.misses).toBe(1);
    expect(parquetIn(dir)).toHaveLength(3);
  });
});

describe("a folder that cannot be written", () => {
  function makeReadOnly(dir: string): () => void {
    chmodSync(dir, 0o555);
    if (process.getuid?.() !== 0) return () => chmodSync(dir, 0o755);
    execFileSync("chattr", ["+i", dir]);
    return () => {
      execFileSync("chattr", ["-i", dir]);
      chmodSync(dir, 0o755);
    };
  }

  it("is read from on a hit and never written on a miss, with one warning", async () => {
    const dir = join(scratch, "read-only");
    const seeded = await (await session(dir)).data.eqTaq1Min("AAPL", q);
    const listing = parquetIn(dir);
    const everything = readdirSync(dir).sort(); // the frame and its provenance entry
    const mtime = statSync(join(dir, listing[0])).mtimeMs;
    const restore = makeReadOnly(dir);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(() => writeFileSync(join(dir, "probe"), "x")).toThrow(); // really read-only, even for root
      const wb = await session(dir);
      await Promise.all([wb.account.rules(), wb.meta.schema("eq-taq-1min"), wb.meta.availability("eq-taq-1min")]); // the session's free lookups
      const sent = wb.transport.requestsSent;
      expectSameFrame(await wb.data.eqTaq1Min("AAPL", q), seeded);
      expect(wb.transport.requestsSent).toBe(sent);
      const used = await monthlyRequests(wb);
      const fresh = await wb.data.eqTaq1Min("SPY", q);
      const again = await wb.data.eqTaq1Min("SPY", q);
      expect(await monthlyRequests(wb)).toBe(used + 2); // nothing cached, so both were fetched
      expectSameFrame(again, fresh);
      expect(parquetIn(dir)).toEqual(listing);
      expect(readdirSync(dir).sort()).toEqual(everything);
      expect(statSync(join(dir, listing[0])).mtimeMs).toBe(mtime);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toMatch(/is not writable.*will not be cached/);
    } finally {
      warn.mockRestore();
      restore();
    }
  });

  it("whose parent is a regular file is never created, and fetches still work", async () => {
    const file = join(scratch, "a-file");
    writeFileSync(file, "not a folder");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const wb = await session(join(file, "cache"));
      const frame = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
      expect(frame.height).toBe(6);
      await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
      expect(wb.cache!.hits).toBe(0);
      expect(statSync(file).isFile()).toBe(true);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("a workbench connected without a cache", () => {
  it("has wb.cache all the same: not enabled, and verify() says there is no cache and how to get one, before any request", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
    expect(wb.cache.enabled).toBe(false);
    const error = await wb.cache.verify().catch((e) => e);
    expect(error).toBeInstanceOf(QueryError);
    expect(error.message).toMatch(
      /^This workbench has no cache, so there is nothing to verify: connect\(\{ cache: "<dir>" \}\) keeps each fetched frame on disk/,
    );
    await expect(wb.cache.verify({ remove: true })).rejects.toThrow(QueryError);
    expect(wb.transport.requestsSent).toBe(0);
  });

  it("fetches every call, counting no hit", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
    const used = await monthlyRequests(wb);
    await wb.data.eqDailyOhlc({ filters: { Ticker: "MSFT" } });
    await wb.data.eqDailyOhlc({ filters: { Ticker: "MSFT" } });
    expect(await monthlyRequests(wb)).toBe(used + 2);
    expect([wb.cache.hits, wb.cache.misses, wb.cache.dir]).toEqual([0, 0, undefined]);
    expect((await session(join(scratch, "enabled"))).cache.enabled).toBe(true);
  });
});
