/**
 * Each error class of the workbench from a real answer of the sandbox (its app in-process; the
 * time budget from a spawned one). Every one carries the status, the service's detail, the
 * request id and the URL, and none shows the API key in its message, stack, JSON or inspection.
 */
import { createServer } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AccountDeactivatedError,
  connect,
  GatewayTimeoutError,
  InvalidApiKeyError,
  IpNotAllowedError,
  KeyExpiredError,
  NetworkError,
  NotEntitledError,
  NotFoundError,
  QueryError,
  QuotaExceededError,
  ServiceUnavailableError,
  UnauthenticatedError,
  ValidationError,
  WorkbenchError,
} from "../../workbench/mod.ts";
import { ACCOUNT } from "../../workbench/query/endpoints.ts";
import { Transport } from "../../workbench/http/transport.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";
import { setMonthlyUsage } from "./support/state.ts";

let sb: AppSandbox, forbidding: AppSandbox, maintenance: AppSandbox, timingOut: AppSandbox;

beforeAll(async () => {
  [sb, forbidding, maintenance, timingOut] = await Promise.all([
    openAppSandbox(),
    openAppSandbox({ settings: { unentitledStatus: 403 } }),
    openAppSandbox({ settings: { maintenance: true } }),
    // Every data request a 504, as a query past the service's time budget is answered. The budget
    // itself (test/sandbox/service/errorTable.test.ts) cannot make every query a 504 here: a
    // few-row page can be answered inside 1 ms.
    openAppSandbox({ settings: { faults: { seed: 7, rate503: 0, rate504: 1, rate429: 0, rateDrop: 0 } } }),
  ]);
});
afterAll(() => Promise.all([sb, forbidding, maintenance, timingOut].map((s) => s?.stop())));

const failure = (p: Promise<unknown>): Promise<WorkbenchError> => p.then(() => expect.fail("the call succeeded"), (e) => e);

/** Asserts the class, status and context of an error from `base`, and that no text of it holds `key`. */
function expectCarries(error: WorkbenchError, cls: new (...a: never[]) => WorkbenchError, status: number, base: string, key: string): void {
  expect(error).toBeInstanceOf(cls);
  expect(error.name).toBe(cls.name);
  expect(error.status).toBe(status);
  expect(error.detail).toBeTruthy();
  expect(error.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(error.message).toContain(`[request ${error.requestId}]`);
  expect(error.message).toContain(`(${status})`);
  expect(error.url!.startsWith(`${base}/api/v1/`)).toBe(true);
  expect(error.message).toContain(new URL(error.url!).pathname);
  if (key !== "") {
    for (const text of [error.message, String(error), error.stack ?? "", JSON.stringify(error), inspect(error, { depth: 4 })]) {
      expect(text).not.toContain(key);
    }
  }
}

describe("authentication and access", () => {
  it("a request without a key is an UnauthenticatedError, and connect refuses an empty key before sending", async () => {
    const transport = new Transport({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "" });
    const e = await failure(transport.getJson(ACCOUNT.identity));
    expectCarries(e, UnauthenticatedError, 401, sb.baseUrl, "");
    expect(e.detail).toBe("Not authenticated");
    await expect(connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "" })).rejects.toThrow(QueryError);
  });

  it("an unknown key is an InvalidApiKeyError that never repeats the key", async () => {
    const key = "wb-unknown-key-5f2c9a";
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: key });
    const e = await failure(wb.account.identity());
    expectCarries(e, InvalidApiKeyError, 401, sb.baseUrl, key);
    expect(e.detail).toBe("Invalid API key");
  });

  it("a key used from outside its subnets is an IpNotAllowedError", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-ip-restricted" });
    expectCarries(await failure(wb.account.quotas()), IpNotAllowedError, 403, sb.baseUrl, "demo-ip-restricted");
  });

  it("an expired key is a KeyExpiredError and a deactivated account an AccountDeactivatedError", async () => {
    const expired = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-expired" });
    const e1 = await failure(expired.account.identity());
    expectCarries(e1, KeyExpiredError, 410, sb.baseUrl, "demo-expired");
    expect(e1.detail).toBe("The API key access has expired");
    const deactivated = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-deactivated" });
    const e2 = await failure(deactivated.meta.datasets());
    expectCarries(e2, AccountDeactivatedError, 410, sb.baseUrl, "demo-deactivated");
    expect(e2.detail).toBe("The account is deactivated");
  });

  it("an unentitled dataset is a NotEntitledError from the default 404", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-restricted" });
    const e = await failure(wb.meta.status("eq-taq"));
    expectCarries(e, NotEntitledError, 404, sb.baseUrl, "demo-restricted");
    expect(e.detail).toBe("A dataset with the id 'eq-taq' is not found");
    expectCarries(
      await failure(wb.transport.get("/api/v1/data/us-equity/eq-taq/2023-11-21/AAPL")),
      NotEntitledError,
      404,
      sb.baseUrl,
      "demo-restricted",
    );
  });

  it("an unentitled dataset is a NotEntitledError from the 403 setting, and so is a ticker outside the universe", async () => {
    const wb = await connect({ baseUrl: forbidding.baseUrl, fetch: forbidding.fetch, apiKey: "demo-restricted" });
    const e = await failure(wb.meta.columns("eq-taq"));
    expectCarries(e, NotEntitledError, 403, forbidding.baseUrl, "demo-restricted");
    expect(e.detail).toBe("This identity does not have access to dataset eq-taq");
    const universe = await failure(wb.transport.get("/api/v1/data/us-equity/eq-taq-1min/SPY"));
    expectCarries(universe, NotEntitledError, 403, forbidding.baseUrl, "demo-restricted");
    expect(String(universe.detail)).toContain("Ticker 'SPY' is outside");
  });

  it("a path the service does not have is a NotFoundError", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
    const e = await failure(wb.transport.get("/api/v1/account/nothing-here"));
    expectCarries(e, NotFoundError, 404, sb.baseUrl, "demo-full-access");
    expect(e.detail).toBe("Not Found");
  });

  // 409 comes only from creating a key past max_active_api_keys, which the admin command does;
  // the service has no HTTP route that creates keys, so no real answer can carry a 409.
  it.skip("a conflict is a ConflictError (not reachable over HTTP: keys are created by the admin command only)", () => {});
});

