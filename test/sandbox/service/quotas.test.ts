/**
 * Quotas over real HTTP: exact admission under concurrency, the monthly limit, usage shared by
 * every key of a team, bytes scanned and returned, counters that survive a restart, and free
 * account and meta endpoints.
 *
 * Accounts with chosen limits are made with the admin command (`teams create`, `identities
 * create`, `keys create`; see support/quotaAccounts.ts). That account and meta endpoints and
 * refused data requests spend no quota is the service's decision, recorded where it is made:
 * routes/account.ts and routes/meta.ts ("Free: they spend no quota") and routes/data.ts
 * ("Only a request that passes validation and entitlement spends quota").
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminJson } from "./support/admin.ts";
import { createQuotaAccount } from "./support/quotaAccounts.ts";
import { minuteOf, roomInMinute, secondsLeftInMinute, secondsToMonthReset } from "./support/quotaClock.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

interface Quotas {
  quotas_usage: Record<"per_minute_requests" | "monthly_requests" | "monthly_data_scanned" | "monthly_data_returned", number>;
  quotas_limit: Record<"per_minute_requests" | "monthly_requests" | "monthly_data_scanned" | "monthly_data_returned", number>;
}

const DAILY = "/api/v1/data/us-equity/eq-daily-ohlc?Ticker=AAPL&limit=1";
/** Two workers share the state file, so counting is checked across processes' threads, not within one. */
const TWO_WORKERS = ["--workers", "2"];

