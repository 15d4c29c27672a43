/**
 * What the manifest keeps beyond the calls that returned a frame: calls that failed (refused
 * before sending, or stopped by the service: class and message, never the key), resumed calls,
 * and
 * `wb.download` runs (partitions fetched with their rows and hashes, partitions reused). Real
 * HTTP against the sandbox, with an account of its own whose monthly quota runs out.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, frameHash } from "../../../workbench/mod.ts";
import { type AppSandbox, openAppSandbox } from "../../sandbox/service/support/appSandbox.ts";
import { createQuotaAccount } from "../../sandbox/service/support/quotaAccounts.ts";
import { createAccount, setMonthlyLimit } from "../support/state.ts";

let sb: AppSandbox;
let key: string;
let scarce: string;
const scratch = mkdtempSync(join(tmpdir(), "provenance-more-"));
beforeAll(async () => {
  sb = await openAppSandbox();
  key = (await createQuotaAccount(sb.statePath, { name: "Provenance downloads", perMinute: 1000, monthly: 100_000 })).keys[0][0];
  scarce = (await createQuotaAccount(sb.statePath, { name: "Provenance scarce", perMinute: 1000, monthly: 1 })).keys[0][0];
});
afterAll(async () => {
  await sb?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("failed calls are recorded", () => {
  it("a call refused before sending, with its error and no request", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: key, provenance: true });
    await expect(wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-13-01" } })).rejects.toThrow();
    const [call] = wb.provenance().calls;
    expect(call).toMatchObject({ seq: 1, dataset: "eq-taq-1min", rows: 0, requests: [], requestIds: [] });
    expect(call.error?.name).toMatch(/Error$/);
    expect(call.error?.message).toContain("2023-13-01");
    expect(call.frameHash).toBeUndefined();
  });

  it("a call the service stopped (monthly quota spent): class, status, message; the next call still recorded; never the key", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: scarce, provenance: true, quotaGuard: false });
    const first = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" }, maxRows: 2 });
    const failure = await wb.data.eqDailyOhlc({ filters: { Ticker: "MSFT" }, maxRows: 2 }).catch((e) => e as Error);
    expect(failure).toBeInstanceOf(Error);
    const calls = wb.provenance().calls;
    expect(calls.map((c) => [c.seq, c.rows, c.error?.name])).toEqual([[1, 2, undefined], [2, 0, failure.name]]);
    expect(calls[0].frameHash).toBe(frameHash(first));
    expect(calls[1].error).toMatchObject({ name: "QuotaExceededError", status: 429, message: failure.message });
    expect(calls[1].requests[0].params).toContainEqual(["Ticker", "MSFT"]);
    expect(JSON.stringify(wb.provenance())).not.toContain(scarce);
  });
});

describe("a resumed call is recorded", () => {
  it("the universe cut short by the monthly quota is a failed call; its resume() a call of its own that resumes it, with the whole frame's hash", async () => {
    const cut = "provenance-resume";
    createAccount(sb.statePath, { key: cut, perMinute: 100_000, monthly: 2 });
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: cut, provenance: true });
    const tickers = ["SPY", "AAPL", "MSFT"];
    const error = await wb.data.eqTaq1Min(tickers, { start: "2023-11-20", end: "2023-11-20", concurrency: 1, force: true }).catch((e) => e);
    expect(error.name).toBe("QuotaExceededError");
    setMonthlyLimit(sb.statePath, cut, 100);
    const whole = await error.resume();
    const [failed, resumed] = wb.provenance().calls;
    expect(failed).toMatchObject({
      seq: 1,
      rows: 0,
      error: { name: "QuotaExceededError", status: 429, partialRows: error.partial.height },
    });
    expect(resumed).toMatchObject({ seq: 2, resumes: 1, rows: whole.height, frameHash: frameHash(whole) });
    expect(resumed.requests.map((r) => r.path.split("/").at(-1))).toEqual(tickers);
  });
});

describe("wb.download runs are recorded", () => {
  const dir = join(scratch, "lake");
  it("with each fetched partition's rows and hash, and how many partitions a wider re-run reused", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: key, provenance: true });
    const first = await wb.download("eq-taq-1min", { tickers: ["AAPL", "MSFT"], start: "2023-11-20", end: "2023-11-21" }, dir);
    const second = await wb.download("eq-taq-1min", { tickers: ["AAPL", "MSFT"], start: "2023-11-20", end: "2023-11-22" }, dir);
    const [a, b] = wb.provenance().downloads!;
    expect(a).toMatchObject({ seq: 1, dataset: "eq-taq-1min", dir, reused: 0, rows: first.rows });
    expect(a.fetched.map((p) => p.path)).toEqual([
      "Ticker=AAPL/TradeDate=2023-11-20",
      "Ticker=AAPL/TradeDate=2023-11-21",
      "Ticker=MSFT/TradeDate=2023-11-20",
      "Ticker=MSFT/TradeDate=2023-11-21",
    ]);
    expect(a.requestIds.length).toBeGreaterThanOrEqual(2);
    expect(a.bytes).toBeGreaterThan(0);
    expect(b).toMatchObject({ seq: 2, reused: 4, rows: second.rows });
    expect(b.fetched.map((p) => p.path)).toEqual(["Ticker=AAPL/TradeDate=2023-11-22", "Ticker=MSFT/TradeDate=2023-11-22"]);
    // The reused partitions, read back from their files, hash as when they were fetched.
    expect(b.reusedPartitions).toEqual(a.fetched);
    // A partition's hash is the hash of the same rows asked for directly.
    const day = await wb.data.eqTaq1Min("MSFT", { start: "2023-11-22", end: "2023-11-22" });
    expect(b.fetched[1]).toEqual({ path: "Ticker=MSFT/TradeDate=2023-11-22", rows: day.height, frameHash: frameHash(day) });
    expect(JSON.stringify(wb.provenance())).not.toContain(key);
  });

  it("a re-run of a narrower range records only its range's partitions; a partition file gone is fetched again and recorded as fetched", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: key, provenance: true });
    // MSFT's file of 2023-11-20 and 2023-11-21: the run's range has the second.
    rmSync(join(dir, "Ticker=MSFT/part-2023-11-20_2023-11-21.parquet"));
    const result = await wb.download("eq-taq-1min", { tickers: ["MSFT"], start: "2023-11-21", end: "2023-11-22" }, dir);
    expect(result.warnings[0]).toMatch(
      /was damaged \(its file is missing\): removed; its partition Ticker=MSFT\/TradeDate=2023-11-21 fetched again; its partition Ticker=MSFT\/TradeDate=2023-11-20, outside this range/,
    );
    const [d] = wb.provenance().downloads!;
    expect(d.reused).toBe(4);
    expect(d.fetched.map((p) => p.path)).toEqual(["Ticker=MSFT/TradeDate=2023-11-21"]);
    expect(d.requestIds).toHaveLength(1);
    expect(d.reusedPartitions!.map((p) => [p.path, p.frameHash?.slice(0, 5), p.error])).toEqual([
      ["Ticker=MSFT/TradeDate=2023-11-22", "rows:", undefined],
    ]);
  });

  it("a failed download is recorded with its error", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: key, provenance: true });
    await expect(
      wb.download("eq-taq-1min", { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-21", aggregation: "no_finra_trf" }, dir),
    ).rejects.toThrow(/different query/);
    const [d] = wb.provenance().downloads!;
    expect(d.error?.message).toMatch(/different query/);
    expect(d.fetched).toEqual([]);
  });
});