describe("validation", () => {
  it("a refused query is a ValidationError listing every issue, sent once and never retried", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
    const before = wb.transport.requestsSent;
    const params = new URLSearchParams({ limit: "100001", TradeDate: "2023-13-01", "DailyVolume.gte": "3" });
    const e = (await failure(wb.transport.get("/api/v1/data/us-equity/eq-daily-ohlc", params))) as ValidationError;
    expect(wb.transport.requestsSent - before).toBe(1);
    expectCarries(e, ValidationError, 422, sb.baseUrl, "demo-full-access");
    expect(e.issues.map((i) => i.loc.join("."))).toEqual(["query.limit", "query.TradeDate", "query.DailyVolume.gte"]);
    expect(e.issues[0]).toMatchObject({ type: "less_than_equal", ctx: { le: 100000 } });
    expect(e.issues[1]).toMatchObject({ type: "date_from_datetime_parsing", input: "2023-13-01" });
    expect(e.message).toContain("Input should be less than or equal to 100000");
    expect(e.message).toContain("Unsupported filter operator 'gte'");
  });

  it("an unknown column, sent anyway, is a ValidationError naming the column", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
    const e =
      (await failure(wb.transport.get("/api/v1/data/us-equity/eq-daily-ohlc", new URLSearchParams({ Foo: "1" })))) as ValidationError;
    expectCarries(e, ValidationError, 422, sb.baseUrl, "demo-full-access");
    expect(e.issues).toEqual([
      expect.objectContaining({ loc: ["query", "filters"], msg: "The following columns do not exist in the dataset: Foo" }),
    ]);
  });

  it("a date outside the access window, sent anyway, is a ValidationError with the spec's text", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-restricted" });
    const e = (await failure(
      wb.transport.get("/api/v1/data/us-equity/eq-daily-ohlc", new URLSearchParams({ TradeDate: "2023-11-20" })),
    )) as ValidationError;
    expectCarries(e, ValidationError, 422, sb.baseUrl, "demo-restricted");
    expect(e.issues[0].msg).toBe("The date value '2023-11-20' is outside of the allowed range for this account");
  });
});

