/**
 * One trading day of the equity datasets: every trading security's ticks (`eq-taq`), the
 * day's minute bars in both aggregations (`eq-taq-1min`) and daily bars (`eq-daily-ohlc`),
 * written as Parquet under the market's work folder. A day depends only on its input (the
 * seed, the day and each security's price path), never on another day, so days can be written
 * in any order and on any thread (dayWorker.ts) with the same bytes. What the option market
 * needs next (each underlying's close NBBO) and what the manifest counts come back.
 */
import { join } from "node:path";
import type { TradingDay } from "../../calendar/calendar.ts";
import { AGGREGATIONS, type BarColumns, minuteBars } from "./bars/minuteBars.ts";
import { type DailyBar, dailyBar } from "./bars/dailyBar.ts";
import { datasetByTextId, partitionPath } from "./catalog.ts";
import { dailyBarFrame, minuteBarFrame, type SecurityDay, tickFrame } from "./dayFrames.ts";
import { type RowGroupLayout, writeParquetFile } from "./frames.ts";
import type { Security } from "./securities.ts";
import { generateDayTicks } from "./ticks/generateDay.ts";
import { MINUTES_PER_DAY } from "./ticks/intraday.ts";
import type { DayPath } from "./ticks/pricePath.ts";

/** A security trading on the day, under the ticker it has that day, with its price path. */
interface TradingSecurity {
  security: Security;
  id: SecurityDay;
  path: DayPath;
}

/** Everything one equity day is made from (plain data: it crosses to a worker by structured clone). */
export interface EquityDayInput {
  seed: number;
  eventScale: number;
  day: TradingDay;
  /** The market's work folder the day's files are written under. */
  work: string;
  /** In ticker order: the order of the day's bar rows. */
  trading: TradingSecurity[];
}

/** An underlying's close NBBO after each minute bar (the option market reads its mids). */
interface CloseQuote {
  asid: number;
  bid: Float64Array;
  ask: Float64Array;
}

/** What one equity day wrote and what the option market needs from it. */
export interface EquityDayResult {
  /** One entry per file written, in writing order: the dataset (or dataset:variant) and its rows. */
  files: [textId: string, rows: number][];
  closeQuotes: CloseQuote[];
  /** Tick events of the day over every security. */
  ticks: number;
}

const [minute, daily, taq] = ["eq-taq-1min", "eq-daily-ohlc", "eq-taq"].map(datasetByTextId);

/**
 * A day file of minute bars holds each ticker's bars as MINUTES_PER_DAY rows in a run: one row
 * group each (the catalog's rowGroupColumn), as every query reads one ticker's. lz4 rather than
 * zstd: decompressing is most of the cost of reading groups this small, and lz4 decompresses
 * faster, for somewhat larger files.
 */
const MINUTE_FILE_LAYOUT: RowGroupLayout = { rowGroupRows: MINUTES_PER_DAY, compression: "lz4" };

/**
 * Writes the equity files of one day and returns their counts and the close quotes.
 *
 * @example
 * ```ts
 * const result = writeEquityDay({ seed: 42, eventScale: 1, day, work: "data/demo.partial", trading });
 * result.closeQuotes[0].bid[329]; // the first security's bid after the 09:29 bar
 * ```
 */
export function writeEquityDay({ seed, eventScale, day, work, trading }: EquityDayInput): EquityDayResult {
  const files: EquityDayResult["files"] = [];
  const ids: SecurityDay[] = [];
  const barsByAggregation: BarColumns[][] = AGGREGATIONS.map(() => []);
  const dailyBars: DailyBar[] = [];
  let tickCount = 0;
  for (const { security, id, path } of trading) {
    const ticks = generateDayTicks({ seed, day, security, path, eventScale });
    tickCount += ticks.length;
    writeParquetFile(tickFrame(id, ticks), join(work, partitionPath(taq, { TradeDate: day.date, Ticker: id.ticker })));
    files.push([taq.textId, ticks.length]);
    ids.push(id);
    AGGREGATIONS.forEach((a, k) => barsByAggregation[k].push(minuteBars(ticks, a)));
    dailyBars.push(dailyBar(ticks, day.closeMinute));
  }
  AGGREGATIONS.forEach((aggregation, k) => {
    const frame = minuteBarFrame(ids, barsByAggregation[k]);
    writeParquetFile(frame, join(work, partitionPath(minute, { aggregation_logic: aggregation, TradeDate: day.date })), MINUTE_FILE_LAYOUT);
    files.push([`${minute.textId}:${aggregation}`, frame.height]);
  });
  writeParquetFile(dailyBarFrame(ids, dailyBars), join(work, partitionPath(daily, { TradeDate: day.date })));
  files.push([daily.textId, ids.length]);
  // The NBBO is the same in both aggregations; the options read it at their last minute.
  const closeQuotes = ids.map((id, k) => ({
    asid: id.asid,
    bid: barsByAggregation[0][k].CloseBidPrice,
    ask: barsByAggregation[0][k].CloseAskPrice,
  }));
  return { files, closeQuotes, ticks: tickCount };
}
