/**
 * Series linked across a split, the median with its bootstrap error, total returns and the
 * delisting return, against hand-worked cases; then on the tiny market, ODFL's series linked to
 * ODFL1 on the ex date and HES's delisting return from the data's own deliverable.
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import {
  delistingReturn,
  linkSplitSeries,
  matchedVolChanges,
  medianWithError,
  QueryError,
  splitFactors,
  totalReturns,
} from "../../../workbench/mod.ts";
import { sandboxWorkbench } from "./support/sandboxWorkbench.ts";

const day = (d: string) => new Date(`${d}T00:00:00Z`);

function greeks(date: string, ticker: string, rows: [cp: string, strike: number, vol: number | null, mid: number][]): pl.DataFrame {
  return pl.DataFrame([
    pl.Series("TradeDate", rows.map(() => day(date)), pl.Date),
    pl.Series("Ticker", rows.map(() => ticker), pl.String),
    pl.Series("CallPut", rows.map((r) => r[0]), pl.String),
    pl.Series("Strike", rows.map((r) => r[1]), pl.Float64),
    pl.Series("ExpirationDate", rows.map(() => day("2024-01-19")), pl.Date),
    pl.Series("LastMidPrice", rows.map((r) => r[3]), pl.Float64),
    pl.Series("MidImpliedVol", rows.map((r) => r[2]), pl.Float64),
    pl.Series("ImpliedVolConvergence", rows.map((r) => (r[2] === null ? "not converged" : "computed")), pl.String),
  ]);
}

describe("series linked across a split", () => {
  const before = greeks("2023-11-21", "OLD", [["C", 300, 0.3, 12], ["P", 300, 0.31, 9], ["C", 330, 0.28, 4], ["C", 360, null, 0.05]]);
  const after = greeks("2023-11-22", "OLD1", [["C", 300, 0.305, 12.5], ["P", 300, 0.3, 8], ["C", 360, 0.4, 0.06], ["C", 390, 0.5, 0.01]]);

  it("matches on call/put, strike and expiry across roots, computed vols on both days only", () => {
    const m = matchedVolChanges(before, after).toRecords();
    expect(m.map((r) => [r.CallPut, r.Strike, r.TickerBefore, r.TickerAfter])).toEqual([["C", 300, "OLD", "OLD1"], [
      "P",
      300,
      "OLD",
      "OLD1",
    ]]);
    expect(m[0].VolChangePts).toBeCloseTo(0.5, 12); // (0.305 − 0.3)·100
    expect(m[1].VolChangePts).toBeCloseTo(-1, 12);
  });

  it("gives each strike per new share (300 / 1.5 = 200) and 150 shares a contract", () => {
    const l = linkSplitSeries(before, after, 1.5).toRecords();
    expect(l.map((r) => r.StrikePerNewShareUsd)).toEqual([200, 200]);
    expect(l.map((r) => r.SharesPerContract)).toEqual([150, 150]);
    expect(() => linkSplitSeries(before, after, 0)).toThrow(QueryError);
    expect(() => matchedVolChanges(pl.concat([before, after]), after)).toThrow(/one trade date/);
  });

  it("gives a median with a bootstrap standard error: 2.5 for 1..4, none for a constant, √(π/2)·σ/√n for a normal sample", () => {
    expect(medianWithError([1, 2, 3, 4]).median).toBe(2.5);
    expect(medianWithError([3, 3, 3]).standardError).toBe(0);
    expect(medianWithError([7])).toEqual({ median: 7, standardError: null, n: 1 });
    // 400 normal draws (Box-Muller on a fixed sequence): the median's asymptotic error is 1.2533/√400 = 0.0627
    const xs = Array.from(
      { length: 400 },
      (_, i) => Math.sqrt(-2 * Math.log((i + 0.5) / 400)) * Math.cos(2 * Math.PI * ((i * 0.618034) % 1)),
    );
    const e = medianWithError(xs, 1000, 7);
    expect(e.standardError!).toBeGreaterThan(0.0627 * 0.8);
    expect(e.standardError!).toBeLessThan(0.0627 * 1.25);
    expect(medianWithError(xs, 1000, 7)).toEqual(e); // seeded: the same every run
  });
});

describe("total returns", () => {
  const daily = pl.DataFrame([
    pl.Series("TradeDate", ["2023-11-20", "2023-11-21", "2023-11-22", "2023-11-24", "2023-11-20", "2023-11-21"].map(day), pl.Date),
    pl.Series("ASID", [1, 1, 1, 1, 2, 2], pl.Int64),
    pl.Series("ClosePrice", [100, 102, 68, 70, 50, 49], pl.Float64),
  ]);
  const splits = pl.DataFrame([
    pl.Series("SecId", [1], pl.Int64),
    pl.Series("ExDate", [day("2023-11-22")], pl.Date),
    pl.Series("Factor", [1.5], pl.Float64),
  ]);
  const dividends = pl.DataFrame([
    pl.Series("SecId", [1], pl.Int64),
    pl.Series("ExDate", [day("2023-11-24")], pl.Date),
    pl.Series("AmountUsd", [0.5], pl.Float64),
  ]);

  it("counts a 3-for-2 split as no return and a $0.50 dividend as income: 2%, 0%, 3.676%", () => {
    const t = totalReturns(daily, splits, dividends).filter(pl.col("ASID").eq(1)).toRecords();
    // 102/100 − 1; 68·1.5/102 − 1 = 0; (70 + 0.5)/68 − 1
    expect(t.map((r) => r.TotalReturnPct)).toEqual([
      null,
      expect.closeTo(2, 12),
      expect.closeTo(0, 12),
      expect.closeTo(3.676470588235303, 12),
    ]);
    expect(t[3].PriceReturnPct).toBeCloseTo((70 / 68 - 1) * 100, 12);
    expect(t.map((r) => r.TotalReturnIndex)).toEqual([1, expect.closeTo(1.02, 14), expect.closeTo(1.02, 14), expect.closeTo(1.0575, 14)]);
    // TRI_t / TRI_last · P_last / P_t: 1/1.0575·70/100 on the first day, 1 on the last
    expect(t.map((r) => r.TotalReturnFactor)).toEqual([
      expect.closeTo(0.6619385342789599, 14),
      expect.closeTo(0.6619385342789599, 14),
      expect.closeTo(0.9929078014184398, 14),
      1,
    ]);
    expect(t.map((r) => [r.SplitFactor, r.DividendUsd])).toEqual([[1, 0], [1, 0], [1.5, 0], [1, 0.5]]);
  });

  it("keeps securities apart and needs the columns it reads", () => {
    const other = totalReturns(daily, splits).filter(pl.col("ASID").eq(2)).toRecords();
    expect(other.map((r) => r.TotalReturnPct)).toEqual([null, expect.closeTo(-2, 12)]);
    expect(() => totalReturns(daily.drop("ASID"), splits)).toThrow(/needs daily bars with ASID/);
    expect(() => totalReturns(daily, splits.drop("Factor"))).toThrow(/SecId, ExDate and Factor/);
  });

  it("values a delisting at the consideration: (1.02·150 + 5.17)/160 − 1 = −1.14375%", () => {
    expect(delistingReturn(160, { shares: [{ units: 1.02, priceUsd: 150 }], cashUsd: 5.17 })).toBeCloseTo(-0.0114375, 14);
    expect(() => delistingReturn(0, { shares: [], cashUsd: 1 })).toThrow(QueryError);
  });
});

describe("on the tiny market", () => {
  const connected = sandboxWorkbench();

  it("links ODFL's series on the eve of the split to ODFL1's on the ex date, at two thirds of each strike per new share", async () => {
    const factors = await splitFactors(connected.wb);
    const odfl = factors.filter(pl.col("Ticker").eq(pl.lit("ODFL"))).toRecords()[0];
    const ex = (odfl.ExDate as Date).toISOString().slice(0, 10);
    const daily = await connected.wb.data.eqDailyOhlc({ filters: { Ticker: "ODFL", TradeDate: { lt: ex } }, sort: "TradeDate" });
    const eve = (daily.getColumn("TradeDate").toArray().at(-1) as unknown as Date).toISOString().slice(0, 10);
    const g = (ticker: string, date: string) => connected.wb.data.optGreeksDaily({ filters: { Ticker: ticker, TradeDate: date } });
    const linked = linkSplitSeries(await g("ODFL", eve), await g("ODFL1", ex), odfl.Factor as number);
    expect(linked.height).toBeGreaterThan(20);
    for (const r of linked.toRecords()) expect(r.StrikePerNewShareUsd).toBeCloseTo((r.Strike as number) / 1.5, 12);
    expect(new Set(linked.getColumn("TickerAfter").toArray())).toEqual(new Set(["ODFL1"]));
  });
});
