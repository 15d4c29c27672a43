import pl from "nodejs-polars";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readDailyBars, readManifest, readTicks, tinyMarketDir } from "./support/market.ts";

describe("the generated market follows the NYSE calendar", () => {
  const manifest = readManifest();

  it("holds exactly the trading days of the range, with no trading on Thanksgiving", () => {
    expect(manifest.tradingDays.map((d) => d.date)).toEqual([
      "2023-11-20",
      "2023-11-21",
      "2023-11-22",
      "2023-11-24",
      "2023-11-27",
      "2023-11-28",
    ]);
    expect(existsSync(join(tinyMarketDir(), "eq-taq/TradeDate=2023-11-23"))).toBe(false);
    const dates = readDailyBars().getColumn("TradeDate").cast(pl.Utf8).unique().toArray();
    expect(dates).not.toContain("2023-11-23");
  });

  it("shows the early close of 2023-11-24: the closing auction prints at 13:00, not 16:00", () => {
    const closes = readTicks("2023-11-24", "AAPL")
      .filter(pl.col("ConditionCode").eq(pl.lit("6")))
      .select(pl.col("EventDateTime").dt.hour().alias("h"), pl.col("EventDateTime").dt.minute().alias("m"));
    expect(closes.toRecords()).toEqual([{ h: 13, m: 0 }]);
    const regular = readTicks("2023-11-21", "AAPL").filter(pl.col("ConditionCode").eq(pl.lit("6")));
    expect(regular.getColumn("EventDateTime").dt.hour().toArray()).toEqual([16]);
  });

  it("records the early close in the manifest's trading days", () => {
    const early = manifest.tradingDays.filter((d) => d.earlyClose);
    expect(early).toMatchObject([{ date: "2023-11-24", earlyClose: true, closeMinute: 780, postCloseMinute: 1020 }]);
  });
});
