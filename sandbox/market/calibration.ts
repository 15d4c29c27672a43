/**
 * Measures the intraday profile of 1-minute bars by window (pre-market, first half hour,
 * midday, last half hour, post-market), the same way for the generated market and for the
 * real vendor sample in shared/data, so the two can be set side by side.
 */
import pl from "nodejs-polars";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** Windows in minutes after New York midnight, for a day closing at 16:00. */
const WINDOWS = [
  { window: "pre-market", from: 240, to: 570 },
  { window: "09:30-09:59", from: 570, to: 600 },
  { window: "12:00-13:59", from: 720, to: 840 },
  { window: "15:30-15:59", from: 930, to: 960 },
  { window: "post-market", from: 960, to: 1200 },
] as const;

const PROFILE_COLUMNS = ["Volume", "FinraVolume", "TotalTrades", "NBBOQuoteCount", "TimeWeightBid", "TimeWeightAsk"];

/**
 * Per window: mean volume (exchange + TRF), trades and quotes per minute, mean time-weighted
 * spread in bps, and the TRF share of volume. `bars` needs a `MinuteOfDay` column and the
 * API's bar columns; `eventsPerPrint` scales trade and quote counts back to real prints.
 */
export function intradayProfile(bars: pl.DataFrame, eventsPerPrint = 1): pl.DataFrame {
  // pl.when(...).then(...) chained once per window; the chain's types differ by position, so one shape stands for all.
  type Chain = { when: (e: pl.Expr) => { then: (e: pl.Expr) => Chain }; otherwise: (e: pl.Expr) => pl.Expr };
  const window = WINDOWS.reduce<Chain>(
    (expr, w) => expr.when(pl.col("MinuteOfDay").gtEq(w.from).and(pl.col("MinuteOfDay").lt(w.to))).then(pl.lit(w.window)),
    pl as unknown as Chain,
  );
  const order = WINDOWS.map((w) => w.window);
  return bars
    .withColumns(
      window.otherwise(pl.lit(null)).alias("Window"),
      pl.col("Volume").add(pl.col("FinraVolume")).alias("TotalVolume"),
      pl.col("TimeWeightAsk").sub(pl.col("TimeWeightBid"))
        .div(pl.col("TimeWeightAsk").add(pl.col("TimeWeightBid")).div(2)).mul(1e4).alias("SpreadBps"),
    )
    .filter(pl.col("Window").isNotNull())
    .groupBy("Window")
    .agg(
      pl.col("TotalVolume").mean().alias("VolumePerMin"),
      pl.col("TotalTrades").mean().mul(eventsPerPrint).alias("TradesPerMin"),
      pl.col("NBBOQuoteCount").mean().mul(eventsPerPrint).alias("QuotesPerMin"),
      pl.col("SpreadBps").mean().alias("SpreadBps"),
      pl.col("FinraVolume").sum().cast(pl.Float64).div(pl.col("TotalVolume").sum().cast(pl.Float64)).alias("FinraShare"),
    )
    .join(pl.DataFrame({ Window: order, Order: order.map((_, i) => i) }), { on: "Window" })
    .sort("Order")
    .drop("Order");
}

/** The real sample's bars with the API's column names and a MinuteOfDay column. */
export function readSampleBars(csvPath: string): pl.DataFrame {
  // Polars' own message says only "No such file or directory", not which file.
  if (!existsSync(csvPath)) {
    throw new Error(`The real sample ${csvPath} is not there: it comes with the shared folder beside the repository (../shared/data)`);
  }
  const raw = pl.readCSV(csvPath, { inferSchemaLength: 0 });
  return raw.select(
    pl.col("TimeBarStart").str.slice(0, 2).cast(pl.Int32).mul(60)
      .add(pl.col("TimeBarStart").str.slice(3, 2).cast(pl.Int32)).alias("MinuteOfDay"),
    ...PROFILE_COLUMNS.map((c) => pl.col(c).cast(pl.Float64)),
  );
}

/** A generated market's core bars of one ticker on full (16:00 close) days, with MinuteOfDay. */
export function readGeneratedBars(marketDir: string, ticker: string, fullDays: readonly string[]): pl.DataFrame {
  return pl.scanParquet(join(marketDir, "eq-taq-1min/aggregation_logic=core/*.parquet"))
    .filter(pl.col("Ticker").eq(pl.lit(ticker)))
    .collectSync()
    .filter(pl.col("TradeDate").cast(pl.Utf8).isIn(fullDays as string[]))
    .select(
      pl.col("BarDateTime").dt.hour().cast(pl.Int32).mul(60).add(pl.col("BarDateTime").dt.minute().cast(pl.Int32)).alias("MinuteOfDay"),
      ...PROFILE_COLUMNS.map((c) => pl.col(c).cast(pl.Float64)),
    );
}
