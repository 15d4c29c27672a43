/**
 * The sandbox serves on several workers sharing one port, and quotas stay exact across them:
 * N concurrent data requests at a per-minute limit L give exactly L answers, whichever
 * workers serve them, and the usage counted is L. Over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuotaAccount } from "./support/quotaAccounts.ts";
import { roomInMinute } from "./support/quotaClock.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

const DAILY = "/api/v1/data/us-equity/eq-daily-ohlc?Ticker=AAPL&limit=1";

describe("several workers", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ args: ["--workers", "2"] });
  });
  afterAll(() => sb.stop());

  it("says how many workers serve, at start", () => {
    expect(sb.stdout).toContain("workers: 2 (one port, shared with SO_REUSEPORT)");
  });

  it("admits exactly L of N concurrent requests at a limit of L, with two or more workers answering", async () => {
    for (const [limit, n] of [[25, 80], [7, 60]]) {
      const account = await createQuotaAccount(sb.statePath, { name: `Limit ${limit}`, perMinute: limit, monthly: 100_000 });
      const key = account.keys[0][0];
      await roomInMinute(10);
      // Fresh connections for each request, so the kernel spreads them over the workers.
      const responses = await Promise.all(Array.from({ length: n }, () => sb.get(DAILY, key, { Connection: "close" })));
      await Promise.all(responses.map((r) => r.arrayBuffer()));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
      expect(statuses.filter((s) => s === 429)).toHaveLength(n - limit);
      const workers = new Set(responses.map((r) => r.headers.get("X-Sandbox-Worker")));
      expect(workers.size).toBeGreaterThanOrEqual(2);
      const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get("RateLimit-Remaining"))).sort((a, b) =>
        b - a
      );
      expect(remaining).toEqual(Array.from({ length: limit }, (_, i) => limit - 1 - i));
      const usage = (await (await sb.get("/api/v1/account/my/quotas", key)).json()).quotas_usage;
      expect(usage).toMatchObject({ per_minute_requests: limit, monthly_requests: limit });
    }
  });

  it("draws injected faults in arrival order over all workers: two runs with one seed meet the same faults", async () => {
    const run = async () => {
      const faulty = await startSandbox({ args: ["--workers", "2", "--faults", "5,0.2,0.2,0.2,0"] });
      try {
        const seen: string[] = [];
        for (let i = 0; i < 30; i++) {
          const r = await faulty.get(DAILY, "demo-full-access", { Connection: "close" });
          await r.arrayBuffer();
          seen.push(`${r.status}@${r.headers.get("X-Sandbox-Worker")}`);
        }
        return seen;
      } finally {
        await faulty.stop();
      }
    };
    const [first, second] = [await run(), await run()];
    const statuses = (seen: string[]) => seen.map((s) => s.split("@")[0]);
    expect(statuses(first)).toEqual(statuses(second));
    expect(new Set(statuses(first)).size).toBeGreaterThan(1);
    expect(new Set(first.map((s) => s.split("@")[1])).size).toBe(2);
  });
});
