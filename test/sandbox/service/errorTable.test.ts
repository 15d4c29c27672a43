/**
 * Every row of the spec's error table, each from a real answer of the sandbox's app (in-process): status,
 * the exact `detail` (for 422 the FastAPI shape of notes.md), and the headers a client acts on.
 * Row 409 (too many active keys) is left to the admin-command tests: no HTTP call creates keys.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addKey, revokeKey, setMonthlyRequests } from "./support/errorsState.ts";
import { createQuotaAccount } from "./support/quotaAccounts.ts";
import { type AppSandbox, openAppSandbox } from "./support/appSandbox.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";
import { TestClock } from "./support/testClock.ts";

const DAILY = "/api/v1/data/us-equity/eq-daily-ohlc";
const MINUTES = "/api/v1/data/us-equity/eq-taq-1min";

/** Checks what every error response shares, then its status and body. */
async function expectError(r: Response, status: number, detail: unknown): Promise<void> {
  expect(r.headers.get("X-Request-ID")).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
  expect(r.headers.get("Content-Type")).toMatch(/^application\/json/);
  const text = await r.text();
  expect(r.status, `body: ${text.slice(0, 300)}`).toBe(status);
  expect(JSON.parse(text)).toEqual({ detail });
}

/** The 422 issue the service writes for columns absent from a dataset. */
const unknownColumns = (names: string) => [{
  type: "value_error",
  loc: ["query", "filters"],
  msg: `The following columns do not exist in the dataset: ${names}`,
  input: "",
  ctx: { cause: "UnprocessableEntityException" },
}];

describe("the error table, with default settings", () => {
  let sb: AppSandbox;
  beforeAll(async () => {
    sb = await openAppSandbox();
  });
  afterAll(() => sb.stop());

  it.each([
    ["a filter", `${DAILY}?Foo=1`],
    ["an operator filter", `${DAILY}?Foo.gt=1`],
    ["columns", `${DAILY}?columns=Ticker,Foo`],
    ["sort", `${DAILY}?sort=-Foo`],
  ])("answers 422 naming the column when %s names a column absent from the dataset", async (_, path) => {
    await expectError(await sb.get(path, "demo-full-access"), 422, unknownColumns("Foo"));
  });

  it("answers 422 with the spec's text for a date outside the entitlement window", async () => {
    await expectError(await sb.get(`${DAILY}?TradeDate=2023-11-20`, "demo-restricted"), 422, [{
      type: "value_error",
      loc: ["query", "TradeDate"],
      msg: "The date value '2023-11-20' is outside of the allowed range for this account",
      input: "2023-11-20",
      ctx: { cause: "UnprocessableEntityException" },
    }]);
  });

  it("answers 422 less_than_equal with ctx.le for a limit above the maximum", async () => {
    await expectError(await sb.get(`${DAILY}?limit=100001`, "demo-full-access"), 422, [
      {
        type: "less_than_equal",
        loc: ["query", "limit"],
        msg: "Input should be less than or equal to 100000",
        input: "100001",
        ctx: { le: 100000 },
      },
    ]);
  });

  it("answers 422 int_parsing without ctx for letters in an integer parameter", async () => {
    await expectError(await sb.get(`${DAILY}?limit=abc`, "demo-full-access"), 422, [
      {
        type: "int_parsing",
        loc: ["query", "limit"],
        msg: "Input should be a valid integer, unable to parse string as an integer",
        input: "abc",
      },
    ]);
  });

  it("answers 422 date_from_datetime_parsing, as pydantic words it, for a malformed date", async () => {
    const error = "month value is outside expected range of 1-12";
    await expectError(await sb.get(`${DAILY}?TradeDate=2023-13-01`, "demo-full-access"), 422, [
      {
        type: "date_from_datetime_parsing",
        loc: ["query", "TradeDate"],
        msg: `Input should be a valid date or datetime, ${error}`,
        input: "2023-13-01",
        ctx: { error },
      },
    ]);
  });

  it("answers 422 for an unsupported filter operator on a real column", async () => {
    await expectError(await sb.get(`${MINUTES}/AAPL?Volume.ne=1`, "demo-full-access"), 422, [{
      type: "value_error",
      loc: ["query", "Volume.ne"],
      msg: "Unsupported filter operator 'ne' in 'Volume.ne': use eq, gt, ge, lt, le, in, like, ilike",
      input: "1",
      ctx: { cause: "UnprocessableEntityException" },
    }]);
  });

  it("answers 401 Not authenticated with WWW-Authenticate when no key is sent", async () => {
    for (const r of [await sb.get(DAILY), await sb.get(DAILY, "")]) {
      expect(r.headers.get("WWW-Authenticate")).toBe("APIKey");
      await expectError(r, 401, "Not authenticated");
    }
  });

  it.each([
    ["an unknown", "not-a-real-key-123"],
    ["a malformed", "demo full access!"],
    ["a too short", "demo"],
  ])("answers 401 Invalid API key with WWW-Authenticate for %s key", async (_, key) => {
    const r = await sb.get(DAILY, key);
    expect(r.headers.get("WWW-Authenticate")).toBe("APIKey");
    await expectError(r, 401, "Invalid API key");
  });

  it("answers 401 Invalid API key for a key that worked until it was revoked", async () => {
    const key = "errors-table-revoked-key";
    const id = addKey(sb.statePath, "demo-full-access", key);
    expect((await sb.get("/api/v1/account/my", key)).status).toBe(200);
    revokeKey(sb.statePath, id);
    const r = await sb.get("/api/v1/account/my", key);
    expect(r.headers.get("WWW-Authenticate")).toBe("APIKey");
    await expectError(r, 401, "Invalid API key");
  });

  it("answers 403 for a valid key calling from outside its subnets (127.0.0.1 is not in 10/8)", async () => {
    await expectError(await sb.get(DAILY, "demo-ip-restricted"), 403, "Forbidden: IP address not allowed");
  });

  it.each([
    ["an unentitled dataset", "/api/v1/data/us-equity/eq-taq/2023-11-21/AAPL", "demo-restricted", "eq-taq"],
    ["an unknown dataset", "/api/v1/data/us-equity/opt-greeks-daily", "demo-full-access", "opt-greeks-daily"],
    ["a dataset under another asset class", "/api/v1/data/us-equity-opt/eq-daily-ohlc", "demo-full-access", "eq-daily-ohlc"],
    ["a path with an extra segment", `${DAILY}/AAPL`, "demo-full-access", "eq-daily-ohlc"],
  ])("answers 404 with the spec's text for %s", async (_, path, key, id) => {
    await expectError(await sb.get(path, key), 404, `A dataset with the id '${id}' is not found`);
  });

  it.each([
    ["a deactivated account", "demo-deactivated", "The account is deactivated"],
    ["an expired key", "demo-expired", "The API key access has expired"],
  ])("answers 410 for %s", async (_, key, detail) => {
    await expectError(await sb.get(DAILY, key), 410, detail);
  });
});

