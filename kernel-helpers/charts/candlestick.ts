/** OHLC candlesticks by date: a high-low rule and an open-close body, green up and red down. */
import type pl from "nodejs-polars";
import { dateTickFormat } from "./dateTicks.ts";
import { records } from "./frameData.ts";
import { type PlotOverrides, withOverrides } from "./overrides.ts";
import { asDisplayable, Plot, renderChart, type DisplayableChart } from "./render.ts";

/** The columns `candlestickChart` draws, and its titles. */
export interface CandlestickOptions {
  /** The date column (a Date, e.g. `TradeDate`). */
  date: string;
  /** The opening price column, e.g. `OpenPrice`. */
  open: string;
  /** The high price column, e.g. `HighPrice`. */
  high: string;
  /** The low price column, e.g. `LowPrice`. */
  low: string;
  /** The closing price column, e.g. `ClosePrice`. */
  close: string;
  /** Title shown above the chart. */
  title: string;
  /** A second line under the title, optional. */
  subtitle?: string;
  /** Label of the y axis (default: the column's name). */
  yLabel?: string;
}

/**
 * Candlesticks on a band of trading days (no gaps for weekends); tick labels carry the year
 * when the range crosses one; each candle's hover title gives its date and prices.
 *
 * @example
 * ```ts
 * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" }, sort: "TradeDate" });
 * candlestickChart(daily, { date: "TradeDate", open: "OpenPrice", high: "HighPrice", low: "LowPrice", close: "ClosePrice", title: "AAPL" }, { height: 240 });
 * ```
 */
export function candlestickChart(frame: pl.DataFrame, o: CandlestickOptions, overrides: PlotOverrides = {}): DisplayableChart {
  const data = records(frame, [o.date, o.open, o.high, o.low, o.close]).map((r) => ({
    ...r,
    [o.date]: (r[o.date] as Date).toISOString().slice(0, 10),
    direction: (r[o.close] as number) >= (r[o.open] as number) ? "up" : "down",
  }));
  const days = [...new Set(data.map((r) => r[o.date] as string))].sort();
  const every = Math.max(1, Math.ceil(days.length / 12));
  const ticks = days.filter((_, i) => i % every === 0);
  const title = (r: Record<string, unknown>) => `${r[o.date]}\nopen ${r[o.open]}\nhigh ${r[o.high]}\nlow ${r[o.low]}\nclose ${r[o.close]}`;
  return asDisplayable(renderChart(withOverrides({
    height: 340,
    x: { type: "band", domain: days, label: "trade date", ticks, tickFormat: dateTickFormat(ticks) },
    y: { label: o.yLabel ?? "price ($)", grid: true },
    color: { domain: ["up", "down"], range: ["#2ca25f", "#de2d26"] },
    marks: [
      Plot.ruleX(data, { x: o.date, y1: o.low, y2: o.high, stroke: "direction", title }),
      Plot.ruleX(data, { x: o.date, y1: o.open, y2: o.close, stroke: "direction", strokeWidth: Math.max(2, Math.min(8, 500 / days.length)), title }),
    ],
  }, overrides), { title: o.title, subtitle: o.subtitle }));
}
