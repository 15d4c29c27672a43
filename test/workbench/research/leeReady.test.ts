/**
 * Lee-Ready signing and the spread measures on a hand-built tick fixture whose signs and
 * spreads are worked out by hand in the comments (one ticker-day of the tiny market:
 * leeReadyMarket.test.ts).
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { QueryError, signTrades, spreadsByTimeOfDay, tradeSpreads, weightedSpreads } from "../../../workbench/mod.ts";

type Event = [time: string, type: string, price: number, quantity: number, exchange?: string, condition?: string];

/** 2023-11-21 (EST, UTC-5): New York `HH:MM:SS.mmm` to a tick row. */
function fixture(events: Event[]): pl.DataFrame {
  const ms = events.map(([time]) => Date.parse(`2023-11-21T${time}-05:00`));
  return pl.DataFrame([
    pl.Series("TradeDate", events.map(() => new Date("2023-11-21T00:00:00Z")), pl.Date),
    pl.Series("EventDateTime", ms, pl.Int64),
    pl.Series("EventType", events.map((e) => e[1]), pl.String),
    pl.Series("Ticker", events.map(() => "TEST"), pl.String),
    pl.Series("ASID", events.map(() => 1), pl.Int64),
    pl.Series("Price", events.map((e) => e[2]), pl.Float64),
    pl.Series("Quantity", events.map((e) => e[3]), pl.Int64),
    pl.Series("Exchange", events.map((e) => e[4] ?? "Q"), pl.String),
    pl.Series("ConditionCode", events.map((e) => e[5] ?? (e[1].startsWith("QUOTE") ? "R" : "@")), pl.String),
  ]).withColumns(pl.col("EventDateTime").cast(pl.Datetime("ms", "UTC")).dt.convertTimeZone("America/New_York").cast(pl.Datetime("ns", "America/New_York")));
}

const TICKS = fixture([
  ["08:00:00.000", "TRADE", 9.9, 100, "Q", "T"], // pre-market, no quote yet: unsigned, outside regular hours
  ["09:29:00.000", "QUOTE BID", 10.0, 500],
  ["09:29:00.100", "QUOTE ASK", 10.1, 500], // mid 10.05
  ["09:30:00.000", "TRADE", 10.1, 1000, "Q", "O"], // opening auction print: left out
  ["09:31:00.000", "TRADE", 10.08, 100], // above mid: buy by the quote rule; eff 2(10.08-10.05)=0.06
  ["09:32:00.000", "TRADE", 10.05, 200], // at mid, last different price 10.08 higher: sell by tick; eff 0
  ["09:33:00.000", "TRADE", 10.02, 100], // below mid: sell by quote; eff 0.06
  ["09:34:00.000", "QUOTE BID", 10.05, 300], // mid 10.075
  ["09:34:30.000", "TRADE", 10.075, 100], // at mid, last different 10.02 lower: buy by tick; eff 0
  ["09:35:00.000", "QUOTE ASK", 10.05, 300], // locked 10.05/10.05
  ["09:35:30.000", "TRADE", 10.05, 100], // locked: left out
  ["09:36:00.000", "QUOTE BID", 10.06, 300], // crossed 10.06/10.05
  ["09:36:30.000", "TRADE", 10.05, 100], // crossed: left out
  ["09:37:00.000", "QUOTE BID", 10.0, 300], // mid 10.025
  ["09:37:00.100", "QUOTE ASK", 10.2, 300], // mid 10.10
  ["09:38:00.000", "TRADE", 10.2, 300], // buy by quote; eff 2(10.20-10.10)=0.20
  ["09:38:10.000", "TRADE", 10.2, 50, "Z", "@"], // cancelled below
  ["09:38:20.000", "TRADE CANCEL", 10.2, 50, "Z", "@"],
  ["16:00:00.000", "TRADE", 10.1, 5000, "Q", "6"], // closing print at 16:00: after regular hours
]);

