import pl from "nodejs-polars";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readManifest, tinyMarketDir } from "../support/market.ts";
import { readRecords, type Row, secMasterByTicker } from "./support.ts";

/** Close-NBBO mid of every minute bar, keyed by `date|ticker|epoch ns of the bar`. */
function barMids(): Map<string, number> {
  const bars = pl.scanParquet(join(tinyMarketDir(), "eq-taq-1min/aggregation_logic=core/*.parquet"))
    .select(
      pl.col("TradeDate").cast(pl.Utf8),
      "Ticker",
      pl.col("BarDateTime").cast(pl.Int64).alias("ns"),
      pl.col("CloseBidPrice").add(pl.col("CloseAskPrice")).div(2).alias("mid"),
    )
    .collectSync().toRecords();
  return new Map(bars.map((b) => [`${b.TradeDate}|${b.Ticker}|${b.ns}`, b.mid as number]));
}

describe("option analytics read their underlying from the equity data", () => {
  const master = secMasterByTicker();
  const settlements = readRecords("occ-eq-spec-settl");
  const closeMinute = new Map(readManifest().tradingDays.map((d) => [d.date, d.closeMinute]));
  const roots = pl.scanParquet(join(tinyMarketDir(), "opt-greeks-daily/*.parquet"))
    .select(
      pl.col("TradeDate").cast(pl.Utf8),
      "Ticker",
      "UnderLastMidPrice",
      pl.col("UnderLastMidTime").cast(pl.Int64).alias("ns"),
      pl.col("UnderLastMidTime").dt.hour().cast(pl.Int32).mul(60).add(pl.col("UnderLastMidTime").dt.minute().cast(pl.Int32)).alias(
        "minute",
      ),
    )
    .unique().sort(["TradeDate", "Ticker"]).collectSync().toRecords() as Row[];

  it("takes UnderLastMidPrice from the underlying's close NBBO mid of the bar at UnderLastMidTime", () => {
    const mids = barMids();
    expect(roots.length).toBeGreaterThan(60);
    for (const r of roots) {
      const m = master.get(r.Ticker)!;
      const label = `${r.TradeDate} ${r.Ticker}`;
      if (m.UnderType === "index") {
        // The index level is defined as 10 SPY.
        expect(r.UnderLastMidPrice, label).toBeCloseTo(10 * mids.get(`${r.TradeDate}|SPY|${r.ns}`)!, 6);
      } else if (/\d$/.test(r.Ticker)) {
        // An adjusted root's underlying value is its deliverable per share-equivalent.
        const shares = settlements.filter((s) => s.OptionTicker === r.Ticker && s.UnderType === "stock");
        expect(shares).toHaveLength(1);
        expect(r.UnderLastMidPrice, label).toBeCloseTo(
          (shares[0].DeliverableUnits / 100) * mids.get(`${r.TradeDate}|${shares[0].UnderTicker}|${r.ns}`)!,
          6,
        );
      } else {
        expect(r.UnderLastMidPrice, label).toBeCloseTo(mids.get(`${r.TradeDate}|${m.UnderTicker}|${r.ns}`)!, 9);
      }
    }
  });

  it("reads the last regular minute, or 16:14 for equity roots whose options close at 16:15", () => {
    for (const r of roots) {
      const m = master.get(r.Ticker)!;
      const lateClose = m.MarketClose === "16:15" && m.UnderType !== "index";
      expect(r.minute, `${r.TradeDate} ${r.Ticker}`).toBe(closeMinute.get(r.TradeDate)! - 1 + (lateClose ? 15 : 0));
    }
  });
});
