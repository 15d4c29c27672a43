/**
 * Split factors derived from the service's reference data and CRSP-style adjusted series,
 * through real HTTP against the sandbox on the tiny market: ODFL's 3-for-2 and SIRI's 1-for-4
 * reverse split are found with their ex dates, HES into CVX is not a split, adjusted series
 * are continuous across the ex dates, and SQ/XYZ is one series.
 */
import pl from "nodejs-polars";
import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustedRoots,
  adjustPrices,
  frameHash,
  priceColumnsOf,
  QueryError,
  securityBars,
  splitFactors,
  volumeColumnsOf,
} from "../../../workbench/mod.ts";
import { tradingDays } from "../../../calendar/calendar.ts";
import { planCorporateActions } from "../../../sandbox/market/corporateActions.ts";
import { sandboxWorkbench } from "./support/sandboxWorkbench.ts";

const connected = sandboxWorkbench();
let factors: pl.DataFrame;
beforeAll(async () => {
  factors = await splitFactors(connected.wb);
});

const iso = (d: Date) => d.toISOString().slice(0, 10);
const dailyOf = (ticker: string) => connected.wb.data.eqDailyOhlc({ filters: { Ticker: ticker }, sort: "TradeDate" });
/** Close-to-close returns with the date of the later close. */
const returns = (frame: pl.DataFrame) => {
  const closes = frame.getColumn("ClosePrice").toArray() as number[];
  const dates = (frame.getColumn("TradeDate").toArray() as unknown as Date[]).map(iso);
  return closes.slice(1).map((c, i) => ({ date: dates[i + 1], r: c / closes[i] - 1 }));
};
/** The date whose raw return is farthest from zero: where the data itself shows the jump. */
const jumpDate = (frame: pl.DataFrame) => returns(frame).reduce((a, b) => (Math.abs(b.r) > Math.abs(a.r) ? b : a)).date;

describe("split factors from the special settlements and the security master", () => {
  it("finds ODFL's 3-for-2 (factor 1.5) and SIRI's 1-for-4 reverse split (0.25) on the days the prices jump", async () => {
    const rows = factors.sort("Ticker").toRecords() as unknown as {
      SecId: number;
      Ticker: string;
      ExDate: Date;
      Factor: number;
      OptionTicker: string;
    }[];
    expect(rows.map((r) => [r.Ticker, r.Factor, r.OptionTicker])).toEqual([["ODFL", 1.5, "ODFL1"], ["SIRI", 0.25, "SIRI1"]]);
    for (const r of rows) {
      const daily = await dailyOf(r.Ticker);
      expect(Number(r.SecId)).toBe(Number(daily.getColumn("ASID").get(0)));
      expect(iso(r.ExDate)).toBe(jumpDate(daily));
      // The raw jump is the inverse of the factor, times the day's own move (within 10%).
      const jump = returns(daily).find((x) => x.date === iso(r.ExDate))!.r;
      expect(Math.abs(Math.log((1 + jump) * r.Factor))).toBeLessThan(0.1);
    }
  });

  it("agrees with the corporate actions the market generator planned (the test may look; the workbench may not)", async () => {
    const days = (await dailyOf("SPY")).getColumn("TradeDate").toArray().map((d) => iso(d as unknown as Date));
    const planned = planCorporateActions(tradingDays(days[0], days.at(-1)!)).flatMap((
      a,
    ) => (a.kind === "split" ? [[a.asid, a.exDate, a.newShares / a.oldShares]] : []));
    const derived = (factors.sort("SecId").toRecords() as unknown as { SecId: number; ExDate: Date; Factor: number }[]).map((
      r,
    ) => [Number(r.SecId), iso(r.ExDate), r.Factor]);
    expect(derived).toEqual(planned);
  });

  it("classifies HES's adjusted root, delivering CVX shares plus cash, as a merger and gives no factor to HES or CVX", async () => {
    const roots = await adjustedRoots(connected.wb);
    const hes = roots.find((r) => r.optionTicker === "HES1")!;
    expect(hes.kind).toBe("merger");
    expect(hes.reason).toMatch(/another security \(CVX\) and cash/);
    expect(hes.ticker).toBe("HES");
    const hesId = Number((await dailyOf("HES")).getColumn("ASID").get(0));
    const cvxId = Number((await dailyOf("CVX")).getColumn("ASID").get(0));
    expect(factors.filter(pl.col("SecId").isIn([hesId, cvxId])).height).toBe(0);
  });
});

