/**
 * A rendered chart element (an `<svg>`, or Plot's `<figure>` holding legends and the `<svg>`)
 * as markup and a notebook media bundle, with a title line above it. No Plot, no jsdom here:
 * the display of a `Plot.plot()` cell value loads neither.
 */
import type { MediaBundle } from "../display/jupyter.ts";

/** A rendered chart: its SVG (or HTML when it carries a legend), and how a notebook shows it. */
export interface Chart {
  /** The chart's markup: an `<svg>`, or a `<figure>` holding legends and the `<svg>`. */
  markup: string;
  /** How a notebook shows it: HTML with the title line, SVG, and plain text. */
  bundle: MediaBundle;
  /** The notes shown above it (empty when none). */
  notes: string[];
}

/** Title and subtitle shown above a chart. */
export interface ChartText {
  /** Title shown above the chart. */
  title?: string;
  /** A second line under the title, optional. */
  subtitle?: string;
  /**
   * Notes under the titles, each a line marked as a caution: what the reader would otherwise
   * misread (points outside the drawn range, one point stretching an axis, panels on their own scales).
   */
  notes?: readonly string[];
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/**
 * The chart of a rendered element.
 *
 * @example
 * ```ts
 * chartFromElement(Plot.plot({ marks, document }) as unknown as Element, { title: "Dots" }).bundle;
 * ```
 */
export function chartFromElement(node: Element, text: ChartText = {}, fillWidth = true): Chart {
  const svgs = node.tagName.toLowerCase() === "svg" ? [node] : [...node.querySelectorAll("svg")];
  for (const svg of svgs) {
    // Standalone SVG needs its namespace declared; jsdom does not add it on serialisation.
    svg.setAttribute("xmlns", "http://www.w3.org/2000/svg");
    svg.setAttribute("xmlns:xlink", "http://www.w3.org/1999/xlink");
  }
  const markup = node.outerHTML;
  const heading = (text.title ? `<div style="font:bold 14px sans-serif;margin:4px 0">${escape(text.title)}</div>` : "") +
    (text.subtitle ? `<div style="font:12px sans-serif;color:#666;margin-bottom:4px">${escape(text.subtitle)}</div>` : "") +
    (text.notes ?? []).map((n) =>
      `<div class="wb-chart-note" style="font:12px sans-serif;color:#8a4b00;margin-bottom:4px">\u26a0 ${escape(n)}</div>`
    ).join("");
  // By default the chart fills the notebook's width: its SVG scales with the container (viewBox
  // kept). A chart given a width keeps it, shrinking only to fit. Colour ramps keep their size.
  const fill = `<style>.wb-chart svg[viewBox]:not([class$="-ramp"]){${fillWidth ? "width:100%;" : ""}height:auto;max-width:100%}</style>`;
  const bundle: MediaBundle = {
    "text/html": `<div class="wb-chart">${heading}${fill}${markup}</div>`,
    "text/plain": [text.title ?? "chart", ...(text.notes ?? []).map((n) => `note: ${n}`)].join("\n"),
  };
  if (node.tagName.toLowerCase() === "svg") bundle["image/svg+xml"] = markup;
  return { markup, bundle, notes: [...(text.notes ?? [])] };
}
