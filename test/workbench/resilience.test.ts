/**
 * The spec's client rules under real failures: a long paged fetch through the sandbox's fault
 * injection returns exactly the rows of a clean fetch; a monthly quota spent midway keeps the
 * contiguous rows and resumes to the clean result; and the checks before a request send nothing.
 */
import type pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connect, NotEntitledError, QueryError, QuotaExceededError, type Workbench } from "../../workbench/mod.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";
import { expectSameFrame } from "./support/frames.ts";
import { marketFrame } from "./support/market.ts";
import { createAccount, setMonthlyLimit } from "./support/state.ts";

/** Retries that do not wait: these cases check the rows and request counts under faults, not the clock (test/workbench/waits.test.ts checks the waits). */
const instantWaits = { sleep: () => Promise.resolve(), backoffDelay: () => 0 };
// ODFL's ticks of one day (6,680 rows with seed 42 today) in pages of 30: 223 pages when nothing fails.
const DAY = "2023-11-21", TICKER = "ODFL", PAGE = 30;
/** The day's ticks of the ticker as the market files hold them (the answer a fetch must equal). */
const TICK_ROWS = marketFrame(inject("tinyMarketDir"), "eq-taq", `TradeDate=${DAY}/Ticker=${TICKER}.parquet`).height;

// Faults over real sockets (dropped connections mid-body) from a spawned sandbox; everything
// else from the sandbox's app in-process.
let clean: AppSandbox, faulty: TestSandbox;
let reference: pl.DataFrame;

beforeAll(async () => {
  // 20% of data answers fail: 5% each of 503, 504 and per-minute 429 (Retry-After 1), and 5%
  // of connections dropped mid-body. Seeded, so each run meets the same faults in arrival order.
  // (At 20% of each kind, 70% of answers fail and 40% of pages end in a 504; halving the page
  // on each 504, as the spec asks, then keeps pages at a row or two and no fetch of 200 pages
  // ends in bounded time.)
  [clean, faulty] = await Promise.all([openAppSandbox(), startSandbox({ args: ["--faults", "7,0.05,0.05,0.05,0.05", "--log"] })]);
  const wb = await connect({ baseUrl: clean.baseUrl, fetch: clean.fetch, apiKey: "demo-full-access" });
  // In one page: the clean rows do not depend on the page size (provenance/frameHash.test.ts).
  reference = await wb.data.eqTaq(DAY, TICKER, { pageSize: 10_000 });
  expect(reference.height).toBe(TICK_ROWS);
  expect(reference.unique().height).toBe(reference.height);
});
afterAll(() => Promise.all([clean, faulty].map((s) => s?.stop())));

describe("fault injection", () => {
  it(
    "a fetch of more than 200 pages through 503s, 504s, 429s and dropped connections returns exactly the clean rows in order",
    async () => {
      const wb = await connect({ baseUrl: faulty.baseUrl, apiKey: "demo-full-access", retries: 12, waits: instantWaits });
      let pages = 0;
      const got = await wb.data.eqTaq(DAY, TICKER, { pageSize: PAGE, concurrency: 16, onProgress: (e) => (pages = e.pages) });
      expect(pages).toBeGreaterThanOrEqual(200);
      expect(got.unique().height).toBe(got.height);
      expectSameFrame(got, reference);
      // The faults really happened, and the client really went through them.
      const statuses = [...faulty.stderr().matchAll(/^GET \/api\/v1\/data\/\S+ (\d{3}) /gm)].map((m) => m[1]);
      for (const status of ["503", "504", "429"]) expect(statuses.filter((s) => s === status).length).toBeGreaterThanOrEqual(5);
      expect(wb.transport.requestsSent).toBeGreaterThan(pages + 30);
    },
    240_000,
  );
});

describe("a monthly quota spent midway", () => {
  it("stops with a QuotaExceededError holding a prefix of the clean rows, and resume() completes to exactly the clean result", async () => {
    const key = "wb-month-midway";
    createAccount(clean.statePath, { key, perMinute: 100_000, monthly: 40 });
    const wb = await connect({ baseUrl: clean.baseUrl, fetch: clean.fetch, apiKey: key });
    // force: past the quota guard (this call needs most of the month), to meet the service's 429.
    const error = await wb.data.eqTaq(DAY, TICKER, { pageSize: PAGE, force: true }).then(() => expect.fail("the fetch finished"), (e) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).toMatchObject({ quota: "monthly_requests", used: 40, limit: 40 });
    const partial = error.partial as pl.DataFrame;
    // 40 pages were answered; with 4 in flight a few of them may lie past the first gap.
    expect(partial.height).toBeGreaterThanOrEqual(PAGE * 36);
    expect(partial.height).toBeLessThanOrEqual(PAGE * 40);
    expect(partial.height % PAGE).toBe(0);
    expectSameFrame(partial, reference.head(partial.height));

    setMonthlyLimit(clean.statePath, key, 100_000);
    const before = wb.transport.requestsSent;
    const resumed = await error.resume();
    expectSameFrame(resumed, reference);
    // It went on from the first missing row rather than starting over.
    expect(wb.transport.requestsSent - before).toBeLessThanOrEqual(Math.ceil((reference.height - partial.height) / PAGE) + 4);
  });
});

