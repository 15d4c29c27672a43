/**
 * Any Observable Plot specification rendered inline: `plot({ marks: [...] })` as a cell's value
 * shows the chart. Same defaults as the chart helpers (notebook width, left margin fitted to
 * the tick labels); every Plot option works.
 */
import type { PlotOptions } from "@observablehq/plot";
import { asDisplayable, type ChartText, type DisplayableChart, renderChart } from "./render.ts";

/**
 * Renders a Plot specification as a displayable chart.
 *
 * @example
 * ```ts
 * import { plot, Plot } from "./kernel-helpers/mod.ts";
 * const bars = await wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-11-21" } });
 * plot({ marks: [Plot.lineY(bars.toRecords(), { x: "BarDateTime", y: "ClosePrice" })], y: { grid: true } })
 * ```
 */
export function plot(options: PlotOptions, text: ChartText = {}): DisplayableChart {
  return asDisplayable(renderChart(options, text));
}
