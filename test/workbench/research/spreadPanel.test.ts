/**
 * The decay curve, the size buckets, the day totals and the minute-bar imbalance measure, on
 * hand-built data whose numbers are worked out in the comments (the tick day of
 * tickFixture.ts; three minute bars), and the day totals checked against the frame path on a
 * real ticker-day of the tiny market.
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import {
  barImbalance,
  clusteredMeans,
  dayTotals,
  decayColumn,
  decayCurve,
  QueryError,
  SIZE_BUCKETS,
  spreadDayTotals,
  spreadMeasures,
  tradeSpreads,
  withSizeBucket,
  withTimeBucket,
} from "../../../workbench/mod.ts";
import { sandboxWorkbench } from "./support/sandboxWorkbench.ts";
import { TICKS } from "./support/tickFixture.ts";

const bps = (dollars: number, mid: number) => (dollars / mid) * 1e4;

describe("the decay curve on the hand-built day", () => {
  const trades = tradeSpreads(TICKS, { decaySeconds: [60, 300] }).filter(pl.col("Excluded").isNull());

  it("measures realized spread and impact 60 s after each trade against the midpoint then", () => {
    // midpoints 60 s later: 09:32 -> 10.05, 09:33 -> 10.05, 09:34:00 -> 10.075 (the bid moved at 09:34:00 exactly),
    // 09:35:30 -> 10.075 (the locked book is skipped), 09:39 -> 10.10
    const want = [
      { realized: bps(2 * (10.08 - 10.05), 10.05), impact: 0 }, // buy 10.08, mid 10.05
      { realized: 0, impact: 0 }, // sell at the mid 10.05
      { realized: bps(-2 * (10.02 - 10.075), 10.05), impact: bps(-2 * (10.075 - 10.05), 10.05) }, // sell 10.02, the mid rose
      { realized: 0, impact: 0 }, // buy at the mid 10.075, unchanged
      { realized: bps(2 * (10.2 - 10.1), 10.1), impact: 0 }, // buy 10.20 against 10.10
    ];
    const got = trades.select(decayColumn("RealizedBps", 60), decayColumn("PriceImpactBps", 60)).rows();
    got.forEach(([realized, impact], k) => {
      expect(realized).toBeCloseTo(want[k].realized, 9);
      expect(impact).toBeCloseTo(want[k].impact, 9);
    });
  });

  it("gives at 300 s the headline realized spread and impact (5 minutes)", () => {
    expect(trades.getColumn(decayColumn("RealizedBps", 300)).toArray()).toEqual(trades.getColumn("RealizedBps").toArray());
    expect(trades.getColumn(decayColumn("PriceImpactBps", 300)).toArray()).toEqual(trades.getColumn("PriceImpactBps").toArray());
  });

  it("refuses a horizon that is not a positive number of seconds", () => {
    expect(() => tradeSpreads(TICKS, { decaySeconds: [0] })).toThrow(QueryError);
    expect(() => tradeSpreads(TICKS, { decaySeconds: [Number.NaN] })).toThrow(/decaySeconds must be a number of seconds above 0, got NaN/);
  });
});

describe("size buckets and day totals", () => {
  it("buckets trades by dollar value, each bound opening the next bucket", () => {
    const frame = withSizeBucket(pl.DataFrame({ DollarVolume: [9_999.99, 10_000, 49_999, 50_000, 249_999, 250_000, 3e6] }));
    expect(frame.getColumn("SizeBucket").toArray()).toEqual([
      SIZE_BUCKETS[0],
      SIZE_BUCKETS[1],
      SIZE_BUCKETS[1],
      SIZE_BUCKETS[2],
      SIZE_BUCKETS[2],
      SIZE_BUCKETS[3],
      SIZE_BUCKETS[3],
    ]);
  });

  it("spreadDayTotals of the hand-built day: one group, Σ w·x of the effective spread by hand", () => {
    const totals = spreadDayTotals(TICKS, { decaySeconds: [60], bucketMinutes: 30 });
    // every measured trade is on an exchange, under $10k and in the 09:30 bucket, with the locked and
    // crossed trades (which add nothing); the opening print (1000 at 10.10: $10,100) opens a group of its own, measuring none
    expect(totals.select("Ticker", "Venue", "SizeBucket", "BucketMinute", "TradeDate", "Observations").sort("SizeBucket").rows()).toEqual([
      ["TEST", "exchange", "$10k to $50k", 570, "2023-11-21", 0],
      ["TEST", "exchange", "under $10k", 570, "2023-11-21", 5],
    ]);
    const measured = totals.filter(pl.col("SizeBucket").eq(pl.lit("under $10k")));
    const w = [10.08 * 100, 10.05 * 200, 10.02 * 100, 10.075 * 100, 10.2 * 300];
    const effective = [bps(0.06, 10.05), 0, bps(0.06, 10.05), 0, bps(0.2, 10.1)];
    expect(measured.getColumn("EffectiveBps__wx").get(0)).toBeCloseTo(effective.reduce((s, x, k) => s + x * w[k], 0), 8);
    expect(measured.getColumn("EffectiveBps__w").get(0)).toBeCloseTo(w.reduce((a, b) => a + b), 8);
  });

  describe("on a real ticker-day of the tiny market", () => {
    const connected = sandboxWorkbench();
    it("spreadDayTotals equals dayTotals of the trades' frame, group by group", async () => {
      const ticks = await connected.wb.data.eqTaq("2023-11-21", "SPY");
      const decaySeconds = [15, 300];
      const fast = spreadDayTotals(ticks, { decaySeconds });
      const trades = withTimeBucket(withSizeBucket(tradeSpreads(ticks, { decaySeconds })), 30).withColumns(
        pl.lit("SPY").alias("Ticker"),
        pl.lit("2023-11-21").alias("TradeDate"),
      );
      const slow = dayTotals(trades, { measures: spreadMeasures(decaySeconds), by: ["Ticker", "Venue", "SizeBucket", "BucketMinute"] });
      const keys = ["Venue", "SizeBucket", "BucketMinute"];
      const [a, b] = [fast.sort(keys), slow.sort(keys)];
      expect(a.height).toBe(b.height);
      expect(new Set(a.getColumn("Venue").toArray())).toEqual(new Set(["exchange", "TRF"]));
      expect(a.select(...keys, "Observations").rows()).toEqual(b.select(...keys, "Observations").rows());
      for (const c of a.columns.filter((c) => c.includes("__"))) {
        const [x, y] = [a.getColumn(c).toArray() as number[], b.getColumn(c).toArray() as number[]];
        x.forEach((v, k) => expect(Math.abs(v - y[k])).toBeLessThan(1e-6 * Math.max(1, Math.abs(y[k]))));
      }
      const curve = decayCurve(fast, decaySeconds);
      const headline = clusteredMeans(fast, { measures: ["RealizedBps"] }).getColumn("Pooled").get(0);
      expect(curve.getColumn("HorizonSeconds").toArray()).toEqual([15, 300]);
      expect(curve.getColumn("RealizedBps").get(1)).toBeCloseTo(headline, 10);
      expect(curve.getColumn("RealizedSe").toArray()).toEqual([null, null]); // one day: no standard error
    });
  });
});

/** Minute bars of 2023-11-21 (EST) at New York `HH:MM`. */
function bars(
  rows: [time: string, bid: number, ask: number, volume: number, vwap: number | null, trf: number, trfVwap: number | null][],
): pl.DataFrame {
  return pl.DataFrame({
    TradeDate: rows.map(() => new Date("2023-11-21T00:00:00Z")),
    Ticker: rows.map(() => "TEST"),
    BarDateTime: rows.map(([time]) => Date.parse(`2023-11-21T${time}:00-05:00`)),
    TimeWeightBid: rows.map((r) => r[1]),
    TimeWeightAsk: rows.map((r) => r[2]),
    Volume: rows.map((r) => r[3]),
    VolumeWeightPrice: rows.map((r) => r[4]),
    FinraVolume: rows.map((r) => r[5]),
    FinraVolumeWeightPrice: rows.map((r) => r[6]),
  }).withColumns(
    pl.col("TradeDate").cast(pl.Date),
    pl.col("BarDateTime").cast(pl.Datetime("ms", "UTC")).dt.convertTimeZone("America/New_York").cast(pl.Datetime("ns", "America/New_York")),
  );
}