describe("Lee-Ready on a hand-built day", () => {
  it("signs each trade by the quote rule or the tick test and marks locked and crossed quotes", () => {
    const s = signTrades(TICKS);
    expect(s.getColumn("Price").toArray()).toEqual([9.9, 10.1, 10.08, 10.05, 10.02, 10.075, 10.05, 10.05, 10.2, 10.1]); // the cancelled trade is gone
    expect(s.getColumn("Sign").toArray()).toEqual([null, 1, 1, -1, -1, 1, null, null, 1, -1]);
    expect(s.getColumn("SignedBy").toArray()).toEqual([null, "quote", "quote", "tick", "quote", "tick", null, null, "quote", "tick"]);
    expect(s.getColumn("Excluded").toArray()).toEqual(["no quote", null, null, null, null, null, "locked", "crossed", null, null]);
    // the closing print at 10.10 meets the 10.00/10.20 book: at the mid, last different price 10.20 higher: -1
    expect(s.getColumn("Mid").toArray().at(-1)).toBeCloseTo(10.1, 12);
  });

  it("computes effective and realized spreads (+5 minutes) and price impact per regular-hours trade", () => {
    const t = tradeSpreads(TICKS);
    expect(t.getColumn("Price").toArray()).toEqual([10.1, 10.08, 10.05, 10.02, 10.075, 10.05, 10.05, 10.2]);
    expect(t.getColumn("Excluded").toArray()).toEqual(["auction", null, null, null, null, "locked", "crossed", null]);
    const measured = t.filter(pl.col("Excluded").isNull());
    // mids 5 minutes later: 09:36:00 -> 10.075 (locked/crossed books skipped), 09:37:00 -> 10.025,
    // 09:38:00 -> 10.10, 09:39:30 -> 10.10, 09:43:00 -> 10.10
    const want = [
      { eff: 0.06, real: 2 * (10.08 - 10.075), impact: 2 * (10.075 - 10.05) },
      { eff: 0, real: -2 * (10.05 - 10.025), impact: -2 * (10.025 - 10.05) },
      { eff: 0.06, real: -2 * (10.02 - 10.1), impact: -2 * (10.1 - 10.05) },
      { eff: 0, real: 2 * (10.075 - 10.1), impact: 2 * (10.1 - 10.075) },
      { eff: 0.2, real: 0.2, impact: 0 },
    ];
    const got = measured.select("Effective", "Realized", "PriceImpact").toRecords() as { Effective: number; Realized: number; PriceImpact: number }[];
    got.forEach((g, k) => {
      expect(g.Effective).toBeCloseTo(want[k].eff, 10);
      expect(g.Realized).toBeCloseTo(want[k].real, 10);
      expect(g.PriceImpact).toBeCloseTo(want[k].impact, 10);
    });
    expect(measured.getColumn("EffectiveBps").toArray()[0]).toBeCloseTo((0.06 / 10.05) * 1e4, 8);
    // dollar-volume weights
    const w = [10.08 * 100, 10.05 * 200, 10.02 * 100, 10.075 * 100, 10.2 * 300];
    const mean = (xs: number[]) => xs.reduce((s, x, k) => s + x * w[k], 0) / w.reduce((a, b) => a + b);
    const all = weightedSpreads(t).toRecords()[0] as Record<string, number>;
    expect(all.Count).toBe(5);
    expect(all.Effective).toBeCloseTo(mean(want.map((x) => x.eff)), 10);
    expect(all.Realized).toBeCloseTo(mean(want.map((x) => x.real)), 10);
    expect(all.PriceImpact).toBeCloseTo(mean(want.map((x) => x.impact)), 10);
    const buckets = spreadsByTimeOfDay(t, 5).toRecords() as Record<string, unknown>[];
    expect(buckets.map((b) => [b.Bucket, b.Count])).toEqual([["09:30", 4], ["09:35", 1]]);
  });

  it("refuses a frame of two days or without prices, naming what is wrong", () => {
    expect(() => signTrades(TICKS.drop("Price"))).toThrow(/lacks Price/);
    const twoDays = pl.concat([TICKS, TICKS.withColumns(pl.lit(new Date("2023-11-22T00:00:00Z")).cast(pl.Date).alias("TradeDate"))]);
    expect(() => tradeSpreads(twoDays)).toThrow(QueryError);
    expect(() => tradeSpreads(twoDays)).toThrow(/one ticker on one day.*2 day\(s\)/);
  });
});
