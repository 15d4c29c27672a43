import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

describe("the sandbox over real HTTP", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.stop());

  it("answers an identity request for a demo key", async () => {
    const r = await sb.get("/api/v1/account/my", "demo-full-access");
    expect(r.status).toBe(200);
    expect(r.headers.get("X-Request-ID")).toMatch(/.+/);
    expect(await r.json()).toEqual({ identity_id: 1, name: "Demo full access", max_active_api_keys: 5, ip_subnets: [] });
  });

  it("serves a page of daily bars with the spec's envelope", async () => {
    const r = await sb.get("/api/v1/data/us-equity/eq-daily-ohlc?Ticker=AAPL&limit=2", "demo-full-access");
    const body = await r.json();
    expect(body.pagination).toEqual({ offset: 0, limit: 2, next_offset: 2 });
    expect(body.data.map((d: { TradeDate: string }) => d.TradeDate)).toEqual(["2023-11-20", "2023-11-21"]);
  });
});
