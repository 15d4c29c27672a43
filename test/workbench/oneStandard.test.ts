/**
 * Issue 38, item 7: one standard of checking, against the sandbox's app on the tiny market.
 * Each mistake the issue found gets its message: option roots are checked as tickers are
 * (did you mean, the root of an underlying, renamed, delisted); a filter value outside a
 * column's closed list is refused before any data request, naming the allowed values;
 * `wb.estimate` takes the data functions' arguments; progress counts the tickers asked for;
 * dates read out of a frame have one helper.
 */
import pl from "nodejs-polars";
import { beforeAll, describe, expect, it } from "vitest";
import {
  connect,
  frameDates,
  frameWarnings,
  type ProgressEvent,
  QueryError,
  UnknownTickerError,
  type Workbench,
} from "../../workbench/mod.ts";
import { withFullAccess } from "./support/fullAccess.ts";
import { rewritingFetch } from "./support/rewritingFetch.ts";

const local = withFullAccess();

/** The error a call rejects with (fails the test when it resolves). */
async function refused(call: () => Promise<unknown>): Promise<Error> {
  try {
    await call();
  } catch (e) {
    return e as Error;
  }
  throw new Error("the call was not refused");
}

/** A workbench on the same sandbox whose requests to /api/v1/data are counted. */
async function counting(): Promise<{ wb: Workbench; data: () => string[] }> {
  const sent: string[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.includes("/api/v1/data/")) sent.push(url);
    return local.sb.fetch(input, init);
  };
  return { wb: await connect({ baseUrl: local.sb.baseUrl, fetch, apiKey: "demo-full-access" }), data: () => sent };
}

describe("option roots, checked as tickers are", () => {
  let roots: string;
  beforeAll(async () => {
    roots = ((await local.wb.data.optSecMaster()).getColumn("OptionTicker").toArray() as string[]).sort().join(", ");
  });

  it("a misspelt root is refused with the nearest one, not answered with an empty frame", async () => {
    const e = await refused(() => local.wb.data.optGreeksDaily("APPL", { date: "2023-11-21" }));
    expect(e).toBeInstanceOf(UnknownTickerError);
    expect(e.message).toBe(`opt-greeks-daily: unknown option root APPL (did you mean 'AAPL'?); known option roots are ${roots}`);
    expect((e as UnknownTickerError).suggestions).toEqual({ APPL: ["AAPL"] });
  });

  it("an underlying that is not a root names the root its options trade under", async () => {
    const e = await refused(() => local.wb.data.optGreeksDaily("SPX", { date: "2023-11-21" }));
    expect(e.message).toBe(
      `opt-greeks-daily: unknown option root SPX (SPX is the underlying of option root SPXW: ask for SPXW); known option roots are ${roots}`,
    );
    expect((await local.wb.data.optGreeksDaily("SPXW", { date: "2023-11-21" })).height).toBeGreaterThan(0);
  });

  it("a renamed root names its new name, and a delisted one what its contracts became", async () => {
    const renamed = await refused(() => local.wb.data.optOpenInterest("SQ", { date: "2023-11-28" }));
    expect(renamed).toBeInstanceOf(QueryError);
    expect(renamed.message).toBe(
      "opt-open-interest from 2023-11-28: option root SQ was renamed: its options trade as XYZ from 2023-11-27 (SQ's last day was 2023-11-24); ask for XYZ",
    );
    const delisted = await refused(() => local.wb.data.optOpenInterest(["HES", "AAPL"], { start: "2023-11-24", end: "2023-11-28" }));
    expect(delisted.message).toBe(
      "opt-open-interest from 2023-11-24: option root HES was delisted after 2023-11-22; its contracts were adjusted into HES1 (from 2023-11-24, underlying CVX)",
    );
    const greeks = await refused(() => local.wb.data.optGreeksDaily("HES1", { date: "2023-11-27" }));
    expect(greeks.message).toBe(
      "opt-greeks-daily holds no row of HES1: opt-sec-master says its greeks are not computed (GreeksCoverage N); opt-open-interest lists its contracts",
    );
  });

  it("an identity without the security master has a root with no row at any date refused by a one-row probe", async () => {
    // The rewrite hides opt-sec-master from the account's rules: the roots cannot be resolved through it.
    const blind = await connect({
      baseUrl: local.sb.baseUrl,
      apiKey: "demo-full-access",
      fetch: rewritingFetch(local.sb.fetch, {
        "/api/v1/account/my/data-access-rules": (rules) =>
          rules.filter((r: { dataset_text_id: string }) => r.dataset_text_id !== "opt-sec-master"),
      }),
    });
    const e = await refused(() => blind.data.optGreeksDaily(["AAPL", "APPL"], { date: "2023-11-21" }));
    expect(e).toBeInstanceOf(UnknownTickerError);
    expect(e.message).toBe(
      "opt-greeks-daily: no row for option root APPL at any date: the service does not know it (this account cannot read opt-sec-master, which would name the nearest option roots)",
    );
  });
});

