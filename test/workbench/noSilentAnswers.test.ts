/**
 * No silent answers for single calls: the mistakes users met (a misspelt, lowercase or renamed
 * ticker, a weekend, a holiday, a reversed range, a range outside the data) each raise before
 * any data request, naming the value and what is available. The tiny market runs 2023-11-20
 * to 2023-11-28; SQ became XYZ on 2023-11-27.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connect, frameWarnings, NotEntitledError, QueryError, UnknownTickerError, type Workbench } from "../../workbench/mod.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";
import { rewritingFetch } from "./support/rewritingFetch.ts";

let sb: AppSandbox;
let wb: Workbench;
beforeAll(async () => {
  sb = await openAppSandbox();
  wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
  // The lookup files are loaded once per session, when a ticker first needs judging: load them
  // here, so each case below can show it sent no data request.
  // (a universe call judges its tickers before sending, with the lookup files).
  await wb.data.eqTaq1Min(["AAPL", "MSFT"], { start: "2023-11-21", end: "2023-11-21", maxRows: 1 });
});
afterAll(() => sb?.stop());

async function refused(call: () => Promise<unknown>): Promise<Error> {
  const before = wb.transport.requestsSent;
  const error = await call().then(() => undefined, (e) => e);
  expect(error, "the call should have been refused").toBeInstanceOf(QueryError);
  // Free metadata (a dataset's status or schema, once each) may be read; no data request is sent.
  expect(wb.transport.requestsSent - before).toBeLessThanOrEqual(2);
  return error;
}

describe("tickers", () => {
  it("a misspelt ticker is refused with the nearest known one", async () => {
    const error = await refused(() => wb.data.eqTaq1Min("APPL", { filters: { TradeDate: "2023-11-21" } }));
    expect(error).toBeInstanceOf(UnknownTickerError);
    expect(error.message).toMatch(/eq-taq-1min: unknown ticker APPL \(did you mean 'AAPL'\?\); known tickers are AAPL, CVX/);
    expect((error as UnknownTickerError).suggestions).toEqual({ APPL: ["AAPL"] });
  });

  it("in a fresh session a misspelt ticker is judged from the answer: one data request, then the lookup files once", async () => {
    const fresh = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
    await fresh.estimate("eq-taq-1min", { filters: { TradeDate: "2023-11-21" } }, ["AAPL"]); // the free metadata: rules, schema, status
    const before = fresh.transport.requestsSent;
    const error = await fresh.data.eqTaq1Min("APPL", { filters: { TradeDate: "2023-11-21" } }).catch((e) => e);
    expect(error).toBeInstanceOf(UnknownTickerError);
    expect(error.message).toMatch(/unknown ticker APPL \(did you mean 'AAPL'\?\)/);
    // The (empty) data page, then the lookup files: their schema (free) and their one page.
    expect(fresh.transport.requestsSent - before).toBe(3);
    // Now the book is loaded: the same mistake is refused before sending.
    const again = fresh.transport.requestsSent;
    await expect(fresh.data.eqTaq1Min("APPL")).rejects.toThrow(UnknownTickerError);
    expect(fresh.transport.requestsSent).toBe(again);
    // A correct call never loads the lookup files.
    const correct = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
    const valid = { filters: { Ticker: ["AAPL", "MSFT"], TradeDate: "2023-11-21" } };
    await correct.estimate("eq-daily-ohlc", valid); // the free metadata: rules, schema, status
    const start = correct.transport.requestsSent;
    await correct.data.eqDailyOhlc(valid);
    expect(correct.transport.requestsSent - start).toBe(1);
  });

  it("a list with a misspelt member names that member, not the good ones", async () => {
    const error = await refused(() => wb.data.eqDailyOhlc({ filters: { Ticker: ["AAPL", "MSFTT"] } }));
    expect(error.message).toMatch(/unknown ticker MSFTT \(did you mean 'MSFT'\?\)/);
    expect((error as UnknownTickerError).tickers).toEqual(["MSFTT"]);
  });

  it("a lowercase ticker is refused with the right spelling, without sending anything", async () => {
    const before = wb.transport.requestsSent;
    const error = await refused(() => wb.data.eqTaq1Min("aapl"));
    expect(error.message).toBe("eq-taq-1min: tickers are upper case: 'aapl' (did you mean 'AAPL'?)");
    expect(wb.transport.requestsSent).toBe(before);
  });

  it("SQ asked for after its rename says it trades as XYZ from that date; before it, SQ answers", async () => {
    const error = await refused(() => wb.data.eqTaq1Min("SQ", { filters: { TradeDate: { ge: "2023-11-27" } } }));
    expect(error.message).toBe(
      "eq-taq-1min from 2023-11-27: SQ was renamed: it trades as XYZ from 2023-11-27 (SQ maps to security 100013 until 2023-11-26); ask for XYZ",
    );
    const before = await wb.data.eqDailyOhlc({ filters: { Ticker: "SQ", TradeDate: "2023-11-22" } });
    expect(before.height).toBe(1);
  });
});

describe("dates", () => {
  it("a weekend is refused, naming the weekday and the nearest trading days", async () => {
    const error = await refused(() => wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-11-25" } }));
    expect(error.message).toBe(
      "eq-taq-1min.TradeDate: 2023-11-25 is a Saturday, not a trading day: the nearest are 2023-11-24 before and 2023-11-27 after",
    );
    const ticks = await refused(() => wb.data.eqTaq("2023-11-26", "AAPL"));
    expect(ticks.message).toMatch(/eq-taq\.TradeDate: 2023-11-26 is a Sunday/);
  });

  it("a holiday is refused by name; a range with no trading day too", async () => {
    const error = await refused(() => wb.data.eqDailyOhlc({ filters: { TradeDate: new Date("2023-11-23") } }));
    expect(error.message).toMatch(
      /2023-11-23 is a market holiday \(Thanksgiving Day\), not a trading day: the nearest are 2023-11-22 before and 2023-11-24 after/,
    );
    const range = await refused(() => wb.data.eqDailyOhlc({ filters: { TradeDate: { ge: "2023-11-25", le: "2023-11-26" } } }));
    expect(range.message).toMatch(/2023-11-25 to 2023-11-26 holds no trading day/);
  });

  it("a range wholly outside the data names the dataset's availability", async () => {
    const error = await refused(() => wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: { ge: "2022-01-01", le: "2022-12-31" } } }));
    expect(error.message).toBe(
      "eq-taq-1min.TradeDate 2022-01-01 to 2022-12-31 is wholly outside the data of eq-taq-1min: the dates visible to you run 2023-11-20 to 2023-11-28",
    );
    const after = await refused(() => wb.data.optGreeksDaily({ filters: { TradeDate: "2024-03-01" } }));
    expect(after.message).toMatch(
      /2024-03-01 is not in the data of opt-greeks-daily: the dates visible to you run 2023-11-20 to 2023-11-28/,
    );
  });

  it("a reversed range is refused with the corrected one, for dates and date-times", async () => {
    const error = await refused(() => wb.data.eqDailyOhlc({ filters: { TradeDate: { ge: "2023-11-24", le: "2023-11-21" } } }));
    expect(error.message).toBe(
      "eq-daily-ohlc.TradeDate ge 2023-11-24 is after le 2023-11-21: the range is reversed (did you mean ge 2023-11-21, le 2023-11-24?)",
    );
    const times = await refused(() =>
      wb.data.eqTaq1Min("AAPL", { filters: { BarDateTime: { gt: "2023-11-21T16:00:00", lt: "2023-11-21T14:30:00Z" } } })
    );
    expect(times.message).toMatch(/BarDateTime gt 2023-11-21T16:00:00 is after lt 2023-11-21T14:30:00Z: the range is reversed/);
  });

  it("ranges that touch the data, and trading days, still answer", async () => {
    const partly = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL", TradeDate: { ge: "2023-11-01", le: "2023-11-21" } } });
    expect(partly.height).toBe(2);
    const friday = await wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-11-24" }, maxRows: 10 });
    expect(friday.height).toBe(10);
  });
});

describe("without the lookup files", () => {
  it("an unknown ticker is judged from the answer by a one-row probe; a known one with no row in range is not an error", async () => {
    // The rewrite hides eq-lookup-files from the account's rules: the workbench cannot resolve tickers through it.
    const drifting = rewritingFetch(sb.fetch, {
      "/api/v1/account/my/data-access-rules": (rules) =>
        rules.filter((r: { dataset_text_id: string }) => r.dataset_text_id !== "eq-lookup-files"),
    });
    const blind = await connect({ baseUrl: sb.baseUrl, fetch: drifting, apiKey: "demo-full-access" });
    const error = await blind.data.eqDailyOhlc({ filters: { Ticker: ["AAPL", "MSFTT"], TradeDate: "2023-11-21" } }).catch((e) => e);
    expect(error).toBeInstanceOf(UnknownTickerError);
    expect(error.message).toMatch(
      /eq-daily-ohlc: no row for ticker MSFTT at any date: the service does not know it \(this account cannot read eq-lookup-files/,
    );
    // SQ is known: no row after its rename is not an error here (the frame is empty, and says so elsewhere).
    const empty = await blind.data.eqDailyOhlc({ filters: { Ticker: "SQ", TradeDate: "2023-11-28" } });
    expect(empty.height).toBe(0);
  });
});

describe("calls of several requests judge their tickers before sending", () => {
  /** Data requests the month counted during `call` (account and metadata reads are free). */
  async function monthlyRequests(session: Workbench, call: () => Promise<unknown>): Promise<[number, unknown]> {
    const used = async () => (await session.account.quotasRaw()).quotas_usage.monthly_requests;
    const before = await used();
    const outcome = await call().then((v) => v, (e) => e);
    return [(await used()) - before, outcome];
  }

  it("a universe with a misspelt member costs only the lookup files, once per session, and no empty page", async () => {
    const fresh = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
    const [spent, error] = await monthlyRequests(
      fresh,
      () => fresh.data.eqTaq1Min(["SPY", "APPL", "MSFT"], { start: "2023-11-20", end: "2023-11-21" }),
    );
    expect(error).toBeInstanceOf(UnknownTickerError);
    expect((error as Error).message).toMatch(/eq-taq-1min: unknown ticker APPL \(did you mean 'AAPL'\?\)/);
    expect(spent).toBe(1); // the lookup files' one page
    // One ticker over many days is several requests too: refused with the book already loaded, for nothing.
    const [again, ticks] = await monthlyRequests(fresh, () => fresh.data.eqTaq(null, "MSFTT", { start: "2023-11-20", end: "2023-11-22" }));
    expect(ticks).toBeInstanceOf(UnknownTickerError);
    expect(again).toBe(0);
  });

  it("a download with a misspelt ticker is refused before it writes empty partitions", async () => {
    const fresh = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
    const dir = mkdtempSync(join(tmpdir(), "wb-misspelt-"));
    try {
      const [spent, error] = await monthlyRequests(
        fresh,
        () => fresh.download("eq-taq-1min", { tickers: ["AAPL", "MSFTT"], start: "2023-11-20", end: "2023-11-21" }, join(dir, "lake")),
      );
      expect(error).toBeInstanceOf(UnknownTickerError);
      expect((error as Error).message).toMatch(/unknown ticker MSFTT \(did you mean 'MSFT'\?\)/);
      expect(spent).toBe(1);
      expect(readdirSync(join(dir, "lake")).filter((f) => f.startsWith("Ticker="))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("without the lookup files, an unknown eq-taq ticker is judged by a probe of eq-daily-ohlc", async () => {
    const drifting = rewritingFetch(sb.fetch, {
      "/api/v1/account/my/data-access-rules": (rules) =>
        rules.filter((r: { dataset_text_id: string }) => r.dataset_text_id !== "eq-lookup-files"),
    });
    const blind = await connect({ baseUrl: sb.baseUrl, fetch: drifting, apiKey: "demo-full-access" });
    const error = await blind.data.eqTaq("2023-11-21", "MSFTT").catch((e) => e);
    expect(error).toBeInstanceOf(UnknownTickerError);
    expect(error.message).toMatch(/eq-taq: no row for ticker MSFTT at any date: the service does not know it/);
    // A known ticker without rows that day is not an error (XYZ starts after its rename).
    expect((await blind.data.eqTaq("2023-11-21", "XYZ")).height).toBe(0);
  });

  it("a probe outside the identity's universe in one dataset asks the next", async () => {
    // eq-daily-ohlc lists only AAPL for this identity: MSFTT is probed in eq-taq-1min instead.
    const rules = (all: { dataset_text_id: string; universe_identifiers: string[] }[]) =>
      all.filter((r) => r.dataset_text_id !== "eq-lookup-files").map((
        r,
      ) => (r.dataset_text_id === "eq-daily-ohlc" ? { ...r, universe_identifiers: ["AAPL"] } : r));
    const drifting = rewritingFetch(sb.fetch, { "/api/v1/account/my/data-access-rules": rules });
    const narrow = await connect({ baseUrl: sb.baseUrl, fetch: drifting, apiKey: "demo-full-access" });
    const error = await narrow.data.eqTaq("2023-11-21", "MSFTT").catch((e) => e);
    expect(error).toBeInstanceOf(UnknownTickerError);
    expect(error.message).toMatch(/eq-taq: no row for ticker MSFTT at any date/);
  });

  it("when nothing can judge an absent eq-taq ticker, the frame says so", async () => {
    const onlyTicks = (rules: { dataset_text_id: string }[]) => rules.filter((r) => r.dataset_text_id === "eq-taq");
    const drifting = rewritingFetch(sb.fetch, { "/api/v1/account/my/data-access-rules": onlyTicks });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const ticksOnly = await connect({ baseUrl: sb.baseUrl, fetch: drifting, apiKey: "demo-full-access" });
      const frame = await ticksOnly.data.eqTaq("2023-11-21", "MSFTT");
      expect(frame.height).toBe(0);
      expect(frameWarnings(frame)).toContain(
        "MSFTT has no rows in eq-taq, and whether the service knows MSFTT cannot be judged: this account reads neither eq-lookup-files nor a dataset that lists tickers at any date (check the spelling)",
      );
    } finally {
      warn.mockRestore();
    }
  });
});

describe("a restricted universe", () => {
  it("a misspelt ticker outside the universe is refused with the nearest allowed one", async () => {
    const restricted = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-restricted" });
    const error = await restricted.data.eqTaq1Min("APPL", { filters: { TradeDate: "2023-11-21" } }).catch((e) => e);
    expect(error).toBeInstanceOf(NotEntitledError);
    expect(error.message).toBe(
      "Ticker 'APPL' is outside your universe for eq-taq-1min (did you mean 'AAPL'?): allowed tickers are AAPL, MSFT",
    );
  });
});
