/**
 * `wb.estimate` against the real answer: for a single ticker over a few days of every dataset
 * (and of tickers far apart in size, for ticks and option chains), rows within 10% of the rows
 * the call returns and requests equal to the data requests it sends, counted at the sandbox's
 * fetch; what the estimate itself sends to count rows is what it reports.
 */
import { describe, expect, it } from "vitest";
import { connect, type DataQuery, type Estimate, QuotaGuardError, type Workbench } from "../../workbench/mod.ts";
import { type CountRead, countRows, MAX_SAMPLED_DAYS, sampledIndices } from "../../workbench/guard/rowCount.ts";
import { dataEndpoint } from "../../workbench/query/endpoints.ts";
import type { PreparedRequest } from "../../workbench/query/prepare.ts";
import pl from "nodejs-polars";
import { tradingDays } from "../../calendar/calendar.ts";
import { withFullAccess } from "./support/fullAccess.ts";
import { createAccount, setMonthlyUsage } from "./support/state.ts";

const local = withFullAccess();

const WEEK = { start: "2023-11-20", end: "2023-11-28" };
const range = { TradeDate: { ge: WEEK.start, le: WEEK.end } };

/** A workbench whose data requests (any transport's) are counted at the sandbox's fetch. */
async function counted(): Promise<{ wb: Workbench; dataRequests: () => number }> {
  let n = 0;
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url).pathname.startsWith("/api/v1/data/")) n++;
    return local.sb.fetch(input, init);
  };
  return { wb: await connect({ baseUrl: local.sb.baseUrl, fetch, apiKey: "demo-full-access" }), dataRequests: () => n };
}

/** One single-ticker call: the arguments `wb.estimate` and `wb.data.get` share, and the basis expected. */
type Call = [dataset: string, path: (string | null)[], query: DataQuery, basis: Estimate["basis"]];

const EVERY_DATASET: Call[] = [
  ["eq-taq-1min", ["AAPL"], WEEK, "metadata"],
  ["eq-daily-ohlc", [], { ...WEEK, filters: { Ticker: "MSFT" } }, "metadata"],
  ["eq-taq", [null, "JPM"], WEEK, "minute-bars"],
  ["opt-greeks-daily", [], { ...WEEK, filters: { Ticker: "AAPL" } }, "sampled-days"],
  ["opt-open-interest", [], { ...WEEK, filters: { Ticker: "AAPL" } }, "sampled-days"],
  ["opt-sec-master", [], { filters: { OptionTicker: "AAPL" } }, "metadata"],
  ["occ-eq-spec-settl", [], { filters: { OptionTicker: "ODFL1" } }, "symbol-rows"],
  ["eq-lookup-files", [], { filters: { Ticker: "SPY" } }, "symbol-rows"],
];

/**
 * Ticks and chains of names far apart in size (the free estimate was off by 0.3x to 11x on
 * these), in several pages each; ticks of one kind; an adjusted root of two delivery components.
 */
const FAR_APART: Call[] = [
  ["occ-eq-spec-settl", [], { filters: { OptionTicker: "HES1" } }, "symbol-rows"],
  ...["SPY", "ODFL", "OXY.WS"].map((t): Call => ["eq-taq", [null, t], { ...WEEK, pageSize: 20_000, concurrency: 1 }, "minute-bars"]),
  ["eq-taq", [null, "SPY"], { ...WEEK, filters: { EventType: "TRADE" } }, "minute-bars"],
  ["eq-taq", [null, "ODFL"], { ...WEEK, filters: { EventType: ["QUOTE BID", "QUOTE ASK"] } }, "minute-bars"],
  ...["opt-greeks-daily", "opt-open-interest"].flatMap((d) =>
    ["SPY", "SIRI", "ODFL1"].map((t): Call => [d, [], { ...WEEK, filters: { Ticker: t }, pageSize: 1_000, concurrency: 1 }, "sampled-days"])
  ),
];

/** The estimate and the call, each with the data requests it sent; the call once before, so only its pages are counted. */
async function estimateAndCall([dataset, path, query]: Call) {
  const { wb, dataRequests } = await counted();
  // Rules, schemas, availability and the lookup files, read once: one row of the call reads
  // them all (were any left, the counts below would not match), not the whole answer twice.
  await wb.data.get(dataset, path, { ...query, maxRows: 1 });
  const beforeEstimate = dataRequests();
  const estimate = await wb.estimate(dataset, query, path);
  const estimateSent = dataRequests() - beforeEstimate;
  const rows = (await wb.data.get(dataset, path, query)).height;
  return { estimate, estimateSent, rows, callSent: dataRequests() - beforeEstimate - estimateSent };
}

