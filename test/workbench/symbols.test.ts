/**
 * One way to name symbols and dates on every dataset function: symbols first or as `tickers:`,
 * dates as `start`/`end` or `date`, turned into each dataset's REST shape; a wrong call names
 * the form the dataset takes. Pure: no service.
 */
import { describe, expect, it } from "vitest";
import { QueryError } from "../../workbench/mod.ts";
import { dataEndpoint } from "../../workbench/query/endpoints.ts";
import { symbolCall } from "../../workbench/query/symbols.ts";

const call = (dataset: string, first?: unknown, second?: unknown) => symbolCall("fn", dataEndpoint(dataset), first, second);

describe("symbols and dates, the same way on every dataset", () => {
  it("a ticker first, or tickers in the options, give the same REST shape", () => {
    expect(call("eq-daily-ohlc", "ODFL", { start: "2023-11-20", end: "2023-11-24" })).toEqual({
      pathArgs: [],
      query: { start: "2023-11-20", end: "2023-11-24", filters: { Ticker: "ODFL" } },
    });
    expect(call("eq-daily-ohlc", { tickers: "ODFL", start: "2023-11-20", end: "2023-11-24" })).toEqual(
      call("eq-daily-ohlc", "ODFL", { start: "2023-11-20", end: "2023-11-24" }),
    );
    expect(call("opt-open-interest", ["SPY", "QQQ"], { date: "2023-11-21" }).query).toEqual({
      start: "2023-11-21",
      end: "2023-11-21",
      filters: { Ticker: ["SPY", "QQQ"] },
    });
    expect(call("occ-eq-spec-settl", "ODFL1").query).toEqual({ filters: { OptionTicker: "ODFL1" } });
  });

  it("a path ticker goes to the path, and eq-taq takes its dates from date or start/end (no null first)", () => {
    expect(call("eq-taq-1min", ["SPY", "QQQ"], { date: "2023-11-21" })).toEqual({
      pathArgs: [["SPY", "QQQ"]],
      query: { start: "2023-11-21", end: "2023-11-21" },
    });
    expect(call("eq-taq", "AAPL", { date: new Date("2023-11-21T00:00:00Z") })).toEqual({
      pathArgs: [null, "AAPL"],
      query: { start: "2023-11-21", end: "2023-11-21" },
    });
    expect(call("eq-daily-ohlc", { filters: { Ticker: "AAPL" } })).toEqual({ pathArgs: [], query: { filters: { Ticker: "AAPL" } } });
  });

  it("a wrong call says which form the dataset takes", () => {
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(QueryError);
        return (e as Error).message;
      }
      throw new Error("not refused");
    };
    expect(refused(() => call("eq-taq-1min", { start: "2023-11-20" }))).toMatch(
      /needs a ticker \(one or a list\): call fn\("AAPL", \{ start/,
    );
    expect(refused(() => call("eq-daily-ohlc", "AAPL", { tickers: ["MSFT"] }))).toMatch(/tickers twice/);
    expect(refused(() => call("eq-daily-ohlc", "AAPL", { filters: { Ticker: "MSFT" } }))).toMatch(
      /twice \(as symbols and as filters.Ticker\)/,
    );
    expect(refused(() => call("eq-daily-ohlc", "AAPL", { date: "2023-11-21", start: "2023-11-20" }))).toMatch(/date and start\/end/);
    expect(refused(() => call("opt-sec-master", "ODFL", { date: "2023-11-21" }))).toMatch(/has no trade date/);
    expect(refused(() => call("eq-daily-ohlc", 42))).toMatch(/first argument is 42 \(number\)/);
    expect(refused(() => call("eq-daily-ohlc", []))).toMatch(/non-empty list/);
    expect(refused(() => call("eq-daily-ohlc", "AAPL", { date: "2023-13-01" }))).toMatch(/date '2023-13-01' is not a date/);
  });
});
