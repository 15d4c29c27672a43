/**
 * Lee-Ready signing and the spread measures on a hand-built tick fixture whose signs and
 * spreads are worked out by hand in the comments, plus a real-HTTP smoke on one ticker-day
 * of the tiny market (ticks and minute bars). The same day is signed under Deno too, whose
 * Node-API gives Polars 0 for a null where Node gives null.
 */
import { execFileSync } from "node:child_process";
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { barImbalance, QueryError, signTrades, spreadsByTimeOfDay, tradeSpreads, weightedSpreads } from "../../../workbench/mod.ts";
import { sandboxWorkbench } from "./support/sandboxWorkbench.ts";
import { TICKS } from "./support/tickFixture.ts";
import { denoPath } from "../../../scripts/paths.mjs";
import process from "node:process";

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

  it("leaves Sign null, not 0, for the trades with no quote, at a locked and at a crossed book, under Deno as under Node", () => {
    const deno = denoPath();
    const out = execFileSync(deno, ["run", "-A", "test/workbench/research/support/denoSign.ts"], {
      env: { ...process.env, NO_COLOR: "1" },
      encoding: "utf8",
    });
    const report = JSON.parse(out.trim().split("\n").at(-1)!);
    expect(report.runtime).toMatch(/^deno /);
    const node = signTrades(TICKS);
    for (const name of ["Bid", "Ask", "Mid", "Sign", "SignedBy", "Excluded"]) {
      const column = node.getColumn(name);
      expect(report.columns[name], name).toEqual({ dtype: String(column.dtype), nulls: column.nullCount(), values: column.toArray() });
    }
    expect(report.columns.Sign).toEqual({ dtype: "DataType(Int8)", nulls: 3, values: [null, 1, 1, -1, -1, 1, null, null, 1, -1] });
  });

  it("computes effective and realized spreads (+5 minutes) and price impact per regular-hours trade", () => {
    const t = tradeSpreads(TICKS);
    expect(t.getColumn("Price").toArray()).toEqual([10.1, 10.08, 10.05, 10.02, 10.075, 10.05, 10.05, 10.2]);
    expect(t.getColumn("Excluded").toArray()).toEqual(["auction", null, null, null, null, "locked", "crossed", null]);
    expect(t.getColumn("Venue").toArray()).toEqual(new Array(8).fill("exchange"));
    // the quoted spread at each measured trade, bps of its mid: 0.10/10.05 three times, 0.05/10.075, 0.20/10.10
    expect(t.filter(pl.col("Excluded").isNull()).getColumn("QuotedBps").toArray().map((v) => Number((v as number).toFixed(6))))
      .toEqual([0.1 / 10.05, 0.1 / 10.05, 0.1 / 10.05, 0.05 / 10.075, 0.2 / 10.1].map((v) => Number((v * 1e4).toFixed(6))));
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
    const got = measured.select("Effective", "Realized", "PriceImpact").toRecords() as {
      Effective: number;
      Realized: number;
      PriceImpact: number;
    }[];
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

describe("one ticker-day of the tiny market over HTTP", () => {
  const connected = sandboxWorkbench();

  it("AAPL on 2023-11-21: signed trades, positive spreads, effective = realized + impact, the bars' imbalance beside the ticks' effective spread", async () => {
    const ticks = await connected.wb.data.eqTaq("2023-11-21", "AAPL");
    const signed = signTrades(ticks);
    const byQuote = signed.filter(pl.col("SignedBy").eq(pl.lit("quote"))).height;
    expect(byQuote / signed.height).toBeGreaterThan(0.5);
    const trades = tradeSpreads(ticks);
    const minutes = trades.getColumn("MinuteOfDay").toArray() as number[];
    expect(Math.min(...minutes)).toBeGreaterThanOrEqual(570);
    expect(Math.max(...minutes)).toBeLessThan(960);
    const measured = trades.filter(pl.col("Excluded").isNull());
    expect(measured.height).toBeGreaterThan(100);
    const gap = measured.select(pl.col("Effective").sub(pl.col("Realized")).sub(pl.col("PriceImpact")).abs().max()).getColumn("Effective")
      .get(0);
    expect(gap).toBeLessThan(1e-9);
    const tick = weightedSpreads(trades).toRecords()[0] as Record<string, number>;
    expect(tick.EffectiveBps).toBeGreaterThan(0);
    expect(tick.EffectiveBps).toBeLessThan(50);
    const bars = barImbalance(await connected.wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-11-21" } }));
    const bar = bars.select(
      pl.len().alias("Count"),
      pl.col("ImbalanceBps").mul(pl.col("DollarVolume")).sum().div(pl.col("DollarVolume").sum()).alias("ImbalanceBps"),
    ).toRecords()[0] as Record<string, number>;
    expect(bar.Count).toBeGreaterThan(300);
    expect(bar.ImbalanceBps).toBeGreaterThan(0);
    // an approximation of another kind (the minute's net flow against its time-weighted mid): same order of size, not the same figure
    expect(bar.ImbalanceBps).toBeLessThan(10 * tick.EffectiveBps);
    expect(Math.abs(bar.ImbalanceBps - tick.EffectiveBps)).toBeGreaterThan(1e-6);
    expect(spreadsByTimeOfDay(trades).height).toBe(13);
  });
});
