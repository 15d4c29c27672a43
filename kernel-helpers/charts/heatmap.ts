/**
 * Strike-by-expiry heatmap: one cell per (strike, expiry), coloured by a value in quantized
 * bins, so the legend is a row of swatches (continuous ramps need a canvas).
 */
import type pl from "nodejs-polars";
import { records } from "./frameData.ts";
import { asDisplayable, Plot, renderChart } from "./render.ts";

export interface HeatmapOptions {
  x: string;
  y: string;
  fill: string;
  title: string;
  subtitle?: string;
  xLabel?: string;
  yLabel?: string;
  fillLabel?: string;
  /** Colour scheme (default "blues"). */
  scheme?: string;
}

/**
 * @example
 * ```ts
 * heatmapChart(oi, { x: "Strike", y: "ExpirationDate", fill: "OpenInterest", title: "Open interest" });
 * ```
 */
export function heatmapChart(frame: pl.DataFrame, o: HeatmapOptions) {
  const data = records(frame, [o.x, o.y, o.fill]).map((r) => ({
    ...r,
    // Bands are ordinal: expiries as YYYY-MM-DD text keep their order and read well.
    [o.y]: r[o.y] instanceof Date ? (r[o.y] as Date).toISOString().slice(0, 10) : r[o.y],
  }));
  const xs = [...new Set(data.map((r) => r[o.x] as number))].sort((a, b) => a - b);
  const every = Math.max(1, Math.ceil(xs.length / 16));
  return asDisplayable(renderChart({
    width: 760,
    height: Math.max(240, 26 * new Set(data.map((r) => r[o.y])).size + 80),
    marginLeft: 90,
    marginBottom: 44,
    padding: 0.04,
    x: { type: "band", domain: xs, label: o.xLabel ?? o.x, ticks: xs.filter((_, i) => i % every === 0), tickRotate: -45 },
    y: { type: "band", label: o.yLabel ?? o.y },
    color: { type: "quantize", n: 7, scheme: (o.scheme ?? "blues") as Plot.ColorScheme, legend: true, label: o.fillLabel ?? o.fill },
    marks: [Plot.cell(data, { x: o.x, y: o.y, fill: o.fill, inset: 0.5 })],
  }, { title: o.title, subtitle: o.subtitle }));
}
