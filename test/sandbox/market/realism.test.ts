import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { intradayProfile, readGeneratedBars, readSampleBars } from "../../../sandbox/market/calibration.ts";
import { SAMPLE_CSV } from "../../../bench/support/paths.ts";
import { readManifest, readTicks, tinyMarketDir } from "./support/market.ts";

const manifest = readManifest();
const fullDays = manifest.tradingDays.filter((d) => !d.earlyClose).map((d) => d.date);
const byWindow = (ticker: string) => {
  const rows = intradayProfile(readGeneratedBars(tinyMarketDir(), ticker, fullDays)).toRecords();
  return Object.fromEntries(rows.map((r) => [r.Window as string, r])) as Record<string, Record<string, number>>;
};

/** TRF share of volume in each regular-hours half hour of the real sample. */
function sampleFinraShareRange(): [number, number] {
  const shares = readSampleBars(SAMPLE_CSV)
    .filter(pl.col("MinuteOfDay").gtEq(570).and(pl.col("MinuteOfDay").lt(960)))
    .withColumns(pl.col("MinuteOfDay").sub(570).div(30).floor().alias("HalfHour"))
    .groupBy("HalfHour")
    .agg(pl.col("FinraVolume").sum().div(pl.col("FinraVolume").sum().add(pl.col("Volume").sum())).alias("Share"))
    .getColumn("Share").toArray() as number[];
  return [Math.min(...shares), Math.max(...shares)];
}

describe("the generated market looks like the real sample", () => {
  const aapl = byWindow("AAPL");

  it("trades more in the first and last half hour than at midday (the intraday U)", () => {
    for (const field of ["VolumePerMin", "TradesPerMin", "QuotesPerMin"]) {
      expect(aapl["09:30-09:59"][field]).toBeGreaterThan(2 * aapl["12:00-13:59"][field]);
      expect(aapl["15:30-15:59"][field]).toBeGreaterThan(1.8 * aapl["12:00-13:59"][field]);
    }
  });

  it("is much thinner before 09:30 and after 16:00 than at midday", () => {
    expect(aapl["pre-market"].VolumePerMin).toBeLessThan(0.15 * aapl["12:00-13:59"].VolumePerMin);
    expect(aapl["post-market"].VolumePerMin).toBeLessThan(0.5 * aapl["12:00-13:59"].VolumePerMin);
  });

  it("quotes pre- and post-market spreads several times the regular-hours spread", () => {
    const regular = aapl["12:00-13:59"].SpreadBps;
    expect(aapl["pre-market"].SpreadBps).toBeGreaterThan(3 * regular);
    expect(aapl["post-market"].SpreadBps).toBeGreaterThan(3 * regular);
    expect(regular).toBeGreaterThan(0.4);
    expect(regular).toBeLessThan(2);
  });

  it("reports an off-exchange (FINRA TRF) share of regular-hours volume within the sample's range", () => {
    const [low, high] = sampleFinraShareRange();
    for (const ticker of ["AAPL", "MSFT", "SPY"]) {
      const w = byWindow(ticker);
      for (const window of ["09:30-09:59", "12:00-13:59", "15:30-15:59"]) {
        expect(w[window].FinraShare, `${ticker} ${window}`).toBeGreaterThanOrEqual(low - 0.02);
        expect(w[window].FinraShare, `${ticker} ${window}`).toBeLessThanOrEqual(high + 0.02);
      }
    }
  });

  it("makes less liquid names visibly thinner and wider than liquid ones", () => {
    const preferred = byWindow("JPM.PRC");
    expect(preferred["12:00-13:59"].SpreadBps).toBeGreaterThan(3 * aapl["12:00-13:59"].SpreadBps);
    expect(preferred["12:00-13:59"].VolumePerMin).toBeLessThan(aapl["12:00-13:59"].VolumePerMin / 100);
  });

  it("puts 5 to 12 percent of a day's volume into the closing auction", () => {
    for (const date of fullDays) {
      const t = readTicks(date, "AAPL").filter(pl.col("EventType").eq(pl.lit("TRADE")));
      const total = t.getColumn("Quantity").sum();
      const auction = t.filter(pl.col("ConditionCode").eq(pl.lit("6"))).getColumn("Quantity").sum();
      expect(auction / total, date).toBeGreaterThan(0.05);
      expect(auction / total, date).toBeLessThan(0.12);
    }
  });
});

describe("the real sample", () => {
  it("when missing, is named in the error with where it comes from", () => {
    expect(() => readSampleBars("/no/such/folder/sample.csv")).toThrow(
      /The real sample \/no\/such\/folder\/sample\.csv is not there: .*\.\.\/shared\/data/,
    );
  });
});