describe("option roots of the reference datasets, checked as the other option datasets check theirs", () => {
  it("optSecMaster and occEqSpecSettl refuse a root the security master does not know, where they returned an empty frame without a word", async () => {
    const { wb, data } = await counting();
    const roots = ((await local.wb.data.optSecMaster()).getColumn("OptionTicker").toArray() as string[]).sort().join(", ");
    const master = await refused(() => wb.data.optSecMaster("APPL"));
    expect(master).toBeInstanceOf(UnknownTickerError);
    expect(master.message).toBe(`opt-sec-master: unknown option root APPL (did you mean 'AAPL'?); known option roots are ${roots}`);
    const settl = await refused(() => wb.data.occEqSpecSettl(["ODFL1", "SPX"]));
    expect(settl.message).toBe(
      `occ-eq-spec-settl: unknown option root SPX (SPX is the underlying of option root SPXW: ask for SPXW); known option roots are ${roots}`,
    );
    // The security master is loaded now: a misspelt root is refused before its request is sent.
    const sent = data().length;
    expect((await refused(() => wb.data.occEqSpecSettl("ODFL2"))).message).toBe(
      `occ-eq-spec-settl: unknown option root ODFL2 (did you mean 'ODFL' or 'ODFL1'?); known option roots are ${roots}`,
    );
    expect(data().length).toBe(sent);
  });

  it("a root that exists but was never adjusted has its empty part said, naming the adjusted roots it became", async () => {
    const settl = await local.wb.data.occEqSpecSettl(["ODFL", "ODFL1"]);
    expect(settl.getColumn("OptionTicker").unique().toArray()).toEqual(["ODFL1"]);
    expect(frameWarnings(settl)).toContain(
      "occ-eq-spec-settl lists adjusted option roots only: ODFL is not one (no row); its contracts were adjusted into ODFL1: ask for ODFL1",
    );
    expect((await local.wb.data.optSecMaster(["ODFL", "ODFL1"])).height).toBe(2);
  });
});

describe("filter values on columns with a closed list", () => {
  it("CallPut 'CALL' is refused before any data request, naming C and P, instead of 0 rows that blame the ticker", async () => {
    const { wb, data } = await counting();
    const e = await refused(() => wb.data.optGreeksDaily("SPY", { date: "2023-11-21", filters: { CallPut: "CALL" } }));
    expect(e).toBeInstanceOf(QueryError);
    expect(e.message).toBe("Cannot filter opt-greeks-daily.CallPut by 'CALL': CallPut is C (call) or P (put) (did you mean 'C'?)");
    expect(data()).toEqual([]);
  });

  it("every closed list of the spec: OptionStyle, IsWeekly, OptionListStatus, GreeksCoverage, CallPut in a list", async () => {
    const { wb, data } = await counting();
    const messages = await Promise.all([
      refused(() => wb.data.optGreeksDaily("SPY", { date: "2023-11-21", filters: { OptionStyle: "american" } })),
      refused(() => wb.data.optSecMaster({ filters: { IsWeekly: "true" } })),
      refused(() => wb.data.optSecMaster({ filters: { OptionListStatus: "delisted" } })),
      refused(() => wb.data.optSecMaster({ filters: { GreeksCoverage: "yes" } })),
      refused(() => wb.data.optOpenInterest("SPY", { date: "2023-11-21", filters: { CallPut: ["C", "Put"] } })),
    ]).then((errors) => errors.map((e) => e.message));
    expect(messages).toEqual([
      "Cannot filter opt-greeks-daily.OptionStyle by 'american': OptionStyle is A (American) or E (European) (did you mean 'A'?)",
      "Cannot filter opt-sec-master.IsWeekly by 'true': IsWeekly is Y (yes) or N (no)",
      "Cannot filter opt-sec-master.OptionListStatus by 'delisted': OptionListStatus is L (listed) or D (delisted) (did you mean 'D'?)",
      "Cannot filter opt-sec-master.GreeksCoverage by 'yes': GreeksCoverage is Y (yes) or N (no) (did you mean 'Y'?)",
      "Cannot filter opt-open-interest.CallPut by 'Put': CallPut is C (call) or P (put) (did you mean 'P'?)",
    ]);
    expect(data()).toEqual([]);
    // The allowed values pass, and patterns are left to the service.
    expect(
      (await wb.data.optOpenInterest("SPY", { date: "2023-11-21", filters: { CallPut: "P" } })).getColumn("CallPut").unique().toArray(),
    ).toEqual(["P"]);
    expect((await wb.data.optSecMaster({ filters: { OptionListStatus: { like: "*" } } })).height).toBeGreaterThan(0);
  });
});