describe("quotas", () => {
  const scratch = mkdtempSync(join(tmpdir(), "quotas-test-"));
  // Our own state file, so it outlives the sandbox that wrote it (the restart test).
  const statePath = join(scratch, "state.sqlite");
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ statePath, args: TWO_WORKERS });
  });
  afterAll(async () => {
    await sb.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  const quotas = async (key: string): Promise<Quotas> => {
    const r = await sb.get("/api/v1/account/my/quotas", key);
    expect(r.status).toBe(200);
    return (await r.json()) as Quotas;
  };
  const burst = (key: string, n: number) => Promise.all(Array.from({ length: n }, () => sb.get(DAILY, key)));

  /** Checks that a burst let exactly `limit` through, with the spec-style 429 on the rest. */
  async function expectExactlyAdmitted(responses: Response[], limit: number, detail: string, resetSeconds: number) {
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(limit);
    expect(refused).toHaveLength(responses.length - limit);
    // Each admitted request saw its own count: the remaining values are limit-1 down to 0.
    const remaining = ok.map((r) => Number(r.headers.get("RateLimit-Remaining"))).sort((a, b) => b - a);
    if (detail.startsWith("Per-minute")) expect(remaining).toEqual(Array.from({ length: limit }, (_, i) => limit - 1 - i));
    for (const r of refused) {
      expect(await r.json()).toEqual({ detail });
      const retryAfter = Number(r.headers.get("Retry-After"));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(Math.abs(retryAfter - resetSeconds)).toBeLessThanOrEqual(3);
      if (detail.startsWith("Per-minute")) {
        // RateLimit-* always describe the per-minute window.
        expect(r.headers.get("RateLimit-Limit")).toBe(String(limit));
        expect(r.headers.get("RateLimit-Remaining")).toBe("0");
        expect(r.headers.get("RateLimit-Reset")).toBe(String(retryAfter));
      } else {
        expect(r.headers.get("X-Quota-Monthly-Requests-Limit")).toBe(String(limit));
        expect(r.headers.get("X-Quota-Monthly-Requests-Remaining")).toBe("0");
        expect(r.headers.get("X-Quota-Monthly-Reset")).toBe(String(retryAfter));
      }
    }
    await Promise.all(ok.map((r) => r.arrayBuffer()));
  }

  it("admits exactly 5 of 12 concurrent data requests for demo-tiny-quota (5 a minute) and answers the rest 429", async () => {
    await roomInMinute(10);
    const responses = await burst("demo-tiny-quota", 12);
    await expectExactlyAdmitted(responses, 5, "Per-minute request limit exceeded: 5/5 requests.", secondsLeftInMinute());
    const q = await quotas("demo-tiny-quota");
    expect(q.quotas_limit).toMatchObject({ per_minute_requests: 5, monthly_requests: 50 });
    // Refused requests are not counted.
    expect(q.quotas_usage).toMatchObject({ per_minute_requests: 5, monthly_requests: 5 });
  });

  it("admits exactly 40 of 100 concurrent data requests for a team allowed 40 a minute", async () => {
    const account = await createQuotaAccount(statePath, { name: "Forty a minute", perMinute: 40, monthly: 100_000 });
    const key = account.keys[0][0];
    await roomInMinute(10);
    const responses = await burst(key, 100);
    await expectExactlyAdmitted(responses, 40, "Per-minute request limit exceeded: 40/40 requests.", secondsLeftInMinute());
    expect((await quotas(key)).quotas_usage).toMatchObject({ per_minute_requests: 40, monthly_requests: 40 });
  });

  it("refuses requests past the monthly limit with the spec's message, until the month resets", async () => {
    const account = await createQuotaAccount(statePath, { name: "Three a month", perMinute: 100, monthly: 3 });
    const key = account.keys[0][0];
    await roomInMinute(10);
    const responses = await burst(key, 7);
    await expectExactlyAdmitted(responses, 3, "Monthly request limit exceeded: 3/3 requests.", secondsToMonthReset());
    // The monthly block holds however the minute goes.
    const later = await sb.get(DAILY, key);
    expect(later.status).toBe(429);
    expect((await later.json()).detail).toBe("Monthly request limit exceeded: 3/3 requests.");
    expect((await quotas(key)).quotas_usage).toMatchObject({ per_minute_requests: 3, monthly_requests: 3 });
  });

  it("sums usage over every key of a team: two identities with two keys each share one budget", async () => {
    const account = await createQuotaAccount(statePath, {
      name: "Shared four",
      perMinute: 4,
      monthly: 1000,
      identities: 2,
      keysPerIdentity: 2,
    });
    const [[a1, a2], [b1, b2]] = account.keys;
    await roomInMinute(10);
    for (const key of [a1, b1, a2, b2]) expect((await sb.get(DAILY, key)).status).toBe(200);
    for (const key of [a1, a2, b1, b2]) {
      const r = await sb.get(DAILY, key);
      expect(r.status).toBe(429);
      expect((await r.json()).detail).toBe("Per-minute request limit exceeded: 4/4 requests.");
    }
    const seen = await Promise.all([a1, a2, b1, b2].map(quotas));
    for (const q of seen) expect(q).toEqual(seen[0]);
    expect(seen[0].quotas_usage).toMatchObject({ per_minute_requests: 4, monthly_requests: 4 });
    const [team] = await adminJson<{ identity_ids: number[]; quotas_usage: Quotas["quotas_usage"] }[]>(
      statePath,
      "usage",
      "--identity",
      String(account.identityIds[1]),
    );
    expect(team.identity_ids).toEqual(account.identityIds);
    expect(team.quotas_usage).toEqual(seen[0].quotas_usage);
  });

  it("adds the Parquet bytes scanned and the bytes returned by each data request to the monthly counters", async () => {
    const account = await createQuotaAccount(statePath, { name: "Bytes", perMinute: 100, monthly: 1000 });
    const key = account.keys[0][0];
    const dir = join(inject("tinyMarketDir"), "eq-daily-ohlc");
    const files = readdirSync(dir).filter((f) => f.endsWith(".parquet")).sort();
    const size = (f: string) => statSync(join(dir, f)).size;
    const firstDay = /TradeDate=(.+)\.parquet/.exec(files[0])![1];
    expect((await quotas(key)).quotas_usage).toMatchObject({ monthly_data_scanned: 0, monthly_data_returned: 0 });

    // One day's filter prunes the scan to that day's file.
    const oneDay = await sb.get(`/api/v1/data/us-equity/eq-daily-ohlc?TradeDate=${firstDay}&limit=3`, key);
    const oneDayBytes = (await oneDay.arrayBuffer()).byteLength;
    let usage = (await quotas(key)).quotas_usage;
    expect(usage.monthly_data_scanned).toBe(size(files[0]));
    expect(usage.monthly_data_returned).toBe(oneDayBytes);

    // No date filter scans every file; CSV and gzip bodies count as sent.
    const all = await sb.get("/api/v1/data/us-equity/eq-daily-ohlc?response_format=csv", key);
    const csvBytes = (await all.arrayBuffer()).byteLength;
    const gz = await sb.get("/api/v1/data/us-equity/eq-daily-ohlc?response_format=csv_gzip&limit=10", key);
    expect(gz.headers.get("Content-Type")).toContain("gzip");
    const gzBytes = (await gz.arrayBuffer()).byteLength;
    usage = (await quotas(key)).quotas_usage;
    const total = files.reduce((s, f) => s + size(f), 0);
    // The unfiltered CSV page reads every file; the 10-row gzip page reads only the file
    // holding its rows (the engine opens just the files a page needs).
    expect(usage.monthly_data_scanned).toBe(size(files[0]) + total + size(files[0]));
    expect(usage.monthly_data_returned).toBe(oneDayBytes + csvBytes + gzBytes);
    expect(csvBytes).toBeGreaterThan(oneDayBytes);
  });

  it("spends no quota on account and meta endpoints, nor on refused data requests", async () => {
    const account = await createQuotaAccount(statePath, { name: "Two a minute", perMinute: 2, monthly: 2 });
    const key = account.keys[0][0];
    await roomInMinute(10);
    const free = [
      "/api/v1/account/my",
      "/api/v1/account/my/quotas",
      "/api/v1/account/my/data-access-rules",
      "/api/v1/meta/datasets",
      "/api/v1/meta/datasets/eq-daily-ohlc/status",
      "/api/v1/meta/datasets/eq-daily-ohlc/columns",
    ];
    for (let round = 0; round < 3; round++) {
      for (const path of free) expect((await sb.get(path, key)).status, path).toBe(200);
    }
    const refused = [
      ["/api/v1/data/us-equity/eq-daily-ohlc?limit=abc", 422],
      ["/api/v1/data/us-equity/eq-daily-ohlc?Foo=1", 422],
      ["/api/v1/data/us-equity/no-such-set", 404],
    ] as const;
    for (const [path, status] of refused) expect((await sb.get(path, key)).status, path).toBe(status);
    expect((await quotas(key)).quotas_usage).toEqual({
      per_minute_requests: 0,
      monthly_requests: 0,
      monthly_data_scanned: 0,
      monthly_data_returned: 0,
    });
    // The whole budget is still there, and once it is spent the free endpoints still answer.
    for (let i = 0; i < 2; i++) expect((await sb.get(DAILY, key)).status).toBe(200);
    expect((await sb.get(DAILY, key)).status).toBe(429);
    for (const path of free) expect((await sb.get(path, key)).status, path).toBe(200);
  });

  it("keeps every counter across a restart on the same state file (SIGTERM, then a new process)", async () => {
    const account = await createQuotaAccount(statePath, { name: "Restart", perMinute: 3, monthly: 1000 });
    const key = account.keys[0][0];
    await roomInMinute(12);
    for (let i = 0; i < 3; i++) expect((await sb.get(DAILY, key)).status).toBe(200);
    const keys = [key, "demo-tiny-quota", "demo-full-access"];
    const before = await Promise.all(keys.map(quotas));
    const minuteBefore = minuteOf();
    expect(before[0].quotas_usage.per_minute_requests).toBe(3);

    await sb.stop();
    sb = await startSandbox({ statePath, args: TWO_WORKERS });

    const after = await Promise.all(keys.map(quotas));
    if (minuteOf() === minuteBefore) {
      expect(after).toEqual(before);
      // Still spent, so still refused: the counter is enforced, not only reported.
      expect((await sb.get(DAILY, key)).status).toBe(429);
    } else {
      // The restart crossed a minute boundary (roomInMinute makes this rare): months must agree.
      after.forEach((q, i) =>
        expect({ ...q.quotas_usage, per_minute_requests: 0 }).toEqual({ ...before[i].quotas_usage, per_minute_requests: 0 })
      );
    }
    expect(after[1].quotas_usage.monthly_requests).toBeGreaterThanOrEqual(5);
  });
});
