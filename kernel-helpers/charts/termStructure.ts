/** Term structure: a value by expiry (or days to maturity), one line per series, with dots. */
import type pl from "nodejs-polars";
import { dateTickFormat } from "./dateTicks.ts";
import { records } from "./frameData.ts";
import { type PlotOverrides, withOverrides } from "./overrides.ts";
import { asDisplayable, Plot, renderChart, type DisplayableChart } from "./render.ts";

/** The columns `termStructureChart` draws, and its titles. */
export interface TermStructureOptions {
  /** Expiry (a Date column) or days to maturity (a number column). For date-times use `timeSeriesChart`. */
  x: string;
  /** The value column, e.g. an implied volatility or open interest. */
  y: string;
  /** Column naming the series (one line each, e.g. `TradeDate`), optional. */
  series?: string;
  /** Title shown above the chart. */
  title: string;
  /** A second line under the title, optional. */
  subtitle?: string;
  /** Label of the x axis (default: the column's name). */
  xLabel?: string;
  /** Label of the y axis (default: the column's name). */
  yLabel?: string;
  /** Draw bars instead of lines (e.g. open interest by expiry). */
  bars?: boolean;
}

const day = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v));

/**
 * Lines (or bars) by expiry; each dot or bar's hover title gives its expiry and value.
 *
 * @example
 * ```ts
 * const greeks = await wb.data.optGreeksDaily({ filters: { Ticker: "AAPL", TradeDate: "2023-11-21" } });
 * const ivByExpiry = greeks.groupBy("ExpirationDate").agg(pl.col("MidImpliedVol").mean().alias("MeanIV")).sort("ExpirationDate");
 * termStructureChart(ivByExpiry, { x: "ExpirationDate", y: "MeanIV", title: "IV term structure" }, { y: { domain: [0.15, 0.3] } });
 * ```
 */
export function termStructureChart(frame: pl.DataFrame, o: TermStructureOptions, overrides: PlotOverrides = {}): DisplayableChart {
  const isTime = ["Date", "Datetime"].includes(frame.getColumn(o.x).dtype.variant);
  // Bars stand on a band of expiries (labelled YYYY-MM-DD), so weeklies and monthlies are equally wide.
  const data = records(frame, [o.x, o.y, ...(o.series ? [o.series] : [])]).map((r) => {
    const row = o.series && r[o.series] instanceof Date ? { ...r, [o.series]: day(r[o.series]) } : r;
    return o.bars && r[o.x] instanceof Date ? { ...row, [o.x]: day(r[o.x]) } : row;
  });
  const stroke = o.series ?? "steelblue";
  const title = (r: Record<string, unknown>) => `${o.series ? `${r[o.series]}\n` : ""}${o.xLabel ?? o.x} ${day(r[o.x])}\n${o.yLabel ?? o.y} ${r[o.y]}`;
  const marks = o.bars
    ? [Plot.barY(data, { x: o.x, y: o.y, fill: stroke, title }), Plot.ruleY([0])]
    : [Plot.lineY(data, { clip: true, x: o.x, y: o.y, stroke, strokeWidth: 1.5 }), Plot.dot(data, { clip: true, x: o.x, y: o.y, fill: stroke, r: 2.5, title })];
  const bands = o.bars ? [...new Set(data.map((r) => String(r[o.x])))].sort() : [];
  return asDisplayable(renderChart(withOverrides({
    height: 320,
    x: o.bars
      ? { type: "band", label: o.xLabel ?? o.x, tickRotate: -40, ...(isTime ? { tickFormat: dateTickFormat(bands) } : {}) }
      : { type: isTime ? "utc" : "linear", label: o.xLabel ?? o.x },
    marginBottom: o.bars ? 60 : 30,
    y: { label: o.yLabel ?? o.y, grid: true, zero: o.bars === true },
    color: o.series ? { legend: true, type: "categorical" } : undefined,
    marks,
  }, overrides), { title: o.title, subtitle: o.subtitle }));
}
