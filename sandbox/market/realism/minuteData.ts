/**
 * Minute bars and daily bars as plain arrays, one security-day at a time, read the same way
 * from a generated market and from the real vendor sample (shared/data), so every stylized
 * fact of realism/ is computed by one code path for both.
 */
import pl from "nodejs-polars";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Manifest } from "../manifest.ts";

/** Bar fields the facts need, one value per minute from 04:00 (index 0) to 19:59 (index 959). */
const MINUTE_FIELDS = [
  "CloseBidPrice",
  "CloseAskPrice",
  "Volume",
  "FinraVolume",
  "TotalTrades",
  "NBBOQuoteCount",
  "MinSpread",
  "LastTradePrice",
  "FirstTradeSize",
  "LastTradeSize",
  "HighTradeSize",
  "LowTradeSize",
] as const;
export type MinuteField = (typeof MINUTE_FIELDS)[number];

/** One security-day of minute bars. */
export interface BarDay {
  ticker: string;
  date: string;
  /** Minute of day (after midnight) of the regular close: 960, or 780 on an early close. */
  closeMinute: number;
  fields: Record<MinuteField, Float64Array>;
}

/** Daily bar values of one security-day. */
export interface DailyRow {
  ticker: string;
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export const FIRST_MINUTE = 240;
export const OPEN_MINUTE = 570;

function toBarDays(df: pl.DataFrame, closeOf: (date: string) => number): BarDay[] {
  const tickers = df.getColumn("Ticker").toArray() as string[];
  const dates = df.getColumn("Date").toArray() as string[];
  const minutes = df.getColumn("MinuteOfDay").toArray() as number[];
  const columns = Object.fromEntries(MINUTE_FIELDS.map((f) => [f, df.getColumn(f).toArray() as (number | null)[]]));
  const byKey = new Map<string, BarDay>();
  for (let i = 0; i < tickers.length; i++) {
    const key = `${tickers[i]}|${dates[i]}`;
    let day = byKey.get(key);
    if (!day) {
      const fields = Object.fromEntries(MINUTE_FIELDS.map((f) => [f, new Float64Array(960).fill(NaN)])) as BarDay["fields"];
      day = { ticker: tickers[i], date: dates[i], closeMinute: closeOf(dates[i]), fields };
      byKey.set(key, day);
    }
    const m = minutes[i] - FIRST_MINUTE;
    for (const f of MINUTE_FIELDS) day.fields[f][m] = columns[f][i] ?? NaN;
  }
  return [...byKey.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.ticker < b.ticker ? -1 : 1));
}

/** The real sample's bars (one AAPL day, 16:00 close). */
export function sampleBarDays(csvPath: string): BarDay[] {
  const raw = pl.readCSV(csvPath, { inferSchemaLength: 0 });
  const df = raw.select(
    pl.col("Ticker"),
    pl.col("Date").alias("Date"),
    pl.col("TimeBarStart").str.slice(0, 2).cast(pl.Int32).mul(60).add(pl.col("TimeBarStart").str.slice(3, 2).cast(pl.Int32)).alias(
      "MinuteOfDay",
    ),
    ...MINUTE_FIELDS.map((c) => pl.col(c).cast(pl.Float64)),
  );
  return toBarDays(df, () => 960);
}

/** A generated market's core minute bars for these tickers, every day. */
export function marketBarDays(marketDir: string, tickers: readonly string[]): BarDay[] {
  const manifest = readMarketManifest(marketDir);
  const close = new Map(manifest.tradingDays.map((d) => [d.date, d.closeMinute]));
  const df = pl.scanParquet(join(marketDir, "eq-taq-1min/aggregation_logic=core/*.parquet"))
    .filter(pl.col("Ticker").isIn(tickers as string[]))
    .select(
      pl.col("Ticker"),
      pl.col("TradeDate").cast(pl.Utf8).alias("Date"),
      pl.col("BarDateTime").dt.hour().cast(pl.Int32).mul(60).add(pl.col("BarDateTime").dt.minute().cast(pl.Int32)).alias("MinuteOfDay"),
      ...MINUTE_FIELDS.map((c) => pl.col(c).cast(pl.Float64)),
    )
    .collectSync();
  return toBarDays(df, (date) => close.get(date) ?? 960);
}

/** Every daily bar of a generated market. */
export function marketDailyRows(marketDir: string): DailyRow[] {
  const df = pl.scanParquet(join(marketDir, "eq-daily-ohlc/*.parquet")).collectSync();
  const get = (c: string) => df.getColumn(c).toArray() as number[];
  const dates = df.getColumn("TradeDate").cast(pl.Utf8).toArray() as string[];
  const tickers = df.getColumn("Ticker").toArray() as string[];
  const [open, high, low, close, v, f] = ["OpenPrice", "HighPrice", "LowPrice", "ClosePrice", "DailyVolume", "DailyFinraVolume"].map(get);
  return tickers.map((ticker, i) => ({
    ticker,
    date: dates[i],
    open: open[i],
    high: high[i],
    low: low[i],
    close: close[i],
    volume: v[i] + f[i],
  }))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** The manifest of a generated market. */
export function readMarketManifest(marketDir: string): Manifest {
  return JSON.parse(readFileSync(join(marketDir, "manifest.json"), "utf8"));
}

/** Mid-quote log returns of the regular-hours minutes (first: 09:29 close to 09:30 close), NaN where a quote is missing. */
export function regularReturns(day: BarDay): Float64Array {
  const { CloseBidPrice: bid, CloseAskPrice: ask } = day.fields;
  const from = OPEN_MINUTE - FIRST_MINUTE, to = day.closeMinute - FIRST_MINUTE;
  const out = new Float64Array(to - from);
  for (let m = from; m < to; m++) {
    const a = (bid[m - 1] + ask[m - 1]) / 2, b = (bid[m] + ask[m]) / 2;
    out[m - from] = a > 0 && b > 0 ? Math.log(b / a) : NaN;
  }
  return out;
}

/** A regular-hours slice of a bar field. */
export function regularField(day: BarDay, field: MinuteField): Float64Array {
  return day.fields[field].slice(OPEN_MINUTE - FIRST_MINUTE, day.closeMinute - FIRST_MINUTE);
}