describe("filter values of the service's closed word lists: EventType and ImpliedVolConvergence", () => {
  it("are refused before any data request, naming every allowed value, where they returned 0 rows that blamed the ticker", async () => {
    const { wb, data } = await counting();
    const messages = await Promise.all([
      refused(() => wb.data.eqTaq("AAPL", { date: "2023-11-21", filters: { EventType: "trade" } })),
      refused(() => wb.data.eqTaq("AAPL", { date: "2023-11-21", filters: { EventType: ["TRADE", "QUOTE_BID"] } })),
      refused(() => wb.data.optGreeksDaily("SPY", { date: "2023-11-21", filters: { ImpliedVolConvergence: "interpolate" } })),
    ]).then((errors) => errors.map((e) => e.message));
    const events = "EventType is TRADE (a trade), QUOTE BID (a bid quote), QUOTE ASK (an ask quote) or TRADE CANCEL (a cancelled trade)";
    expect(messages).toEqual([
      `Cannot filter eq-taq.EventType by 'trade': ${events} (did you mean 'TRADE'?)`,
      `Cannot filter eq-taq.EventType by 'QUOTE_BID': ${events} (did you mean 'QUOTE BID'?)`,
      "Cannot filter opt-greeks-daily.ImpliedVolConvergence by 'interpolate': ImpliedVolConvergence is computed (by the model), interpolated (from nearby contracts of the expiry) or not converged (no implied volatility) (did you mean 'interpolated'?)",
    ]);
    expect(data()).toEqual([]);
    // The service's own words pass, and its schema says the same words.
    const trades = await wb.data.eqTaq("AAPL", {
      date: "2023-11-21",
      filters: { EventType: ["TRADE", "QUOTE BID"] },
      columns: ["EventType"],
    });
    expect((trades.getColumn("EventType").unique().toArray() as string[]).sort()).toEqual(["QUOTE BID", "TRADE"]);
    const greeks = await wb.data.optGreeksDaily("SPY", {
      date: "2023-11-21",
      filters: { ImpliedVolConvergence: ["computed", "interpolated", "not converged"] },
    });
    expect(greeks.height).toBe((await wb.data.optGreeksDaily("SPY", { date: "2023-11-21" })).height);
  });
});

describe("wb.estimate takes the data functions' arguments", () => {
  const week = { start: "2023-11-20", end: "2023-11-24" } as const;

  it("tickers: in the options, a list first, or one ticker first, as wb.data.eqTaq1Min takes them", async () => {
    const viaOption = await local.wb.estimate("eq-taq-1min", { tickers: ["AAPL", "MSFT"], ...week }, { lookups: false });
    const viaList = await local.wb.estimate("eq-taq-1min", ["AAPL", "MSFT"], week, { lookups: false });
    const rest = await local.wb.estimate("eq-taq-1min", week, [["AAPL", "MSFT"]], { lookups: false });
    expect(viaOption).toMatchObject({ requests: 2, rows: rest.rows });
    expect(viaList).toMatchObject({ requests: 2, rows: rest.rows });
    const one = await local.wb.estimate("eq-taq-1min", "AAPL", { date: "2023-11-21" });
    expect(one.rows).toBe((await local.wb.data.eqTaq1Min("AAPL", { date: "2023-11-21" })).height);
    const roots = await local.wb.estimate("opt-greeks-daily", "SPY", { date: "2023-11-21" }, { lookups: false });
    expect(roots.requests).toBeGreaterThanOrEqual(1);
  });

  it("a mistaken call is refused in the data function's words, with the dataset in the form", async () => {
    const e = await refused(() => local.wb.estimate("eq-taq-1min", 5 as never));
    expect(e.message).toBe(
      `wb.estimate's argument after the dataset is 5 (number): give the ticker (one or a list) or the options, as in wb.estimate("eq-taq-1min", "AAPL", { start: "2023-11-20", end: "2023-11-24" }) or wb.estimate("eq-taq-1min", { tickers: ["AAPL", ...], date: "2023-11-21" })`,
    );
    const twice = await refused(() => local.wb.estimate("eq-taq-1min", ["AAPL"], { tickers: "MSFT", ...week }));
    expect(twice.message).toMatch(/^wb\.estimate got its tickers twice \(first argument and tickers\)/);
  });
});

