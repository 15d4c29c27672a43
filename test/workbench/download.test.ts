/**
 * `wb.download` streams pages into Parquet parts and resumes after an interruption without
 * fetching written parts again; `wb.scan` reads them back; `wb.estimate` sizes a download
 * against the remaining quotas from free metadata, and a download beyond the month's
 * remaining requests refuses to start unless forced.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, QueryError, QuotaExceededError, type Workbench } from "../../workbench/mod.ts";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";
import { expectSameFrame } from "./support/frames.ts";
import { createAccount, setMonthlyLimit } from "./support/state.ts";

const DAY = "2023-11-21", TICKER = "ODFL"; // 7,738 ticks: 8 pages of 1,000
const query = { pageSize: 1000 };
const pathValues = [DAY, TICKER];

let sb: TestSandbox;
let scratch: string;
let full: Workbench;
let reference: pl.DataFrame;

beforeAll(async () => {
  sb = await startSandbox();
  scratch = mkdtempSync(join(tmpdir(), "wb-download-"));
  full = await connect({ baseUrl: sb.baseUrl, apiKey: "demo-full-access" });
  reference = await full.data.eqTaq(DAY, TICKER);
});
afterAll(async () => {
  await sb?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const monthlyRequests = async (wb: Workbench) => (await wb.account.quotasRaw()).quotas_usage.monthly_requests;
const parts = (dir: string) => readdirSync(dir).filter((f) => /^part-\d+\.parquet$/.test(f)).sort();

describe("download and scan", () => {
  it("writes one part per page, and the scan gives the rows of a fetch", async () => {
    const dir = join(scratch, "whole");
    const result = await full.download("eq-taq", query, dir, { pathValues });
    expect(result).toEqual({ dir, rows: 7738, parts: 8, resumed: false });
    expect(parts(dir)).toHaveLength(8);
    expectSameFrame(full.scan(dir).collectSync(), reference);
  });

  it("running a finished download again sends no data request", async () => {
    const dir = join(scratch, "whole");
    const used = await monthlyRequests(full);
    const again = await full.download("eq-taq", query, dir, { pathValues });
    expect(again).toMatchObject({ rows: 7738, parts: 8, resumed: false });
    expect(await monthlyRequests(full)).toBe(used);
  });

  it("interrupted by the monthly quota, a rerun resumes without fetching the written parts again", async () => {
    const key = "wb-download-month";
    createAccount(sb.statePath, { key, perMinute: 100_000, monthly: 3 });
    const wb = await connect({ baseUrl: sb.baseUrl, apiKey: key });
    const dir = join(scratch, "interrupted");
    const error = await wb.download("eq-taq", query, dir, { pathValues, force: true }).then(() => expect.fail("the download finished"), (e) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.quota).toBe("monthly_requests");
    expect(parts(dir)).toEqual(["part-000000.parquet", "part-000001.parquet", "part-000002.parquet"]);
    expect(JSON.parse(readFileSync(join(dir, "_download.json"), "utf8"))).toMatchObject({ nextOffset: 3000, rows: 3000, parts: 3, done: false });
    const written = parts(dir).map((f) => statSync(join(dir, f))).map((s) => [s.ino, s.mtimeMs]);

    setMonthlyLimit(sb.statePath, key, 100_000);
    const used = await monthlyRequests(wb);
    const result = await wb.download("eq-taq", query, dir, { pathValues });
    expect(result).toMatchObject({ rows: 7738, parts: 8, resumed: true });
    expect(await monthlyRequests(wb)).toBe(used + 5); // the five missing pages, nothing more
    expect(parts(dir).slice(0, 3).map((f) => statSync(join(dir, f))).map((s) => [s.ino, s.mtimeMs])).toEqual(written);
    expectSameFrame(wb.scan(dir).collectSync(), reference);
  });

  it("a folder holding another query's download is refused", async () => {
    const dir = join(scratch, "whole");
    await expect(full.download("eq-taq", query, dir, { pathValues: ["2023-11-22", TICKER] })).rejects.toThrow(/holds a download of a different query/);
  });
});

describe("estimate", () => {
  it("gives requests, rows and bytes against the remaining quotas, and spends no quota", async () => {
    const used = await monthlyRequests(full);
    const e = await full.estimate("eq-taq-1min", { pageSize: 100 }, ["AAPL"]);
    const quotas = await full.account.quotasRaw();
    expect(Object.keys(e).sort()).toEqual(["bytes", "dataset", "fitsMonthlyQuota", "minutesAtRateLimit", "remaining", "requests", "rows"]);
    expect(e.dataset).toBe("eq-taq-1min");
    const actual = (await full.data.eqTaq1Min("AAPL")).height;
    expect(e.rows).toBeGreaterThan(actual / 2);
    expect(e.rows).toBeLessThan(actual * 2);
    expect(e.requests).toBe(Math.ceil(e.rows / 100) + 1);
    expect(e.bytes).toBeGreaterThan(e.rows * 62); // 62 columns, at least a byte each
    expect(e.remaining.monthly_requests).toBe(quotas.quotas_limit.monthly_requests - used);
    expect(e.remaining.per_minute_requests).toBeLessThanOrEqual(quotas.quotas_limit.per_minute_requests);
    expect(e.fitsMonthlyQuota).toBe(true);
    expect(e.minutesAtRateLimit).toBeCloseTo(e.requests / quotas.quotas_limit.per_minute_requests, 10);
    expect(quotas.quotas_usage.monthly_requests).toBe(used);
  });

  it("scales by the trade date of a tick path and by a date filter", async () => {
    const oneDay = await full.estimate("eq-taq", query, pathValues);
    const otherDay = await full.estimate("eq-taq", query, ["2023-11-22", TICKER]);
    expect(oneDay.rows).toBe(otherDay.rows);
    const status = await full.meta.status("eq-taq");
    expect(oneDay.rows).toBeLessThan(status.row_count / 14 / 3); // one ticker, one of six trading days
    const bars = await full.estimate("eq-taq-1min", { filters: { TradeDate: "2023-11-21" } }, ["AAPL"]);
    expect(bars.rows).toBeGreaterThan(960 / 2);
    expect(bars.rows).toBeLessThan(960 * 2);
  });

  it("refuses a download beyond the month's remaining requests before sending any data request, unless forced", async () => {
    const key = "wb-estimate-month";
    createAccount(sb.statePath, { key, perMinute: 100_000, monthly: 5 });
    const wb = await connect({ baseUrl: sb.baseUrl, apiKey: key });
    const small = { pageSize: 100 };
    const e = await wb.estimate("eq-taq-1min", small, ["AAPL"]);
    expect(e.requests).toBeGreaterThan(5);
    expect(e.fitsMonthlyQuota).toBe(false);
    const dir = join(scratch, "refused");
    await expect(wb.download("eq-taq-1min", small, dir, { pathValues: ["AAPL"] })).rejects.toThrow(QueryError);
    await expect(wb.download("eq-taq-1min", small, dir, { pathValues: ["AAPL"] })).rejects.toThrow(/this month leaves 5 requests.*force: true/);
    expect(await monthlyRequests(wb)).toBe(0);
    const forced = await wb.download("eq-taq-1min", small, dir, { pathValues: ["AAPL"], force: true }).catch((x) => x);
    expect(forced).toBeInstanceOf(QuotaExceededError);
    expect(parts(dir)).toHaveLength(5);
    expect(await monthlyRequests(wb)).toBe(5);
  });
});
