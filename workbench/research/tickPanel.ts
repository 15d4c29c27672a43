/**
 * Trading costs of many ticker-days, fetched and reduced one ticker-day at a time: each day's
 * ticks (`eq-taq`, the six columns the measures read) become a few dozen rows of day totals
 * (`spreadDayTotals`) and are dropped, so memory holds one day per request in flight, not the
 * whole range. With a lake folder the ticks are first downloaded there (`wb.download`, one
 * Parquet file per ticker-day) and read back a day at a time: the first run costs the download,
 * a later run over the same days reads the files and sends no tick request.
 */
import pl from "nodejs-polars";
import type { Workbench } from "../client.ts";
import type { DownloadResult } from "../store/download.ts";
import { QueryError } from "../errors/base.ts";
import type { ProgressListener } from "../progress/progress.ts";
import { type SpreadDayOptions, spreadDayTotals } from "./spreadPanel.ts";
import type { TickerDay } from "./tickerDays.ts";

/** The columns of `eq-taq` the measures read; TradeDate and Ticker are known from the request. */
export const TICK_COLUMNS = ["EventDateTime", "EventType", "Price", "Quantity", "Exchange", "ConditionCode"];

/** How `tickSpreadPanel` fetches: the measures' options, requests in flight, progress per ticker-day. */
export interface TickPanelOptions extends SpreadDayOptions {
  /** Ticker-days fetched at once (default 4). */
  concurrency?: number;
  /**
   * A progress listener for one ticker-day's request (e.g. `bar.part(key)` of a `progressBar`);
   * with `lake`, for each ticker's download instead (called with its first ticker-day).
   */
  progress?: (unit: TickerDay, index: number) => ProgressListener | undefined;
  /**
   * A folder for a lake of the ticks (`wb.download`): missing ticker-days are downloaded into
   * it, then every day is read from it. One service's data per folder: a lake does not know
   * when the service's data change.
   */
  lake?: string;
}

/** A ticker-day with nothing to measure, and why. */
export interface EmptyDay {
  /** The ticker-day. */
  unit: TickerDay;
  /** `no ticks`, `no trades in regular hours`, or the message of the refused request. */
  reason: string;
}

/** Day totals of every ticker-day measured, and the ticker-days with nothing to measure. */
export interface TickPanel {
  /** `spreadDayTotals` rows, `Ticker` being the asked ticker (a renamed day keeps the name asked). */
  totals: pl.DataFrame;
  /** The ticker-days with nothing to measure, by ticker and date. */
  empty: EmptyDay[];
  /** Tick rows read in all. */
  ticks: number;
  /** With `lake`: each ticker's download (what it fetched, what it reused). */
  downloads: DownloadResult[];
}

/**
 * Fetches and reduces `units` (from `tickerDays`).
 *
 * @example
 * ```ts
 * const plan = await tickerDays(wb, ["AAPL", "SPY"], "2023-11-20", "2023-11-24");
 * const panel = await tickSpreadPanel(wb, plan.units, { decaySeconds: [60, 300] });
 * clusteredMeans(panel.totals, { measures: spreadMeasures([60, 300]), by: ["Ticker"] });
 * ```
 */
export async function tickSpreadPanel(wb: Workbench, units: TickerDay[], options: TickPanelOptions = {}): Promise<TickPanel> {
  const parts: pl.DataFrame[] = [];
  const empty: EmptyDay[] = [];
  let next = 0, ticks = 0;
  const downloads = options.lake === undefined ? [] : await downloadTicks(wb, units, options.lake, options.progress);
  // One scan of the lake (it checks the folder once); each day's filter on the partition columns reads one file.
  const scanned = options.lake === undefined ? undefined : wb.scan(options.lake);
  const read = (unit: TickerDay, index: number): Promise<pl.DataFrame> => {
    if (scanned === undefined) {
      return wb.data.eqTaq(unit.ticker, { date: unit.date, columns: TICK_COLUMNS, onProgress: options.progress?.(unit, index) });
    }
    const day = pl.col("Ticker").eq(pl.lit(unit.ticker)).and(pl.col("TradeDate").cast(pl.String).eq(pl.lit(unit.date)));
    return Promise.resolve(scanned.filter(day).select(...TICK_COLUMNS).collectSync());
  };
  const worker = async () => {
    while (next < units.length) {
      const index = next++;
      const unit = units[index];
      let frame: pl.DataFrame;
      try {
        frame = await read(unit, index);
      } catch (error) {
        // A day the service holds nothing for (a ticker past its delisting) is a gap to name, not a failure.
        if (!(error instanceof QueryError)) throw error;
        empty.push({ unit, reason: error.message });
        continue;
      }
      ticks += frame.height;
      // TradeDate as text is enough: the measures read it as YYYY-MM-DD.
      const totals = frame.height === 0
        ? undefined
        : spreadDayTotals(frame.withColumns(pl.lit(unit.date).alias("TradeDate"), pl.lit(unit.asked).alias("Ticker")), options);
      if (totals === undefined || totals.height === 0) {
        empty.push({ unit, reason: totals === undefined ? "no ticks" : "no trades in regular hours" });
      } else parts.push(totals);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  const order = (e: EmptyDay) => `${e.unit.asked}|${e.unit.date}`;
  empty.sort((a, b) => order(a).localeCompare(order(b)));
  const totals = parts.length > 0 ? pl.concat(parts).sort(["Ticker", "TradeDate"]) : pl.DataFrame();
  return { totals, empty, ticks, downloads };
}

/** Downloads each ticker's days of `units` into the lake, one ticker at a time. */
async function downloadTicks(
  wb: Workbench,
  units: TickerDay[],
  lake: string,
  progress: TickPanelOptions["progress"],
): Promise<DownloadResult[]> {
  const spans = new Map<string, { first: TickerDay; index: number; last: string }>();
  units.forEach((unit, index) => {
    const span = spans.get(unit.ticker);
    if (!span) spans.set(unit.ticker, { first: unit, index, last: unit.date });
    else {
      if (unit.date < span.first.date) [span.first, span.index] = [unit, index];
      if (unit.date > span.last) span.last = unit.date;
    }
  });
  const results: DownloadResult[] = [];
  for (const [ticker, span] of spans) {
    // The download partitions what it fetched by the Ticker and TradeDate columns, so it asks for them too.
    results.push(
      await wb.download("eq-taq", {
        tickers: [ticker],
        start: span.first.date,
        end: span.last,
        columns: ["TradeDate", "Ticker", ...TICK_COLUMNS],
        onProgress: progress?.(span.first, span.index),
      }, lake),
    );
  }
  return results;
}
