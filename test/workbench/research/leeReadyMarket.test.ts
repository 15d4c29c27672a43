/**
 * Lee-Ready signing and the spread measures on one ticker-day of the tiny market (ticks and
 * minute bars), fetched from the sandbox's app in-process (the hand-built fixture whose signs
 * are worked out by hand: leeReady.test.ts).
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { barSpreads, signTrades, spreadsByTimeOfDay, tradeSpreads, weightedSpreads } from "../../../workbench/mod.ts";
import { sandboxWorkbench } from "./support/sandboxWorkbench.ts";

describe("one ticker-day of the tiny market", () => {
  const connected = sandboxWorkbench();

  it("AAPL on 2023-11-21: signed trades, positive spreads, effective = realized + impact, bars set against ticks", async () => {
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
    const gap = measured.select(pl.col("Effective").sub(pl.col("Realized")).sub(pl.col("PriceImpact")).abs().max()).getColumn("Effective").get(0);
    expect(gap).toBeLessThan(1e-9);
    const tick = weightedSpreads(trades).toRecords()[0] as Record<string, number>;
    expect(tick.EffectiveBps).toBeGreaterThan(0);
    expect(tick.EffectiveBps).toBeLessThan(50);
    const bars = await connected.wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-11-21" } });
    const bar = weightedSpreads(barSpreads(bars)).toRecords()[0] as Record<string, number>;
    expect(bar.Count).toBeGreaterThan(300);
    expect(bar.EffectiveBps).toBeGreaterThan(0);
    // netting buys against sells inside a minute can only shrink |P - M|
    expect(bar.EffectiveBps).toBeLessThan(tick.EffectiveBps);
    expect(spreadsByTimeOfDay(trades).height).toBe(13);
  });
});
