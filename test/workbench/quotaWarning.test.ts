/**
 * The service's near-quota warning (`X-Quota-Warning`, past 90% of a monthly quota) reaches the
 * notebook: printed once per quota per session, against the sandbox's app in-process.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connect } from "../../workbench/mod.ts";
import { createQuotaAccount } from "../sandbox/service/support/quotaAccounts.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";

describe("the service's quota warning", () => {
  let sb: AppSandbox;
  beforeAll(async () => void (sb = await openAppSandbox()));
  afterAll(async () => await sb?.stop());

  it("prints once, naming the quota, when a monthly quota passes 90%", async () => {
    const account = await createQuotaAccount(sb.statePath, { name: "Twenty a month", perMinute: 100, monthly: 20 });
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: account.keys[0][0] });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const quotaWarnings = () => warn.mock.calls.map((c) => String(c[0])).filter((t) => t.startsWith("Quota warning"));
      for (let i = 1; i <= 20; i++) {
        // Every call is one request; `force` keeps the quota guard out of the way near the limit.
        await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL", TradeDate: "2023-11-21" }, force: true });
        if (i <= 18) expect(quotaWarnings(), `after request ${i}`).toEqual([]);
      }
      expect(quotaWarnings()).toHaveLength(1);
      expect(quotaWarnings()[0]).toMatch(/^Quota warning from the service: monthly requests 95% used \(19 of 20\)/);
      expect(wb.transport.quotaWarnings.latest).toMatch(/^monthly requests 100% used \(20 of 20\)/);
    } finally {
      warn.mockRestore();
    }
  });
});
