/**
 * `wb.estimate` against the real answer, for a single-ticker call of every dataset: requests
 * exact (one page, and several pages fetched one at a time), rows within 10% wherever the
 * dataset's rows per ticker and day are even or it is reference data; for ticks and option
 * chains, whose rows vary by ticker and which the free status cannot tell apart, the average
 * ticker's share of the dataset, as documented.
 */
import { tradingDays } from "../../calendar/calendar.ts";
import { describe, expect, it } from "vitest";
import { connect, type DataQuery, QuotaGuardError } from "../../workbench/mod.ts";
import { withFullAccess } from "./support/fullAccess.ts";
import { createAccount } from "./support/state.ts";

const local = withFullAccess();

const WEEK = { start: "2023-11-20", end: "2023-11-28" };
const range = { TradeDate: { ge: WEEK.start, le: WEEK.end } };

/** Each dataset's single-ticker call: the estimate's (dataset, query, path values) and the call itself. */
const CALLS: [string, DataQuery, string[], (q: DataQuery) => ReturnType<typeof local.wb.data.get>][] = [
  ["eq-taq-1min", { filters: range }, ["AAPL"], (q) => local.wb.data.eqTaq1Min("AAPL", { ...WEEK, ...q })],
  ["eq-daily-ohlc", { filters: { ...range, Ticker: "MSFT" } }, [], (q) => local.wb.data.eqDailyOhlc("MSFT", { ...WEEK, ...q })],
  ["eq-lookup-files", { filters: { Ticker: "SPY" } }, [], (q) => local.wb.data.eqLookupFiles("SPY", q)],
  ["opt-sec-master", { filters: { OptionTicker: "AAPL" } }, [], (q) => local.wb.data.optSecMaster("AAPL", q)],
  ["occ-eq-spec-settl", { filters: { OptionTicker: "ODFL1" } }, [], (q) => local.wb.data.occEqSpecSettl("ODFL1", q)],
  ["eq-taq", {}, ["2023-11-21", "JPM"], (q) => local.wb.data.eqTaq("JPM", { date: "2023-11-21", ...q })],
  ["opt-greeks-daily", { filters: { ...range, Ticker: "AAPL" } }, [], (q) => local.wb.data.optGreeksDaily("AAPL", { ...WEEK, ...q })],
  ["opt-open-interest", { filters: { ...range, Ticker: "AAPL" } }, [], (q) => local.wb.data.optOpenInterest("AAPL", { ...WEEK, ...q })],
];
const EVEN = new Set(["eq-taq-1min", "eq-daily-ohlc", "eq-lookup-files", "opt-sec-master", "occ-eq-spec-settl"]);

/** Data requests a call sends, its metadata read beforehand. */
async function sent(call: () => Promise<unknown>): Promise<{ result: unknown; requests: number }> {
  const before = local.wb.transport.requestsSent;
  const result = await call();
  return { result, requests: local.wb.transport.requestsSent - before };
}

describe("wb.estimate against the real answer", () => {
  it.each(CALLS)("%s: requests exact in one page; rows within 10%% or the average ticker's share", async (dataset, query, path, call) => {
    await call({}); // rules, schema and availability read once, so the count below is the data pages
    const e = await local.wb.estimate(dataset, query, path);
    const { result, requests } = await sent(() => call({}));
    const rows = (result as { height: number }).height;
    expect(rows).toBeGreaterThan(0);
    expect(e.requests).toBe(requests);
    expect(requests).toBe(1);
    if (EVEN.has(dataset)) {
      expect(Math.abs(e.rows - rows)).toBeLessThanOrEqual(rows * 0.1);
    } else {
      // Rows per ticker vary here; the status gives the dataset's rows and ticker-days only.
      const status = await local.wb.meta.status(dataset);
      const daily = await local.wb.meta.status("eq-daily-ohlc");
      const tickerDays = dataset === "eq-taq" ? daily.row_count : status.ticker_count! * tradingDays(status.first_available_date!, status.last_available_date!).length;
      const days = dataset === "eq-taq" ? 1 : tradingDays(WEEK.start, WEEK.end).length;
      expect(e.rows).toBe(Math.round((status.row_count * days) / tickerDays));
    }
  });

  it.each(CALLS.filter(([d]) => EVEN.has(d) && !["eq-lookup-files", "opt-sec-master", "occ-eq-spec-settl"].includes(d)))("%s: requests exact over several pages fetched one at a time", async (dataset, query, path, call) => {
    const paged: DataQuery = { pageSize: dataset === "eq-daily-ohlc" ? 2 : 1000, concurrency: 1 };
    await call(paged);
    const e = await local.wb.estimate(dataset, { ...query, ...paged }, path);
    const { result, requests } = await sent(() => call(paged));
    expect(requests).toBe(Math.ceil((result as { height: number }).height / paged.pageSize!));
    expect(requests).toBeGreaterThan(2);
    expect(e.requests).toBe(requests);
  });

  it("a ticker renamed within the range counts only its days under that name once the lookup files are loaded", async () => {
    await local.wb.data.eqLookupFiles(); // any call that loads the book; the estimate itself never sends it
    await local.wb.entitlements();
    const e = await local.wb.estimate("eq-taq-1min", { filters: range }, ["SQ"]);
    const real = await local.wb.data.eqTaq1Min("SQ", WEEK);
    expect(e.rows).toBe(real.height);
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
