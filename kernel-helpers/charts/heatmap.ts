/**
 * Strike-by-expiry heatmap: one cell per (strike, expiry), placed by the strike's value (uneven
 * strikes keep their spacing), coloured in quantized bins whose swatch legend has compact
 * labels (continuous ramps need a canvas).
 */
import type { ColorScheme, ScaleOptions } from "@observablehq/plot";
import type pl from "nodejs-polars";
import { checkHelperOptions, facetsOf } from "./facets.ts";
import { records, shown } from "./frameData.ts";
import { type PlotOverrides, withOverrides } from "./overrides.ts";
import { asDisplayable, DEFAULT_WIDTH, type DisplayableChart, Plot, renderChart } from "./render.ts";

const KNOWN = ["x", "y", "fill", "title", "subtitle", "xLabel", "yLabel", "fillLabel", "scheme"];
const HELPER = "heatmapChart";

/** Pixels a strike label needs beside its neighbour (10 px digits, upright). */
const LABEL_GAP_PX = 44;

/**
 * Which strikes to label: every one when they are far enough apart on the axis, else none
 * (Plot then ticks round values such as 400, 450, 500, which sit at their place on the linear
 * axis). Labels picked by index from uneven strikes would crowd where strikes are dense.
 */
function strikeTicks(xs: number[], domain: [number, number], width: number): number[] | undefined {
  const pxPerUnit = (width - 100) / Math.max(1e-9, domain[1] - domain[0]);
  const closest = Math.min(...xs.slice(1).map((x, i) => x - xs[i]));
  const longest = Math.max(...xs.map((x) => x.toLocaleString("en-US").length));
  return xs.length < 2 || closest * pxPerUnit >= Math.max(LABEL_GAP_PX, longest * 6.2 + 10) ? xs : undefined;
}

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
 * each cell's hover title gives its x, y and value. Strike labels never crowd: every strike when
 * they fit, else round values; facet with `{ fy: "Ticker" }`.
 *
 * @example
 * ```ts
 * const oi = await wb.data.optOpenInterest("SPY", { date: "2023-11-21" });
 * heatmapChart(oi, { x: "Strike", y: "ExpirationDate", fill: "OpenInterest", title: "Open interest" }, { color: { scheme: "viridis" } });
 * ```
 */
export function heatmapChart(frame: pl.DataFrame, o: HeatmapOptions, overrides: PlotOverrides = {}): DisplayableChart {
  checkHelperOptions(o, KNOWN, HELPER);
  const facets = facetsOf(frame, overrides, HELPER);
  const xs = [...new Set(records(frame, [o.x]).map((r) => r[o.x] as number))].sort((a, b) => a - b);
  const edges = cellEdges(xs);
  const data = records(frame, [o.x, o.y, o.fill, ...facets.columns], facets.columns).map((r) => ({
    ...r,
    // Bands are ordinal: expiries as YYYY-MM-DD text keep their order and read well.
    [o.y]: r[o.y] instanceof Date ? (r[o.y] as Date).toISOString().slice(0, 10) : r[o.y],
    x1: edges.get(r[o.x] as number)![0],
    x2: edges.get(r[o.x] as number)![1],
  }));
  const domain: [number, number] = [edges.get(xs[0])?.[0] ?? 0, edges.get(xs.at(-1)!)?.[1] ?? 1];
  const width = typeof overrides.width === "number" ? overrides.width : DEFAULT_WIDTH;
  // One 26 px row of cells per y value: its label always fits.
  const rows = new Set(data.map((r) => String(r[o.y]))).size;
  const title = (r: Record<string, unknown>) =>
    `${o.yLabel ?? o.y} ${r[o.y]}\n${o.xLabel ?? o.x} ${shown(r, o.x)}\n${o.fillLabel ?? o.fill} ${shown(r, o.fill)}`;
  return asDisplayable(renderChart(
    withOverrides({
      height: facets.panelsDown > 1 ? facets.panelsDown * (26 * rows + 30) + 60 : Math.max(240, 26 * rows + 80),
      marginBottom: 44,
      x: {
        type: "linear",
        domain,
        label: o.xLabel ?? o.x,
        ticks: strikeTicks(xs, domain, width),
        tickFormat: (v: number) => v.toLocaleString("en-US"),
      },
      y: { type: "band", label: o.yLabel ?? o.y, padding: 0.04 },
      color: {
        type: "quantize",
        n: 7,
        scheme: (o.scheme ?? "blues") as ColorScheme,
        legend: true,
        label: o.fillLabel ?? o.fill,
        tickFormat: (v: number) => compact.format(v),
        width: 420,
      } as ScaleOptions,
      marks: [Plot.rect(data, { x1: "x1", x2: "x2", y: o.y, fill: o.fill, inset: 0.5, title, ...facets.channels })],
    }, facets.overrides),
    { title: o.title, subtitle: o.subtitle },
  ));
}