describe("adjusted series", () => {
  it("ODFL adjusted is continuous across the ex date: that day's return is within the range of the other days", async () => {
    const raw = await dailyOf("ODFL");
    const adjusted = adjustPrices(raw, factors);
    const exDate = iso(factors.filter(pl.col("Ticker").eq(pl.lit("ODFL"))).getColumn("ExDate").toArray()[0] as unknown as Date);
    const rawJump = returns(raw).find((x) => x.date === exDate)!.r;
    expect(rawJump).toBeLessThan(-0.25);
    const adj = returns(adjusted);
    const across = adj.find((x) => x.date === exDate)!.r;
    const others = adj.filter((x) => x.date !== exDate).map((x) => Math.abs(x.r));
    expect(Math.abs(across)).toBeLessThan(Math.max(0.05, 3 * Math.max(...others)));
    // CRSP convention: factor 1 on the latest date, prices divided and volumes multiplied before
    const f = adjusted.getColumn("AdjFactor").toArray() as number[];
    expect(f.at(-1)).toBe(1);
    const before = adjusted.filter(pl.col("TradeDate").lt(pl.lit(exDate).str.strptime(pl.Date, "%Y-%m-%d")));
    expect(before.height).toBeGreaterThan(0);
    const rawBefore = raw.head(before.height);
    expect(before.getColumn("ClosePrice").toArray()).toEqual((rawBefore.getColumn("ClosePrice").toArray() as number[]).map((p) => p / 1.5));
    expect(before.getColumn("DailyVolume").toArray()).toEqual(
      (rawBefore.getColumn("DailyVolume").toArray() as number[]).map((v) => Number(v) * 1.5),
    );
    expect(adjusted.tail(1).getColumn("ClosePrice").get(0)).toBe(raw.tail(1).getColumn("ClosePrice").get(0));
  });

  it("SIRI adjusted through the reverse split is continuous, and a frame ending before the ex date is left as traded", async () => {
    const raw = await dailyOf("SIRI");
    const exDate = iso(factors.filter(pl.col("Ticker").eq(pl.lit("SIRI"))).getColumn("ExDate").toArray()[0] as unknown as Date);
    const adj = returns(adjustPrices(raw, factors));
    expect(Math.abs(adj.find((x) => x.date === exDate)!.r)).toBeLessThan(0.05);
    const early = raw.filter(pl.col("TradeDate").lt(pl.lit(exDate).str.strptime(pl.Date, "%Y-%m-%d")));
    expect(adjustPrices(early, factors).getColumn("AdjFactor").toArray()).toEqual(early.getColumn("ClosePrice").toArray().map(() => 1));
  });

  it("minute bars of ODFL adjusted meet at the ex date: last regular bar before, first regular bar on it", async () => {
    const exDate = iso(factors.filter(pl.col("Ticker").eq(pl.lit("ODFL"))).getColumn("ExDate").toArray()[0] as unknown as Date);
    const bars = await securityBars(connected.wb, "ODFL", { dataset: "eq-taq-1min", from: "2023-11-20", to: exDate });
    const regular = adjustPrices(bars, factors).filter(
      pl.col("LastTradePrice").isNotNull().and(pl.col("BarDateTime").dt.hour().gtEq(10)).and(pl.col("BarDateTime").dt.hour().lt(16)),
    );
    const byDay = regular.groupBy("TradeDate").agg(
      pl.col("LastTradePrice").first().alias("first"),
      pl.col("LastTradePrice").last().alias("last"),
    ).sort("TradeDate");
    const [prev, ex] = byDay.toRecords() as unknown as { first: number; last: number }[];
    expect(Math.abs(ex.first / prev.last - 1)).toBeLessThan(0.05);
  });

  it("SQ and XYZ are one series: asked by either ticker, the same rows, one ASID, every trading day once", async () => {
    const viaXyz = await securityBars(connected.wb, "XYZ");
    const viaSq = await securityBars(connected.wb, "SQ");
    expect(frameHash(viaSq)).toBe(frameHash(viaXyz));
    expect(new Set(viaXyz.getColumn("Ticker").toArray())).toEqual(new Set(["SQ", "XYZ"]));
    expect(viaXyz.getColumn("ASID").nUnique()).toBe(1);
    const spyDays = (await dailyOf("SPY")).getColumn("TradeDate").toArray().map((d) => iso(d as unknown as Date));
    expect((viaXyz.getColumn("TradeDate").toArray() as unknown as Date[]).map(iso)).toEqual(spyDays);
    const change = viaXyz.filter(pl.col("Ticker").eq(pl.lit("XYZ"))).getColumn("TradeDate").toArray()[0] as unknown as Date;
    expect(Math.abs(returns(viaXyz).find((x) => x.date === iso(change))!.r)).toBeLessThan(0.1);
  });
});

describe("which columns are prices and which are share counts", () => {
  it("minute bars: prices, spreads and the dollar trade-to-mid are divided; sizes and volumes multiplied; counts, offsets and relative measures kept", async () => {
    const bars = await connected.wb.data.eqTaq1Min("ODFL", { filters: { TradeDate: "2023-11-20" }, maxRows: 5 });
    const prices = priceColumnsOf(bars), volumes = volumeColumnsOf(bars);
    expect(prices).toEqual(
      expect.arrayContaining([
        "OpenBidPrice",
        "LastTradePrice",
        "MinSpread",
        "MaxSpread",
        "VolumeWeightPrice",
        "FinraVolumeWeightPrice",
        "TimeWeightBid",
        "TimeWeightAsk",
        "TradeToMidVolWeight",
      ]),
    );
    expect(volumes).toEqual(
      expect.arrayContaining([
        "OpenBidSize",
        "LastTradeSize",
        "CancelSize",
        "TradeAtBid",
        "TradeAtCrossOrLocked",
        "Volume",
        "FinraVolume",
        "UptickVolume",
        "UnknownTickVolume",
      ]),
    );
    for (const kept of ["TradeToMidVolWeightRelative", "NBBOQuoteCount", "TotalTrades", "OpenBarTimeOffset", "ASID"]) {
      expect([...prices, ...volumes]).not.toContain(kept);
    }
  });
});

describe("bad input", () => {
  it("a frame without the security id column is refused, naming the column and the way out", async () => {
    const daily = (await dailyOf("ODFL")).drop("ASID");
    expect(() => adjustPrices(daily, factors)).toThrow(QueryError);
    expect(() => adjustPrices(daily, factors)).toThrow(/security id column 'ASID'.*idColumn/);
  });

  it("an unknown ticker is refused with the known ones", async () => {
    await expect(securityBars(connected.wb, "NOPE")).rejects.toThrow(
      /Ticker 'NOPE' is not in the equity lookup file: known tickers are AAPL, CVX/,
    );
  });
});
