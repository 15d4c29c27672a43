/**
 * The sandbox over real HTTP: a spawned process answering on a port, and the answers only a
 * socket can carry (a method `fetch` will not send, a request target too long for the HTTP
 * server) checked against its /openapi.json, whose other promises openapi.test.ts checks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContractCheck } from "./support/contractCheck.ts";
import { rawGet, rawRequest } from "./support/fuzzRawGet.ts";
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

  it("validates the sandbox's real 405 and 414 answers against the document, and catches ones that do not match", async () => {
    const tooLong = `/api/v1/account/my?pad=${"a".repeat(65_535 - "/api/v1/account/my?pad=".length)}`;
    const answers = [
      [
        "POST",
        "/api/v1/data/us-equity/eq-daily-ohlc?limit=1",
        await rawRequest(sb.baseUrl, "POST", "/api/v1/data/us-equity/eq-daily-ohlc?limit=1"),
      ],
      [
        "DELETE",
        "/api/v1/meta/datasets/EQT1M/status",
        await rawRequest(sb.baseUrl, "DELETE", "/api/v1/meta/datasets/EQT1M/status", "demo-full-access"),
      ],
      [
        "TRACE",
        "/api/v1/data/us-equity/eq-taq/2023-11-21/AAPL",
        await rawRequest(sb.baseUrl, "TRACE", "/api/v1/data/us-equity/eq-taq/2023-11-21/AAPL"),
      ],
      ["GET", tooLong, await rawGet(sb.baseUrl, tooLong, "demo-full-access")],
    ] as const;
    expect(answers.map(([, , r]) => r.status)).toEqual([405, 405, 405, 414]);
    const probe = await ContractCheck.load(sb.baseUrl, false);
    for (const [method, path, r] of answers) probe.record(method, path, r.status, String(r.headers["content-type"] ?? ""), r.body);
    expect(probe.report()).toEqual({ checked: 4, failures: [] });
    // What the document does not allow is still caught: another body, another status, an undocumented method's success.
    probe.record("POST", "/api/v1/account/my", 405, "application/json", JSON.stringify({ message: "no" }));
    probe.record("PUT", "/api/v1/account/my", 404, "application/json", JSON.stringify({ detail: "Not Found" }));
    probe.record("GET", "/api/v1/account/my", 405, "application/json", JSON.stringify({ detail: "Method Not Allowed" }));
    const { failures } = probe.report();
    expect(failures).toHaveLength(3);
    expect(failures[0]).toMatch(/POST .* -> 405: .*detail/);
    expect(failures[1]).toContain("status 404 is not documented for PUT");
    expect(failures[2]).toContain("status 405 is not documented for GET");
  });
});
