/** OHLC candlesticks by date: a high-low rule and an open-close body, green up and red down. */
import type pl from "nodejs-polars";
import { ChartOptionError } from "./chartOptionError.ts";
import { checkHelperOptions, facetsOf, panelHeight } from "./facets.ts";
import { records, shown } from "./frameData.ts";
import { checkColumnKind } from "./columnKinds.ts";
import { type PlotOverrides, withOverrides } from "./overrides.ts";
import { type FacetY, panelY } from "./panelScales.ts";
import { valueNotes } from "./rangeNotes.ts";
import { asDisplayable, type DisplayableChart, Plot, renderChart } from "./render.ts";
import { tradingDayAxis } from "./tradingDayAxis.ts";

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
  /** With panels (`{ fy: "Ticker" }`): one price axis for all, or one per panel (default: one each when their prices differ in magnitude). */
  facetY?: FacetY;
}

const KNOWN = ["date", "open", "high", "low", "close", "title", "subtitle", "yLabel", "facetY"];
const HELPER = "candlestickChart";

/**
 * Candlesticks on the calendar's trading days (no gaps for weekends and holidays), ticked like
 * every daily axis of these helpers; tick labels carry the year when the range crosses one;
 * each candle's hover title gives its date and prices. Several tickers: facet with
 * `{ fy: "Ticker" }`.
 *
 * @example
 * ```ts
 * const daily = await wb.data.eqDailyOhlc("AAPL", { start: "2023-11-01", end: "2023-12-29" });
 * candlestickChart(daily, { date: "TradeDate", open: "OpenPrice", high: "HighPrice", low: "LowPrice", close: "ClosePrice", title: "AAPL" }, { height: 240 });
 * ```
 */
export function candlestickChart(frame: pl.DataFrame, o: CandlestickOptions, overrides: PlotOverrides = {}): DisplayableChart {
  checkHelperOptions(o, KNOWN, HELPER, 'one chart holds one instrument: facet several with { fy: "Ticker" }');
  const type = (overrides.x as { type?: string } | undefined)?.type;
  if (type !== undefined && type !== "band") {
    throw new ChartOptionError(
      "x.type",
      `${HELPER} draws on a band of trading days; x.type ${
        JSON.stringify(type)
      } cannot place its candles (leave x.type out, or draw with plot())`,
    );
  }
  const facets = facetsOf(frame, overrides, HELPER);
  checkColumnKind(
    frame,
    o.date,
    "temporal",
    HELPER,
    "date",
    "give the trade date column (a Date, e.g. TradeDate); for intraday bars draw timeSeriesChart",
  );
  const data = records(frame, [o.date, o.open, o.high, o.low, o.close, ...facets.columns], facets.columns).map((r) => ({
    ...r,
    [o.date]: (r[o.date] as Date).toISOString().slice(0, 10),
    direction: (r[o.close] as number) >= (r[o.open] as number) ? "up" : "down",
  }));
  const axis = tradingDayAxis(data.map((r) => r[o.date] as string));
  const title = (r: Record<string, unknown>) =>
    `${r[o.date]}\nopen ${shown(r, o.open)}\nhigh ${shown(r, o.high)}\nlow ${shown(r, o.low)}\nclose ${shown(r, o.close)}`;
  const fxy = facets.channels;
  const prices = [o.open, o.high, o.low, o.close];
  const py = panelY({
    data,
    fields: prices,
    panel: fxy.fy,
    choice: o.facetY,
    label: o.yLabel ?? "price ($)",
    panelHeight: facets.panelsDown > 1 ? 204 : 340,
    overrides: facets.overrides,
    helper: HELPER,
  });
  const where = (r: Record<string, unknown>) => [...facets.columns.map((c) => r[c]), r[o.date]].join(" ");
  const notes = valueNotes({ data, fields: prices, overrides: facets.overrides, panel: py.independent ? fxy.fy : undefined, where });
  return asDisplayable(renderChart(
    withOverrides({
      height: panelHeight(340, facets.panelsDown),
      x: { type: "band", label: "trade date", ...axis },
      y: py.y,
      color: { domain: ["up", "down"], range: ["#2ca25f", "#de2d26"] },
      marks: [
        ...py.marks,
        Plot.ruleX(data, { x: o.date, y1: py.field(o.low), y2: py.field(o.high), stroke: "direction", title, ...fxy }),
        Plot.ruleX(data, {
          x: o.date,
          y1: py.field(o.open),
          y2: py.field(o.close),
          stroke: "direction",
          strokeWidth: Math.max(2, Math.min(8, 500 / axis.domain.length)),
          title,
          ...fxy,
        }),
      ],
    }, facets.overrides),
    { title: o.title, subtitle: o.subtitle, notes: [...notes, ...(py.note ? [py.note] : [])] },
  ));
}