describe("checks before any request", () => {
  let full: Workbench, restricted: Workbench;

  beforeAll(async () => {
    full = await connect({ baseUrl: clean.baseUrl, fetch: clean.fetch, apiKey: "demo-full-access" });
    restricted = await connect({ baseUrl: clean.baseUrl, fetch: clean.fetch, apiKey: "demo-restricted" });
    // Cache the session's rules and schemas; from here on a refused call has nothing to ask.
    await Promise.all([full.data.eqDailyOhlc({ maxRows: 1 }), full.meta.schema("eq-taq-1min"), full.meta.schema("eq-taq")]);
    await Promise.all([restricted.data.eqDailyOhlc({ maxRows: 1 }), restricted.meta.schema("eq-taq-1min")]);
  });

  const cases: [string, () => Workbench, (wb: Workbench) => Promise<unknown>, typeof QueryError | typeof NotEntitledError, RegExp][] = [
    [
      "an unknown filter column",
      () => full,
      (wb) => wb.data.eqDailyOhlc({ filters: { Volume: 1 } }),
      QueryError,
      /Unknown column 'Volume' in filters of eq-daily-ohlc/,
    ],
    [
      "an unknown column to return",
      () => full,
      (wb) => wb.data.eqDailyOhlc({ columns: ["Ticker", "closeprice"] }),
      QueryError,
      /'closeprice'.*did you mean 'ClosePrice'/,
    ],
    [
      "an unknown sort column",
      () => full,
      (wb) => wb.data.eqTaq1Min("AAPL", { sort: "-volume" }),
      QueryError,
      /'volume' in sort.*did you mean 'Volume'/,
    ],
    [
      "an unknown operator",
      () => full,
      (wb) => wb.data.eqDailyOhlc({ filters: { TradeDate: { gte: "2023-11-21" } as never } }),
      QueryError,
      /Unknown operator 'gte'.*ge, lt, le/,
    ],
    [
      "a malformed filter date",
      () => full,
      (wb) => wb.data.eqDailyOhlc({ filters: { TradeDate: "2023-13-01" } }),
      QueryError,
      /'2023-13-01'.*YYYY-MM-DD/,
    ],
    ["a malformed path date", () => full, (wb) => wb.data.eqTaq("21/11/2023", "AAPL"), QueryError, /'21\/11\/2023'/],
    [
      "text for a whole number",
      () => full,
      (wb) => wb.data.eqDailyOhlc({ filters: { DailyVolume: { gt: "lots" } } }),
      QueryError,
      /'lots': expected a whole number/,
    ],
    ["a page size of 0", () => full, (wb) => wb.data.eqDailyOhlc({ pageSize: 0 }), QueryError, /pageSize 0 is out of range/],
    [
      "a page size above 100000",
      () => full,
      (wb) => wb.data.eqDailyOhlc({ pageSize: 100_001 }),
      QueryError,
      /pageSize 100001 is out of range/,
    ],
    [
      "a date before the access window",
      () => restricted,
      (wb) => wb.data.eqDailyOhlc({ filters: { TradeDate: { ge: "2023-11-20" } } }),
      QueryError,
      /2023-11-20 is outside your access window.*2023-11-21 to 2023-11-27/,
    ],
    [
      "a path ticker outside the universe",
      () => restricted,
      (wb) => wb.data.eqTaq1Min("SPY"),
      NotEntitledError,
      /Ticker 'SPY' is outside your universe.*AAPL, MSFT/,
    ],
    [
      "a filter ticker outside the universe",
      () => restricted,
      (wb) => wb.data.eqDailyOhlc({ filters: { Ticker: ["AAPL", "QQQ"] } }),
      NotEntitledError,
      /Ticker 'QQQ'/,
    ],
    ["an unentitled dataset", () => restricted, (wb) => wb.data.eqTaq("2023-11-22", "AAPL"), NotEntitledError, /not entitled to eq-taq/],
  ];

  it.each(cases)("%s is refused without a request", async (_what, which, call, cls, message) => {
    const wb = which();
    const before = wb.transport.requestsSent;
    const error = await call(wb).then(() => expect.fail("the call was accepted"), (e) => e);
    expect(error).toBeInstanceOf(cls);
    expect(error.message).toMatch(message);
    expect(wb.transport.requestsSent).toBe(before);
  });

  it("the same calls made valid do send requests, so the counter would show a leak", async () => {
    await restricted.meta.availability("eq-daily-ohlc"); // free, read once per session by the date checks
    const before = restricted.transport.requestsSent;
    await restricted.data.eqDailyOhlc({ filters: { Ticker: ["AAPL"], TradeDate: { ge: "2023-11-21" } } });
    expect(restricted.transport.requestsSent).toBe(before + 1);
  });
});
