import { describe, expect, it } from "vitest";
import {
  absReturnAutocorrelation,
  barTradeSizeShape,
  lastTradeMinute,
  lockedMinuteShare,
  minuteKurtosis,
  minuteVolumeSmoothness,
  oneTickMinuteShare,
} from "../../../sandbox/market/realism/equityFacts.ts";
import { relativeVolume, subPennyExtremes } from "../../../sandbox/market/realism/marketFacts.ts";
import { signTrades } from "../../../workbench/research/leeReady.ts";
import pl from "nodejs-polars";
import { marketBarDays, marketDailyRows } from "../../../sandbox/market/realism/minuteData.ts";
import { readManifest, readTicks, tinyMarketDir } from "./support/market.ts";

// The stylized facts that tiny's six days can show (bench/realism.ts measures all of them on demo).
describe("the tiny market has the stylized facts of a real one", () => {
  const manifest = readManifest();
  const liquid = ["AAPL", "MSFT", "SPY"];
  const busy = [...liquid, "JPM", "CVX"];
  const bars = marketBarDays(tinyMarketDir(), busy);
  const of = (t: string) => bars.filter((d) => d.ticker === t);

  it("keeps liquid names at one tick most of regular hours", () => {
    for (const t of ["AAPL", "SPY"]) expect(oneTickMinuteShare(of(t)), t).toBeGreaterThan(0.9);
  });

  it("locks or crosses the market only rarely (no locks between the two updates of a two-sided move)", () => {
    for (const t of liquid) expect(lockedMinuteShare(of(t)), t).toBeLessThan(0.03);
  });

  it("prints trade sizes shaped like the real sample: mostly odd lots, many exactly 100, median tens of shares", () => {
    const s = barTradeSizeShape(of("AAPL"));
    expect(s.oddLot).toBeGreaterThan(0.5);
    expect(s.oddLot).toBeLessThan(0.75);
    expect(s.exactly100).toBeGreaterThan(0.12);
    expect(s.exactly100).toBeLessThan(0.26);
    expect(s.median).toBeGreaterThan(20);
    expect(s.median).toBeLessThan(100);
  });

  it("gives every regular-hours minute of a busy name its own volume: no empty minutes, no volume piled into rare giant prints", () => {
    // The real sample: median minute 0.85 of the mean from 10:00 to 15:00, no empty minute.
    for (const t of busy) {
      const s = minuteVolumeSmoothness(of(t));
      expect(s.medianOverMean, t).toBeGreaterThan(0.5);
      expect(s.zeroShare, t).toBeLessThanOrEqual(0.01);
    }
  });

  it("prints off-exchange trades inside the spread often (midpoint, sub-penny improvement), yet keeps daily highs and lows on whole cents", () => {
    for (const t of liquid) {
      const trf = pl.concat(manifest.tradingDays.map((d) => signTrades(readTicks(d.date, t))))
        .filter(pl.col("Exchange").eq(pl.lit("D")).and(pl.col("Excluded").isNull()));
      const inside = trf.filter(pl.col("Price").gt(pl.col("Bid")).and(pl.col("Price").lt(pl.col("Ask")))).height / trf.height;
      expect(inside, t).toBeGreaterThan(0.3);
      expect(inside, t).toBeLessThan(0.6);
    }
    const sub = subPennyExtremes(marketDailyRows(tinyMarketDir()), liquid);
    expect(sub.bars).toBeGreaterThan(15);
    expect(sub.subPenny).toBeLessThanOrEqual(0.1 * sub.bars);
  });

  it("has fat-tailed 1-minute returns and clustered volatility", () => {
    for (const t of liquid) {
      expect(minuteKurtosis(of(t)), t).toBeGreaterThan(3);
      // Clustering beyond the intraday U: with the time-of-day pattern divided out, after 10:00.
      expect(absReturnAutocorrelation(of(t), { deseason: true, fromMinute: 600 }), t).toBeGreaterThan(0.1);
    }
  });

  it("makes the early close quiet, with extended hours ending at 17:00", () => {
    const early = manifest.tradingDays.filter((d) => d.earlyClose).map((d) => d.date);
    expect(early).toEqual(["2023-11-24"]);
    const ratio = relativeVolume(marketDailyRows(tinyMarketDir()), liquid, early, early);
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(0.75);
    for (const d of bars.filter((x) => liquid.includes(x.ticker) && early.includes(x.date))) {
      expect(lastTradeMinute(d), d.ticker).toBeLessThanOrEqual(17 * 60);
    }
  });
});