describe("barImbalance on hand-built bars", () => {
  const input = bars([
    ["09:30", 10.0, 10.02, 5000, 10.01, 0, null], // the open's bar (opening auction): left out
    ["09:31", 10.0, 10.02, 100, 10.02, 300, 10.0], // VWAP (1002 + 3000) / 400 = 10.005, mid 10.01
    ["09:32", 10.0, 10.02, 0, null, 0, null], // no trade: left out
    ["09:33", 10.0, 10.0, 100, 10.0, 0, null], // locked time-weighted quote: left out
    ["09:34", 20.0, 20.04, 200, 20.04, 0, null], // all at the ask: 2·0.02/20.02
    ["16:00", 10.0, 10.02, 9000, 10.01, 0, null], // the close's bar (closing auction): left out
  ]);
  const frame = barImbalance(input);

  it("keeps continuous-trading bars with trades and computes the net trade-to-mid by hand", () => {
    expect(frame.getColumn("MinuteOfDay").toArray()).toEqual([571, 574]);
    expect(frame.getColumn("Vwap").toArray()).toEqual([4002 / 400, 20.04]);
    expect(frame.getColumn("DollarVolume").toArray()).toEqual([4002, 4008]);
    const [first, second] = frame.getColumn("NetTradeToMidBps").toArray() as number[];
    expect(first).toBeCloseTo(bps(2 * (10.005 - 10.01), 10.01), 9); // net selling: negative
    expect(second).toBeCloseTo(bps(2 * 0.02, 20.02), 9);
    expect(frame.getColumn("ImbalanceBps").toArray()).toEqual([Math.abs(first), second]);
    expect(frame.getColumn("QuotedBps").get(0)).toBeCloseTo(bps(0.02, 10.01), 9);
  });

  it("names the columns it lacks", () => {
    expect(() => barImbalance(input.drop("TimeWeightBid"))).toThrow(/barImbalance needs the minute-bar columns/);
  });
});
