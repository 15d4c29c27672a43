/**
 * Reads a generated market's Parquet files the way an outside consumer would. The consistency
 * tests recompute bars from these ticks, so nothing here may call the generator's bar code.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import pl from "nodejs-polars";
import { readTicks } from "./market.ts";

/** One security on one trading day. */
export interface TickerDay {
  ticker: string;
  date: string;
}

export const FIRST_BAR_MINUTE = 4 * 60;
export const BARS_PER_DAY = 960;
export const NS_PER_MINUTE = 60_000_000_000;

/** Tickers with a tick file on a date, sorted. */
export const tickersTraded = (dir: string, date: string): string[] =>
  readdirSync(join(dir, "eq-taq", `TradeDate=${date}`)).map((f) => f.replace(/^Ticker=(.*)\.parquet$/, "$1")).sort();

export const minuteBarPath = (dir: string, aggregation: string, date: string) =>
  join(dir, "eq-taq-1min", `aggregation_logic=${aggregation}`, `TradeDate=${date}.parquet`);
export const dailyBarPath = (dir: string, date: string) => join(dir, "eq-daily-ohlc", `TradeDate=${date}.parquet`);

/**
 * New York nanoseconds of day of a zoned date-time column, read from its wall-clock fields so
 * the time zone arithmetic is Polars' own and not the generator's.
 */
export function nsOfDay(column: string): pl.Expr {
  const dt = pl.col(column).dt;
  const field = (e: pl.Expr) => e.cast(pl.Int64);
  return field(dt.hour()).mul(3600)
    .plus(field(dt.minute()).mul(60))
    .plus(field(dt.second()))
    .mul(1_000_000_000)
    .plus(field(dt.nanosecond()));
}

// Expressions are built once: nodejs-polars makes every Expr a large object of closures, so
// building the same ones again per ticker-day costs more than Polars' own work on the ticks.
const lastQuote = (side: string, column: string) =>
  pl.when(pl.col("EventType").eq(pl.lit(side))).then(pl.col(column)).otherwise(pl.lit(null)).forwardFill();
const TICK_TIMES = [nsOfDay("EventDateTime").alias("nsOfDay"), pl.col("EventDateTime").cast(pl.Int64).alias("epochNs")];
const TICK_FLAGS = [
  pl.col("nsOfDay").minus(FIRST_BAR_MINUTE * NS_PER_MINUTE).alias("sinceFirstBar"),
  pl.col("EventType").eq(pl.lit("TRADE")).alias("isTrade"),
  pl.col("EventType").eq(pl.lit("TRADE CANCEL")).alias("isCancel"),
  pl.col("EventType").eq(pl.lit("QUOTE BID")).or(pl.col("EventType").eq(pl.lit("QUOTE ASK"))).alias("isQuote"),
  pl.col("Exchange").eq(pl.lit("D")).alias("isTrf"),
  lastQuote("QUOTE BID", "Price").alias("bid"),
  lastQuote("QUOTE BID", "Quantity").alias("bidSize"),
  lastQuote("QUOTE ASK", "Price").alias("ask"),
  lastQuote("QUOTE ASK", "Quantity").alias("askSize"),
];
const TICK_BARS = [
  pl.col("sinceFirstBar").minus(pl.col("sinceFirstBar").modulo(NS_PER_MINUTE)).div(NS_PER_MINUTE).cast(pl.Int64).alias("bar"),
  pl.col("sinceFirstBar").modulo(NS_PER_MINUTE).cast(pl.Int64).alias("barNs"),
];

/**
 * The ticks of one security-day in time order, with the columns every recomputation needs:
 * `nsOfDay`, the minute bar index `bar`, nanoseconds from bar start `barNs`, event flags, and
 * the NBBO state after each row (`bid`, `bidSize`, `ask`, `askSize`: the last quote of each
 * side so far, null before the first one).
 */
export function loadTicks(dir: string, day: TickerDay): pl.DataFrame {
  return readTicks(day.date, day.ticker, dir)
    .withColumns(...TICK_TIMES)
    .sort("epochNs", false, true, true)
    .withColumns(...TICK_FLAGS)
    .withColumns(...TICK_BARS)
    .withRowIndex("seq");
}

/**
 * Rounds half up at `digits` decimals, the way `Math.round(x * 10^d) / 10^d` does, so a value
 * exactly between two steps lands where a JavaScript consumer would put it.
 */
export function roundHalfUp(e: pl.Expr, digits: number): pl.Expr {
  const f = 10 ** digits;
  return e.mul(f).plus(0.5).floor().div(f);
}