describe("wb.estimate against the real answer", () => {
  it.each([...EVERY_DATASET, ...FAR_APART])("%s %j %o (%s): rows within 10%%, requests exact", async (...call) => {
    const { estimate, estimateSent, rows, callSent } = await estimateAndCall(call);
    expect(rows).toBeGreaterThan(0);
    expect(estimate.basis).toBe(call[3]);
    expect(Math.abs(estimate.rows - rows)).toBeLessThanOrEqual(rows * 0.1);
    expect(estimate.requests).toBe(callSent);
    expect(estimate.lookupRequests).toBe(estimateSent);
    // A count reads one small request per ticker; the free estimate none.
    expect(estimateSent).toBe(call[3] === "metadata" ? 0 : 1);
    expect(estimate.lookupBytes > 0).toBe(estimateSent > 0);
  });

  it.each(EVERY_DATASET.filter(([d]) => ["eq-taq-1min", "eq-daily-ohlc"].includes(d)))(
    "%s: requests exact over several pages fetched one at a time",
    async (dataset, path, query) => {
      const paged: DataQuery = { ...query, pageSize: dataset === "eq-daily-ohlc" ? 2 : 1000, concurrency: 1 };
      const { estimate, rows, callSent } = await estimateAndCall([dataset, path, paged, "metadata"]);
      expect(callSent).toBe(Math.ceil(rows / paged.pageSize!));
      expect(callSent).toBeGreaterThan(2);
      expect(estimate.requests).toBe(callSent);
    },
  );

  it("with lookups: false stays on free metadata and sends no data request", async () => {
    const { wb, dataRequests } = await counted();
    const e = await wb.estimate("eq-taq", WEEK, [null, "SPY"], { lookups: false });
    expect(dataRequests()).toBe(0);
    expect(e).toMatchObject({ basis: "metadata", lookupRequests: 0, lookupBytes: 0 });
    expect(e.countedDays).toBeUndefined();
  });

  it("refuses a mistyped option before sending anything, naming it and what it takes", async () => {
    const { wb, dataRequests } = await counted();
    const refused = (options: unknown) =>
      wb.estimate("eq-taq", WEEK, [null, "SPY"], options as never).then(() => "sent", (e: Error) => `${e.name}: ${e.message}`);
    expect(await refused({ lookup: false })).toBe(
      "QueryError: Unknown estimate option 'lookup' (did you mean 'lookups'?): the option is lookups (true or false); the call's own options (tickers, start, end, filters ...) come before it, as its data function takes them",
    );
    expect(await refused({ lookups: "no" })).toMatch(
      /^QueryError: lookups is .*no.*: give true \(count rows with a small read\) or false \(free metadata only\)$/,
    );
    expect(await refused(null)).toMatch(/^QueryError: wb.estimate's options are an object such as \{ lookups: false \}, not /);
    expect(dataRequests()).toBe(0);
  });

  it("a count the service refuses leaves the estimate on free metadata, saying why and what the refusal cost", async () => {
    const key = "wb-estimate-month-spent";
    createAccount(local.sb.statePath, { key, perMinute: 100_000, monthly: 1_000 });
    const wb = await connect({ baseUrl: local.sb.baseUrl, fetch: local.sb.fetch, apiKey: key });
    const free = await wb.estimate("eq-taq", WEEK, [null, "JPM"], { lookups: false }); // the checks' reads, while the month allows them
    setMonthlyUsage(local.sb.statePath, key, 1_000);
    const e = await wb.estimate("eq-taq", WEEK, [null, "JPM"]);
    expect(e).toMatchObject({ basis: "metadata", rows: free.rows, requests: free.requests, lookupBytes: 0 });
    expect(e.lookupRequests).toBeGreaterThanOrEqual(1);
    expect(e.lookupFailure).toMatch(/Monthly request limit/);
  });

  it("lookup-file rows of tickers come from the lookup files the session holds, without a request", async () => {
    const { wb, dataRequests } = await counted();
    await wb.entitlements(); // loads the lookup files
    const query = { filters: { Ticker: ["SQ", "SPY", "HES"] } };
    const before = dataRequests();
    const e = await wb.estimate("eq-lookup-files", query);
    expect(dataRequests()).toBe(before);
    expect(e).toMatchObject({ basis: "symbol-rows", lookupRequests: 0, rows: (await wb.data.eqLookupFiles(query)).height });
  });

  it("a ticker renamed within the range counts only its days under that name once the lookup files are loaded", async () => {
    await local.wb.data.eqLookupFiles(); // any call that loads the book; the estimate itself never sends it
    await local.wb.entitlements();
    const e = await local.wb.estimate("eq-taq-1min", { filters: range }, ["SQ"]);
    const real = await local.wb.data.eqTaq1Min("SQ", WEEK);
    expect(e.rows).toBe(real.height);
  });
});

describe("an option chain's count over many days", () => {
  const request = (start: string, end: string) =>
    ({
      pathValues: [],
      conditions: [{ column: "Ticker", op: "eq", texts: ["SPY"] }, { column: "TradeDate", op: "ge", texts: [start] }, {
        column: "TradeDate",
        op: "le",
        texts: [end],
      }],
    }) as unknown as PreparedRequest;
  const status = { first_available_date: "2023-11-01", last_available_date: "2024-01-31" } as never;

  it("reads at most MAX_SAMPLED_DAYS (16) days, both ends included, and interpolates the days between on the line through them", async () => {
    const days = tradingDays("2023-11-01", "2024-01-31").map((d) => d.date);
    const chain = (d: string) => 1000 + 10 * days.indexOf(d); // a chain that grows by 10 contracts a day
    const asked: string[][] = [];
    const read: CountRead = (_dataset, _path, query) => {
      const sampled = (query.filters!.TradeDate as { in: string[] }).in;
      asked.push(sampled);
      expect(query.columns).toEqual(["TradeDate"]);
      expect(query.filters!.Ticker).toEqual({ eq: "SPY" });
      return Promise.resolve(pl.DataFrame({ TradeDate: sampled.flatMap((d) => Array<string>(chain(d)).fill(d)) }));
    };
    const count = (await countRows(read, dataEndpoint("opt-greeks-daily"), [request("2023-11-01", "2024-01-31")], status))!;
    expect(asked).toHaveLength(1);
    expect(asked[0]).toHaveLength(MAX_SAMPLED_DAYS);
    expect(asked[0][0]).toBe(days[0]);
    expect(asked[0][MAX_SAMPLED_DAYS - 1]).toBe(days[days.length - 1]);
    expect(count.rows[0]).toBeCloseTo(days.reduce((n, d) => n + chain(d), 0), 6);
    expect(count).toMatchObject({ basis: "sampled-days", days: { counted: MAX_SAMPLED_DAYS, asked: days.length } });
  });

  it("reads every day of a range of 16 days or fewer, else 16 spread evenly", () => {
    expect(MAX_SAMPLED_DAYS).toBe(16);
    expect(sampledIndices(6)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(sampledIndices(16)).toEqual([...Array(16).keys()]);
    expect(sampledIndices(64)).toEqual([0, 4, 8, 13, 17, 21, 25, 29, 34, 38, 42, 46, 50, 55, 59, 63]);
  });
});

describe("the quota guard's projection", () => {
  it("is the estimate's: a universe refused up front needs the sum of its tickers' estimated requests and rows", async () => {
    const key = "wb-estimate-guard";
    createAccount(local.sb.statePath, { key, perMinute: 100_000, monthly: 20 });
    const small = await connect({ baseUrl: local.sb.baseUrl, fetch: local.sb.fetch, apiKey: key });
    const tickers = ["AAPL", "MSFT", "SPY"];
    const query = { filters: range, pageSize: 500 };
    const each = await Promise.all(tickers.map((t) => small.estimate("eq-taq-1min", query, [t])));
    const error = await small.data.eqTaq1Min(tickers, { ...WEEK, pageSize: 500 }).catch((e) => e);
    expect(error).toBeInstanceOf(QuotaGuardError);
    expect(error.needed.requests).toBe(each.reduce((n, e) => n + e.requests, 0));
    expect(error.needed.rows).toBe(each.reduce((n, e) => n + e.rows, 0));
    expect(error.needed.rows).toBe(3 * 6 * 960); // three tickers, six trading days of 960 bars: exact
  });
});
