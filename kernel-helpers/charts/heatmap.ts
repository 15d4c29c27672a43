/**
 * Strike-by-expiry heatmap: one cell per (strike, expiry), placed by the strike's value (uneven
 * strikes keep their spacing), coloured in quantized bins whose swatch legend has compact
 * labels (continuous ramps need a canvas).
 */
import type { ColorScheme, ScaleOptions } from "@observablehq/plot";
import type pl from "nodejs-polars";
import { records } from "./frameData.ts";
import { type PlotOverrides, withOverrides } from "./overrides.ts";
import { asDisplayable, Plot, renderChart, type DisplayableChart } from "./render.ts";

/** The columns `heatmapChart` draws, and its titles. */
export interface HeatmapOptions {
  /** The numeric column across (e.g. `Strike`): cells are as wide as the gaps between its values. */
  x: string;
  /** The column down (e.g. `ExpirationDate`): one row of cells per value. */
  y: string;
  /** The value column coloured in each cell (e.g. `OpenInterest`). */
  fill: string;
  /** Title shown above the chart. */
  title: string;
  /** A second line under the title, optional. */
  subtitle?: string;
  /** Label of the x axis (default: the column's name). */
  xLabel?: string;
  /** Label of the y axis (default: the column's name). */
  yLabel?: string;
  /** Label of the colour legend (default: the fill column's name). */
  fillLabel?: string;
  /** Colour scheme (default "blues"). */
  scheme?: string;
}

/** Each strike's cell spans halfway to its neighbours (the outer ones mirror their inner half). */
function cellEdges(xs: number[]): Map<number, [number, number]> {
  const edges = new Map<number, [number, number]>();
  xs.forEach((x, i) => {
    const left = i > 0 ? (xs[i - 1] + x) / 2 : xs.length > 1 ? x - (xs[1] - x) / 2 : x - 0.5;
    const right = i < xs.length - 1 ? (x + xs[i + 1]) / 2 : xs.length > 1 ? x + (x - xs[i - 1]) / 2 : x + 0.5;
    edges.set(x, [left, right]);
  });
  return edges;
}

/** 12,345 as "12k", 1,500,000 as "1.5M": legend labels that fit their swatch. */
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/**
 * A value on a grid of cells, e.g. open interest by strike and expiry, with a colour legend;
 * each cell's hover title gives its x, y and value.
 *
 * @example
 * ```ts
 * const oi = await wb.data.optOpenInterest({ filters: { Ticker: "SPY", TradeDate: "2023-11-21" } });
 * heatmapChart(oi, { x: "Strike", y: "ExpirationDate", fill: "OpenInterest", title: "Open interest" }, { color: { scheme: "viridis" } });
 * ```
 */
export function heatmapChart(frame: pl.DataFrame, o: HeatmapOptions, overrides: PlotOverrides = {}): DisplayableChart {
  const xs = [...new Set(records(frame, [o.x]).map((r) => r[o.x] as number))].sort((a, b) => a - b);
  const edges = cellEdges(xs);
  const data = records(frame, [o.x, o.y, o.fill]).map((r) => ({
    ...r,
    // Bands are ordinal: expiries as YYYY-MM-DD text keep their order and read well.
    [o.y]: r[o.y] instanceof Date ? (r[o.y] as Date).toISOString().slice(0, 10) : r[o.y],
    x1: edges.get(r[o.x] as number)![0],
    x2: edges.get(r[o.x] as number)![1],
  }));
  const every = Math.max(1, Math.ceil(xs.length / 16));
  // Every k-th strike, and always the last one.
  const ticks = xs.filter((_, i) => i % every === 0 || i === xs.length - 1);
  const title = (r: Record<string, unknown>) => `${o.yLabel ?? o.y} ${r[o.y]}\n${o.xLabel ?? o.x} ${r[o.x]}\n${o.fillLabel ?? o.fill} ${(r[o.fill] as number)?.toLocaleString("en-US")}`;
  return asDisplayable(renderChart(withOverrides({
    height: Math.max(240, 26 * new Set(data.map((r) => r[o.y])).size + 80),
    marginBottom: 44,
    x: { type: "linear", domain: [edges.get(xs[0])?.[0] ?? 0, edges.get(xs.at(-1)!)?.[1] ?? 1], label: o.xLabel ?? o.x, ticks, tickFormat: (v: number) => v.toLocaleString("en-US"), tickRotate: -45 },
    y: { type: "band", label: o.yLabel ?? o.y, padding: 0.04 },
    color: { type: "quantize", n: 7, scheme: (o.scheme ?? "blues") as ColorScheme, legend: true, label: o.fillLabel ?? o.fill, tickFormat: (v: number) => compact.format(v), width: 420 } as ScaleOptions,
    marks: [Plot.rect(data, { x1: "x1", x2: "x2", y: o.y, fill: o.fill, inset: 0.5, title })],
  }, overrides), { title: o.title, subtitle: o.subtitle }));
}
