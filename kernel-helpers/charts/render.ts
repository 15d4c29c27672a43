/**
 * Renders Observable Plot charts server-side with jsdom, as standalone SVG that the notebook
 * shows inline (and an HTML report embeds). Only marks that need no canvas and no browser are
 * used: no continuous colour legends, no raster, no tips (hover titles are SVG `<title>`s).
 *
 * Every chart is drawn at a default width of 960 px and shown at the notebook's width (it
 * scales with its container); its left margin follows its longest y tick label.
 */
import * as PlotModule from "@observablehq/plot";
import { createRequire } from "node:module";
import { type Displayable, displayable } from "../display/jupyter.ts";
import { type Chart, chartFromElement, type ChartText } from "./chartBundle.ts";

export type { Chart, ChartText };

let jsdom: Document | undefined;
/** One jsdom document for every chart, made on first use (jsdom takes a while to load). */
function chartDocument(): Document {
  if (!jsdom) {
    const { JSDOM } = createRequire(import.meta.url)("jsdom") as typeof import("jsdom");
    jsdom = new JSDOM("").window.document;
  }
  return jsdom;
}

/** Width a chart is drawn at when the caller gives none (it then scales to the notebook). */
export const DEFAULT_WIDTH = 960;

/** Pixels a 10 px sans-serif tick label needs per character (digits and capitals; commas are narrower). */
const CHAR_PX = 6.2;

function draw(options: PlotModule.PlotOptions): Element {
  return PlotModule.plot({ ...options, document: chartDocument() } as PlotModule.PlotOptions) as unknown as Element;
}

/** Characters in the longest text of an axis's labels (0 when the chart has no such axis). */
const longestText = (node: Element, axis: string) =>
  Math.max(0, ...[...node.querySelectorAll(`g[aria-label="${axis}"] text`)].map((t) => (t.textContent ?? "").length));

/** The left margin the y tick labels need: their longest label plus the tick and padding. */
function neededLeftMargin(node: Element): number {
  const longest = longestText(node, "y-axis tick label");
  // A label written sideways along the axis (band scales) needs a line of its own.
  const sideways = /rotate\(-90\)/.test(node.querySelector('g[aria-label="y-axis label"] text')?.getAttribute("transform") ?? "");
  return Math.ceil(longest * CHAR_PX + 14 + (sideways ? 16 : 0));
}

/**
 * Renders Plot options into a chart with an optional title line above it. The left margin is
 * widened to fit the y tick labels unless `marginLeft` is given.
 *
 * @example
 * ```ts
 * const chart = renderChart({ marks: [Plot.dot([{x: 1, y: 2}], { x: "x", y: "y" })] }, { title: "Dots" });
 * ```
 */
export function renderChart(options: PlotModule.PlotOptions, text: ChartText = {}): Chart {
  const sized = { width: DEFAULT_WIDTH, ...options };
  let node = draw(sized);
  // A first draw tells which tick labels Plot chose; the second leaves room for the longest.
  const margins: Record<string, number> = {};
  if (options.marginLeft === undefined) margins.marginLeft = Math.max(40, neededLeftMargin(node));
  const facetLabels = longestText(node, "fy-axis tick label");
  // Facet labels (fy) stand right of the panels, their axis label beyond them.
  if (options.marginRight === undefined && facetLabels > 0) margins.marginRight = Math.ceil(facetLabels * CHAR_PX + 14 + 16);
  if (Object.keys(margins).length) node = draw({ ...sized, ...margins });
  return chartFromElement(node, text, options.width === undefined);
}

/** A chart as a cell value (renders inline in the Deno kernel), with its markup and the notes shown above it. */
export type DisplayableChart = Displayable & { markup: string; notes: string[] };

/** A chart as a cell value: renders inline in the Deno kernel. */
export function asDisplayable(chart: Chart): DisplayableChart {
  return Object.assign(displayable(chart.bundle), { markup: chart.markup, notes: chart.notes });
}

/**
 * Observable Plot, with `Plot.plot()` working in a Deno cell: it draws into a jsdom document
 * unless given one, and the element it returns displays as the chart.
 *
 * @example
 * ```ts
 * import { Plot } from "./kernel-helpers/mod.ts";
 * Plot.plot({ marks: [Plot.barY([1, 2, 3])] })
 * ```
 */
export const Plot: typeof PlotModule = {
  ...PlotModule,
  plot: (options: PlotModule.PlotOptions = {}) => PlotModule.plot({ document: chartDocument(), ...options } as PlotModule.PlotOptions),
} as typeof PlotModule;