describe("the error table, with --unentitled-status 403", () => {
  let sb: AppSandbox;
  beforeAll(async () => {
    sb = await openAppSandbox({ settings: { unentitledStatus: 403 } });
  });
  afterAll(() => sb.stop());

  it("answers 403 naming the dataset the identity lacks", async () => {
    const r = await sb.get("/api/v1/data/us-equity/eq-taq/2023-11-21/AAPL", "demo-restricted");
    await expectError(r, 403, "This identity does not have access to dataset eq-taq");
  });

  it("still answers 404 for a dataset that does not exist", async () => {
    await expectError(await sb.get("/api/v1/data/us-equity/nope", "demo-restricted"), 404, "A dataset with the id 'nope' is not found");
  });
});

describe("the error table, quotas on a fresh sandbox", () => {
  let sb: AppSandbox;
  // The service's clock stands at the start of this minute: six requests land in one window
  // however long they take (the month stays this month, which setMonthlyRequests counts in).
  const minuteStart = new Date();
  minuteStart.setUTCSeconds(0, 0);
  beforeAll(async () => {
    sb = await openAppSandbox({ now: new TestClock(minuteStart).now });
  });
  afterAll(() => sb.stop());

  /** Checks the 429 headers: the limit, nothing left, and when to come back. */
  /** RateLimit-* describe the per-minute window; X-Quota-Monthly-* the month. */
  function expectRetryHeaders(r: Response, limit: number, maxSeconds: number, window: "minute" | "month" = "minute"): void {
    const retry = Number(r.headers.get("Retry-After"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(maxSeconds);
    const [reset, limitHeader, remaining] = window === "minute"
      ? ["RateLimit-Reset", "RateLimit-Limit", "RateLimit-Remaining"]
      : ["X-Quota-Monthly-Reset", "X-Quota-Monthly-Requests-Limit", "X-Quota-Monthly-Requests-Remaining"];
    expect(r.headers.get(reset)).toBe(String(retry));
    expect(r.headers.get(limitHeader)).toBe(String(limit));
    expect(r.headers.get(remaining)).toBe("0");
  }

  it("answers 429 on the sixth request of a minute for a 5-per-minute team", async () => {
    for (let i = 1; i <= 5; i++) {
      const ok = await sb.get(`${DAILY}?limit=1`, "demo-tiny-quota");
      expect(ok.status).toBe(200);
      expect(ok.headers.get("RateLimit-Remaining")).toBe(String(5 - i));
    }
    const r = await sb.get(`${DAILY}?limit=1`, "demo-tiny-quota");
    expectRetryHeaders(r, 5, 60);
    await expectError(r, 429, "Per-minute request limit exceeded: 5/5 requests.");
  });

  it("answers 429 with the spec's monthly text once the month's requests are spent", async () => {
    setMonthlyRequests(sb.statePath, "demo-tiny-quota", 50);
    const r = await sb.get(`${DAILY}?limit=1`, "demo-tiny-quota");
    expectRetryHeaders(r, 50, 31 * 24 * 3600, "month");
    await expectError(r, 429, "Monthly request limit exceeded: 50/50 requests.");
  });
});

describe("the error table, under maintenance and a tiny query budget", () => {
  // The query past its budget is abandoned, not stopped: Polars finishes it on its own threads.
  // In a served sandbox that is the server's business; in the test process, a collect still
  // running when the file ends brings the process down. So the tiny budget runs spawned, and
  // the usage cases that need it (HEAD, the 504s spending nothing) share it here.
  let maintenance: AppSandbox, tinyBudget: TestSandbox;
  beforeAll(async () => {
    [maintenance, tinyBudget] = await Promise.all([
      openAppSandbox({ settings: { maintenance: true } }),
      startSandbox({ args: ["--query-budget-ms", "1"] }),
    ]);
  });
  afterAll(() => Promise.all([maintenance.stop(), tinyBudget.stop()]));

  it("answers 503 Service unavailable with Retry-After during maintenance", async () => {
    const r = await maintenance.get(`${DAILY}?limit=1`, "demo-full-access");
    expect(r.headers.get("Retry-After")).toMatch(/^\d+$/);
    await expectError(r, 503, "Service unavailable");
  });

  it("answers 504 Gateway timeout for a query heavier than the budget", async () => {
    await expectError(await tinyBudget.get(`${MINUTES}/AAPL?sort=-Volume&limit=100000`, "demo-full-access"), 504, "Gateway timeout");
  });

  it("still answers free account calls under a tiny query budget", async () => {
    expect((await tinyBudget.get("/api/v1/account/my", "demo-full-access")).status).toBe(200);
  });

  it("HEAD answers the GET's headers without running the query, and spends nothing", async () => {
    // A 1 ms query budget makes every query that runs a 504: HEAD's 200 shows it ran none.
    const sb = tinyBudget;
    const account = await createQuotaAccount(sb.statePath, { name: "Head", perMinute: 100, monthly: 1000 });
    const key = account.keys[0][0];
    const head = await fetch(`${sb.baseUrl}/api/v1/data/us-equity/eq-taq/2023-11-21/AAPL?response_format=csv`, {
      method: "HEAD",
      headers: { "X-API-KEY": key },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(head.headers.get("RateLimit-Remaining")).toBe("100");
    expect(head.headers.get("X-Quota-Monthly-Requests-Remaining")).toBe("1000");
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    // HEAD validates like GET.
    expect((await fetch(`${sb.baseUrl}${DAILY}?Ticker=AAPL&limit=1&limit=abc`, { method: "HEAD", headers: { "X-API-KEY": key } })).status)
      .toBe(422);
    // The 504s of the 1 ms budget spend nothing either.
    const get = await sb.get("/api/v1/data/us-equity/eq-taq/2023-11-21/AAPL", key);
    expect(get.status).toBe(504);
    expect((await (await sb.get("/api/v1/account/my/quotas", key)).json()).quotas_usage).toEqual({
      per_minute_requests: 0,
      monthly_requests: 0,
      monthly_data_scanned: 0,
      monthly_data_returned: 0,
    });
  });
});
