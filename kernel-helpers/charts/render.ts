/**
 * Renders Observable Plot charts server-side with jsdom, as standalone SVG that the notebook
 * shows inline (and an HTML report embeds). Only marks that need no canvas and no browser are
 * used: no continuous colour legends, no raster, no tips.
 */
import * as Plot from "@observablehq/plot";
import { JSDOM } from "jsdom";
import { displayable, type MediaBundle } from "../display/jupyter.ts";

const document = new JSDOM("").window.document;

/** A rendered chart: its SVG (or HTML when it carries a legend), and how a notebook shows it. */
export interface Chart {
  /** The chart's markup: an `<svg>`, or a `<figure>` holding legends and the `<svg>`. */
  markup: string;
  bundle: MediaBundle;
}

export interface ChartText {
  title: string;
  subtitle?: string;
}

/**
 * Renders Plot options into a chart with a title line above it.
 *
 * @example
 * ```ts
 * const chart = renderChart({ marks: [Plot.dot([{x: 1, y: 2}], { x: "x", y: "y" })] }, { title: "Dots" });
 * ```
 */
export function renderChart(options: Plot.PlotOptions, text: ChartText): Chart {
  const node = Plot.plot({ ...options, document } as Plot.PlotOptions) as unknown as Element;
  // Standalone SVG needs its namespace declared; jsdom does not add it on serialisation.
  const svgs = node.tagName.toLowerCase() === "svg" ? [node] : [...node.querySelectorAll("svg")];
  for (const svg of svgs) {
    svg.setAttribute("xmlns", "http://www.w3.org/2000/svg");
    svg.setAttribute("xmlns:xlink", "http://www.w3.org/1999/xlink");
  }
  const markup = node.outerHTML;
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const heading = `<div style="font:bold 14px sans-serif;margin:4px 0">${escape(text.title)}</div>${text.subtitle ? `<div style="font:12px sans-serif;color:#666;margin-bottom:4px">${escape(text.subtitle)}</div>` : ""}`;
  const bundle: MediaBundle = { "text/html": `<div class="wb-chart">${heading}${markup}</div>`, "text/plain": text.title };
  if (node.tagName.toLowerCase() === "svg") bundle["image/svg+xml"] = markup;
  return { markup, bundle };
}

/** A chart as a cell value: renders inline in the Deno kernel. */
export function asDisplayable(chart: Chart) {
  return Object.assign(displayable(chart.bundle), { markup: chart.markup });
}

export { Plot };