describe("progress counts what was asked for", () => {
  it("a download of 3 tickers in 3 chunks each says 3 tickers, not 9", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "progress-tickers-"));
    try {
      const events: ProgressEvent[] = [];
      await local.wb.download(
        "eq-daily-ohlc",
        {
          tickers: ["AAPL", "MSFT", "SPY"],
          start: "2023-11-20",
          end: "2023-11-28",
          onProgress: (e) => events.push(e),
        },
        join(dir, "lake"),
        { chunkDays: 2 },
      );
      const units = events.filter((e) => e.tickers).map((e) => e.tickers!.total);
      expect(new Set(units)).toEqual(new Set([3]));
      expect(events.at(-1)).toMatchObject({ done: true, tickers: { done: 3, total: 3 } });
      const minutes: ProgressEvent[] = [];
      await local.wb.download(
        "eq-taq-1min",
        {
          tickers: ["AAPL", "MSFT"],
          start: "2023-11-20",
          end: "2023-11-28",
          onProgress: (e) => minutes.push(e),
        },
        join(dir, "bars"),
        { chunkDays: 2 },
      );
      expect(minutes.at(-1)).toMatchObject({ done: true, tickers: { done: 2, total: 2 } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("one ticker over several days shows no ticker count (its days are not tickers)", async () => {
    const events: ProgressEvent[] = [];
    await local.wb.data.eqTaq("AAPL", {
      start: "2023-11-20",
      end: "2023-11-21",
      columns: ["TradeDate", "EventType"],
      onProgress: (e) => events.push(e),
    });
    expect(events.every((e) => e.tickers === undefined)).toBe(true);
  });
});

describe("dates read out of a frame", () => {
  it("one helper gives ISO text for min(), a column and a Datetime, and Dates when asked", async () => {
    const greeks = await local.wb.data.optGreeksDaily("AAPL", { date: "2023-11-21", columns: ["TradeDate", "ExpirationDate"] });
    const expiry = greeks.getColumn("ExpirationDate");
    const first = expiry.min() as unknown as number;
    expect(typeof first).toBe("number"); // days since 1970: what Polars hands over
    const iso = frameDates(expiry.unique().sort());
    expect(frameDates(first)).toBe(iso[0]);
    expect(iso.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d!))).toBe(true);
    expect(frameDates(expiry.unique().sort(), "Date")[0]).toEqual(new Date(`${iso[0]}T00:00:00Z`));
    const bars = await local.wb.data.eqTaq1Min("AAPL", { date: "2023-11-21", columns: ["BarDateTime"] });
    expect(frameDates(bars.getColumn("BarDateTime"))[0]).toBe("2023-11-21T04:00:00-05:00");
    expect(frameDates(bars.getColumn("BarDateTime"), "Date")[0]).toEqual(new Date("2023-11-21T09:00:00Z"));
  });

  it("refuses what it cannot read as a date, saying what it takes", () => {
    const e = (() => {
      try {
        frameDates(1_700_577_000_000_000_000);
      } catch (error) {
        return error as Error;
      }
    })();
    expect(e?.message).toBe(
      'frameDates reads 1700577000000000000 as days since 1970 (what a Date column\'s min() and max() give), and 1700577000000000000 is not a whole number of days below 10000000: for a Datetime column pass the column, e.g. frameDates(frame.select(pl.col("BarDateTime").min()).getColumn("BarDateTime"))',
    );
    expect(() => frameDates(pl.Series("Ticker", ["AAPL"]))).toThrow("frameDates reads a Date or Datetime column; 'Ticker' is String");
  });
});
