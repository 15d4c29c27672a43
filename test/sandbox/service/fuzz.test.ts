/**
 * A property-based fuzz of paths, query strings and keys against a sandbox with default
 * settings (no maintenance, no fault injection, the normal query budget: those answer 5xx by
 * design). Whatever arrives, the service never answers 5xx, every answer carries an
 * X-Request-ID, every refusal is JSON with a `detail`, and demo-restricted never sees a row
 * outside its rule. fast-check prints the seed and the shrunk request of any failure.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawGet, type RawResponse } from "./support/fuzzRawGet.ts";
import { type FuzzRequest, fuzzRequest } from "./support/fuzzRequests.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

const RUNS = 300;
const TIME_LIMIT_MS = 90_000;

/** Requests that once broke the service (a crash or a 500), always tried first. */
const REGRESSIONS: FuzzRequest[] = [
  { path: "/api/v1/data/us-equity/eq-daily-ohlc?offset=4294967296", key: "demo-full-access" },
  { path: "/api/v1/data/us-equity/eq-daily-ohlc?offset=9007199254740991&Ticker=AAPL", key: "demo-full-access" },
  { path: "/api/v1/data/us-equity/eq-taq-1min/%25", key: "demo-full-access" },
  { path: "/api/v1/data/us-equity/eq-taq-1min/%ZZ", key: "demo-full-access" },
  { path: "/api/v1/data/us-equity/eq-taq/2023-11-21/%E0%A4%A", key: "demo-full-access" },
];

/** What every answer must satisfy, whoever asked. */
function checkAnswer(r: RawResponse): void {
  expect(r.status, r.body.slice(0, 300)).toBeLessThan(500);
  expect(r.headers["x-request-id"]).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
  if (r.status >= 200 && r.status < 300) return;
  expect(r.headers["content-type"]).toMatch(/^application\/json/);
  const body = r.json() as { detail?: unknown };
  if (typeof body.detail === "string") return expect(body.detail.length).toBeGreaterThan(0);
  // Otherwise the FastAPI 422 shape: a non-empty list of {type, loc, msg, input}.
  expect(r.status).toBe(422);
  expect(body.detail).toEqual(
    expect.arrayContaining([expect.objectContaining({ type: expect.any(String), loc: expect.any(Array), msg: expect.any(String) })]),
  );
}

/** demo-restricted's rule, checked on any JSON data page it is given. */
function checkRestrictedRows(r: RawResponse): void {
  if (!/^application\/json/.test(String(r.headers["content-type"]))) return;
  const body = r.json() as { data?: Record<string, unknown>[] };
  for (const row of body.data ?? []) {
    if ("Ticker" in row) expect(["AAPL", "MSFT"]).toContain(row.Ticker);
    if ("TradeDate" in row) {
      expect(String(row.TradeDate) >= "2023-11-21" && String(row.TradeDate) <= "2023-11-27", String(row.TradeDate)).toBe(true);
    }
  }
}

describe("the sandbox under fuzzed requests", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.stop());

  it("never answers 5xx and refuses everything it refuses with a JSON detail", async () => {
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(fuzzRequest, async (req) => {
        sent++;
        const r = await rawGet(sb.baseUrl, req.path, req.key, req.requestId === undefined ? {} : { "X-Request-ID": req.requestId });
        checkAnswer(r);
        if (req.requestId !== undefined && /^[A-Za-z0-9._-]{1,64}$/.test(req.requestId)) {
          expect(r.headers["x-request-id"]).toBe(req.requestId);
        }
        if (req.key === "demo-restricted" && r.status === 200) checkRestrictedRows(r);
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, examples: REGRESSIONS.map((r) => [r]) },
    );
    // Enough cases ran to mean something, and the process is still serving afterwards.
    expect(sent).toBeGreaterThanOrEqual(Math.min(RUNS, 50));
    expect((await sb.get("/api/v1/account/my", "demo-full-access")).status).toBe(200);
    expect(sb.stderr()).not.toMatch(/panicked/);
  }, TIME_LIMIT_MS + 60_000);

  it("answers the requests that once crashed it with an empty page", async () => {
    for (const req of REGRESSIONS) {
      const r = await rawGet(sb.baseUrl, req.path, req.key);
      expect(r.status, `${req.path}: ${r.body.slice(0, 200)}`).toBe(200);
      expect((r.json() as { data: unknown[] }).data).toEqual([]);
    }
  });
});