describe("quotas", () => {
  it("a spent per-minute quota is a QuotaExceededError naming it, with used, limit and a reset within the minute", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-tiny-quota", maxWaitSeconds: 0 });
    let error: WorkbenchError | undefined;
    // 5 a minute: eleven quick calls cannot all fit, even across a minute boundary.
    for (let i = 0; i < 11 && !error; i++) error = await wb.data.eqDailyOhlc({ maxRows: 1 }).then(() => undefined, (e) => e);
    const e = error as QuotaExceededError;
    expectCarries(e, QuotaExceededError, 429, sb.baseUrl, "demo-tiny-quota");
    expect(e).toMatchObject({ quota: "per_minute_requests", used: 5, limit: 5 });
    expect(e.resetAt.getTime()).toBeGreaterThan(Date.now());
    expect(e.resetAt.getTime()).toBeLessThanOrEqual(Date.now() + 61_000);
  });

  it("a spent monthly quota is a QuotaExceededError at once, reset at 00:00 UTC on the 1st", async () => {
    setMonthlyUsage(sb.statePath, "demo-tiny-quota", 50);
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-tiny-quota" });
    await Promise.all([wb.account.rules(), wb.meta.schema("eq-daily-ohlc")]);
    const before = wb.transport.requestsSent;
    const e = (await failure(wb.data.eqDailyOhlc())) as QuotaExceededError;
    expect(wb.transport.requestsSent - before).toBe(1);
    expectCarries(e, QuotaExceededError, 429, sb.baseUrl, "demo-tiny-quota");
    expect(e).toMatchObject({ quota: "monthly_requests", used: 50, limit: 50 });
    const now = new Date();
    expect(Math.abs(e.resetAt.getTime() - Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))).toBeLessThan(3_000);
  });
});

describe("service failures", () => {
  it("maintenance is a ServiceUnavailableError after the bounded retries, each waiting the Retry-After", async () => {
    // The waits asked for are recorded, not slept: the real sleep is waits.test.ts's.
    const waited: number[] = [];
    const waits = { sleep: (ms: number) => (waited.push(ms), Promise.resolve()), backoffDelay: () => 0 };
    const wb = await connect({ baseUrl: maintenance.baseUrl, fetch: maintenance.fetch, apiKey: "demo-full-access", retries: 2, waits });
    const e = await failure(wb.account.identity());
    expect(wb.transport.requestsSent).toBe(3);
    expect(waited).toEqual([1_000, 1_000]); // the maintenance answer's Retry-After: 1, before each retry
    expectCarries(e, ServiceUnavailableError, 503, maintenance.baseUrl, "demo-full-access");
    expect(e.detail).toBe("Service unavailable");
  });

  it("a query past the time budget is a GatewayTimeoutError after halving the page to one row and retrying it", async () => {
    const wb = await connect({
      baseUrl: timingOut.baseUrl,
      fetch: timingOut.fetch,
      apiKey: "demo-full-access",
      retries: 1,
      waits: { sleep: () => Promise.resolve(), backoffDelay: () => 0 },
    });
    await Promise.all([wb.account.rules(), wb.meta.schema("eq-daily-ohlc")]);
    const before = wb.transport.requestsSent;
    const e = await failure(wb.data.eqDailyOhlc({ pageSize: 4 }));
    expect(wb.transport.requestsSent - before).toBe(4); // limit 4, 2, 1, then one retry of 1
    expectCarries(e, GatewayTimeoutError, 504, timingOut.baseUrl, "demo-full-access");
    expect(e.partial?.height).toBe(0);
  });

  it("no server on the port is a NetworkError raised at once (retrying cannot help), with the URL and no key", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const base = `http://127.0.0.1:${port}`;
    const wb = await connect({ baseUrl: base, apiKey: "wb-network-key-91d3", retries: 1 });
    const e = await failure(wb.account.identity());
    expect(e).toBeInstanceOf(NetworkError);
    expect(wb.transport.requestsSent).toBe(1);
    expect(e.status).toBeUndefined();
    expect(e.url).toBe(`${base}${ACCOUNT.identity}`);
    expect(e.message).toContain(`${base}${ACCOUNT.identity}`);
    for (const text of [e.message, e.stack ?? "", JSON.stringify(e), inspect(e)]) expect(text).not.toContain("wb-network-key-91d3");
  });
});
