/**
 * Usage is counted when an answer is committed, against the sandbox's app in-process: a 5xx or
 * a dropped connection spends nothing (a kill -9 under load, over real HTTP:
 * usageAfterKill.test.ts; HEAD, which runs no query and spends nothing, and the 504s of a tiny
 * query budget: errorTable.test.ts, on its spawned sandbox with that budget). Also the quota
 * headers: RateLimit-* for the per-minute window only, X-Quota-Monthly-* for the month,
 * X-Quota-Warning past 90% of a monthly quota.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createQuotaAccount } from "./support/quotaAccounts.ts";
import { type AppSandbox, openAppSandbox } from "./support/appSandbox.ts";
import { TestClock } from "./support/testClock.ts";

const DAILY = "/api/v1/data/us-equity/eq-daily-ohlc?Ticker=AAPL&limit=1";

interface Usage {
  per_minute_requests: number;
  monthly_requests: number;
  monthly_data_scanned: number;
  monthly_data_returned: number;
}

describe("usage counted when answered", () => {
  const scratch = mkdtempSync(join(tmpdir(), "usage-test-"));
  const statePath = join(scratch, "state.sqlite");
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const usage = async (sb: Pick<AppSandbox, "get">, key: string): Promise<Usage> =>
    (await (await sb.get("/api/v1/account/my/quotas", key)).json()).quotas_usage;

  it("injected 503, 504, 429 and dropped connections spend nothing: usage equals the answers received", async () => {
    const sb = await openAppSandbox({
      statePath,
      settings: { faults: { seed: 11, rate503: 0.15, rate504: 0.15, rate429: 0.1, rateDrop: 0.15 } },
    });
    try {
      const account = await createQuotaAccount(statePath, { name: "Faults", perMinute: 1000, monthly: 1000 });
      const key = account.keys[0][0];
      let answered = 0, failed = 0;
      for (let i = 0; i < 60; i++) {
        try {
          const r = await sb.get(DAILY, key);
          await r.arrayBuffer();
          if (r.status === 200) answered++;
          else failed++;
        } catch {
          failed++; // the dropped connections
        }
      }
      expect(failed).toBeGreaterThan(15);
      const used = await usage(sb, key);
      expect(used.monthly_requests).toBe(answered);
    } finally {
      await sb.stop();
    }
  });

  it("sends RateLimit-* for the minute only, X-Quota-Monthly-* for the month, and X-Quota-Warning past 90% of a monthly quota", async () => {
    // The service's clock stands at the start of this minute: the 21 requests share one window.
    const minuteStart = new Date();
    minuteStart.setUTCSeconds(0, 0);
    const sb = await openAppSandbox({ statePath, now: new TestClock(minuteStart).now });
    try {
      const account = await createQuotaAccount(statePath, { name: "Twenty a month", perMinute: 50, monthly: 20 });
      const key = account.keys[0][0];
      for (let i = 1; i <= 20; i++) {
        const r = await sb.get(DAILY, key);
        await r.arrayBuffer();
        expect(r.status).toBe(200);
        expect([r.headers.get("RateLimit-Limit"), r.headers.get("RateLimit-Remaining")]).toEqual(["50", String(50 - i)]);
        expect(Number(r.headers.get("RateLimit-Reset"))).toBeLessThanOrEqual(60);
        expect([r.headers.get("X-Quota-Monthly-Requests-Limit"), r.headers.get("X-Quota-Monthly-Requests-Remaining")]).toEqual([
          "20",
          String(20 - i),
        ]);
        expect(Number(r.headers.get("X-Quota-Monthly-Returned-Bytes-Remaining"))).toBeLessThan(
          Number(r.headers.get("X-Quota-Monthly-Returned-Bytes-Limit")),
        );
        const warning = r.headers.get("X-Quota-Warning");
        if (i <= 18) expect(warning, `request ${i}`).toBeNull();
        else {expect(warning).toMatch(
            new RegExp(`^monthly requests ${Math.floor((100 * i) / 20)}% used \\(${i} of 20\\); resets \\d{4}-\\d\\d-01T00:00:00.000Z$`),
          );}
      }
      const refused = await sb.get(DAILY, key);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ detail: "Monthly request limit exceeded: 20/20 requests." });
      // The per-minute headers keep their meaning on a monthly refusal; the monthly ones say why.
      expect([refused.headers.get("RateLimit-Limit"), refused.headers.get("RateLimit-Remaining")]).toEqual(["50", "30"]);
      expect(refused.headers.get("X-Quota-Monthly-Requests-Remaining")).toBe("0");
      expect(refused.headers.get("Retry-After")).toBe(refused.headers.get("X-Quota-Monthly-Reset"));
    } finally {
      await sb.stop();
    }
  });
});
