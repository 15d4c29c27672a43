/**
 * The stored daily bars must follow from the stored ticks by the daily rules (market hours
 * 09:30 to the day's close plus the auction prints). The expected bars are recomputed here
 * with Polars, never with the generator's own dailyBar(). The daily rules are cheap, so every
 * ticker-day of the market is checked, not a sample.
 */
import pl from "nodejs-polars";
import { describe, expect, inject, it } from "vitest";
import { EQ_DAILY_OHLC_COLUMNS } from "../../../sandbox/market/columns/equities.ts";
import { frameMismatches } from "./support/compareFrames.ts";
import { readManifest } from "./support/market.ts";
import { dailyBarPath, loadTicks, NS_PER_MINUTE, roundHalfUp, tickersTraded } from "./support/marketFiles.ts";

const dir = inject("tinyMarketDir");
const manifest = readManifest(dir);
const OPEN_MINUTE = 9 * 60 + 30;
const IDENTITY = ["TradeDate", "Ticker"];
const FIELDS = EQ_DAILY_OHLC_COLUMNS.map((c) => c.name).filter((c) => !IDENTITY.includes(c));
const VWAPS = new Set(["MarketHoursVWAP", "DailyVWAP"]);

const tradesCache = new Map<string, pl.DataFrame>();

/** Trades of a ticker-day with their place in the day: auction print, regular hours, market hours. */
function classifiedTrades(ticker: string, date: string, closeMinute: number): pl.DataFrame {
  const key = `${ticker}@${date}`;
  if (!tradesCache.has(key)) tradesCache.set(key, loadTrades(ticker, date, closeMinute));
  return tradesCache.get(key)!;
}

// Expressions are built once (per close time): nodejs-polars makes every Expr a large object
// of closures, and building them again for each of the market's ticker-days cost more than
// Polars' own work.
const condition = pl.col("ConditionCode");
const auction = condition.eq(pl.lit("O")).or(condition.eq(pl.lit("6")));
const placesByClose = new Map<number, pl.Expr[]>();

function placesOfTrades(closeMinute: number): pl.Expr[] {
  if (!placesByClose.has(closeMinute)) {
    const regular = pl.col("nsOfDay").gtEq(OPEN_MINUTE * NS_PER_MINUTE)
      .and(pl.col("nsOfDay").lt(closeMinute * NS_PER_MINUTE)).and(auction.not());
    placesByClose.set(closeMinute, [auction.alias("auction"), regular.alias("regular"), regular.or(auction).alias("market")]);
  }
  return placesByClose.get(closeMinute)!;
}

function loadTrades(ticker: string, date: string, closeMinute: number): pl.DataFrame {
  return loadTicks(dir, { ticker, date }).filter(pl.col("isTrade")).withColumns(...placesOfTrades(closeMinute));
}

/** The daily bar's fields (all but Ticker) over a ticker-day's classified trades. */
const DAILY_BAR = (() => {
  const price = pl.col("Price"), size = pl.col("Quantity"), trf = pl.col("isTrf"), market = pl.col("market");
  const orElse = (first: pl.Expr, fallback: pl.Expr) => pl.when(first.isNull()).then(fallback).otherwise(first);
  const shares = (where: pl.Expr) => size.filter(where).sum();
  const vwap = (where: pl.Expr) =>
    pl.when(shares(where).gt(0)).then(roundHalfUp(size.mul(price).filter(where).sum().div(shares(where)), 6)).otherwise(pl.lit(null));
  const all = pl.lit(true);
  return [
    pl.col("ASID").first().alias("ASID"),
    orElse(price.filter(pl.col("ConditionCode").eq(pl.lit("O"))).first(), price.filter(pl.col("regular")).first()).alias("OpenPrice"),
    price.filter(market).max().alias("HighPrice"),
    price.filter(market).min().alias("LowPrice"),
    orElse(price.filter(pl.col("ConditionCode").eq(pl.lit("6"))).last(), price.filter(pl.col("regular")).last()).alias("ClosePrice"),
    shares(market.and(trf.not())).alias("MarketHoursVolume"),
    shares(market.and(trf)).alias("MarketHoursFinraVolume"),
    shares(trf.not()).alias("DailyVolume"),
    shares(trf).alias("DailyFinraVolume"),
    vwap(market).alias("MarketHoursVWAP"),
    vwap(all).alias("DailyVWAP"),
  ];
})();

/** The expected daily bar of a ticker-day, one row. */
function expectedDailyBar(ticker: string, date: string, closeMinute: number): pl.DataFrame {
  return classifiedTrades(ticker, date, closeMinute).sort("seq").select(pl.lit(ticker).alias("Ticker"), ...DAILY_BAR);
}

describe("daily bars recomputed from ticks", () => {
  for (const { date, closeMinute } of manifest.tradingDays) {
    const close = `${Math.floor(closeMinute / 60)}:${String(closeMinute % 60).padStart(2, "0")}`;
    it(`match every ticker on ${date} (market hours 09:30-${close}) in every field`, () => {
      const tickers = tickersTraded(dir, date);
      const expected = pl.concat(tickers.map((t) => expectedDailyBar(t, date, closeMinute)));
      const stored = pl.readParquet(dailyBarPath(dir, date));
      expect([...(stored.getColumn("TradeDate").cast(pl.Utf8).unique().toArray())]).toEqual([date]);
      expect(stored.height).toBe(tickers.length);
      const mismatches = frameMismatches(expected, stored, {
        key: "Ticker",
        columns: FIELDS,
        tolerant: VWAPS,
        // Means are rounded to 6 decimals: a mean exactly half-way between two steps rounds either
        // way with the summation order (generator in tick order, Polars in its own), one step apart.
        tolerance: 1e-6 + 1e-9,
        label: date,
      });
      expect(mismatches).toEqual([]);
    });
  }

  it("leave AAPL's trades between 13:00 and 16:00 out of market hours on the 2023-11-24 early close", () => {
    const day = manifest.tradingDays.find((d) => d.date === "2023-11-24");
    expect(day).toMatchObject({ earlyClose: true, closeMinute: 13 * 60 });
    const trades = classifiedTrades("AAPL", "2023-11-24", day!.closeMinute);
    const afterEarlyBell = trades.filter(
      pl.col("nsOfDay").gtEq(13 * 60 * NS_PER_MINUTE).and(pl.col("nsOfDay").lt(16 * 60 * NS_PER_MINUTE)),
    );
    expect(afterEarlyBell.filter(pl.col("auction").not()).height).toBeGreaterThan(0);
    expect(afterEarlyBell.filter(pl.col("market").and(pl.col("auction").not())).height).toBe(0);
  });

  it("rest on exactly one opening and one closing auction print per ticker-day", () => {
    for (const { date, closeMinute } of manifest.tradingDays) {
      for (const ticker of tickersTraded(dir, date)) {
        const auctions = classifiedTrades(ticker, date, closeMinute).filter(pl.col("auction"));
        expect(auctions.getColumn("ConditionCode").sort().toArray(), `${ticker} ${date}`).toEqual(["6", "O"]);
      }
    }
  });
});
