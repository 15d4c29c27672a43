/** A rendered chart parsed back for tests: its root, its plot SVG, and its marks and axis texts by aria-label. */
import { JSDOM } from "jsdom";

export interface Parsed {
  /** The root element: `<svg>` for a standalone chart, `<figure>` when legends sit beside it. */
  root: Element;
  /** The chart's own SVG (the one with axes). */
  plot: Element;
  /** Elements `tag` inside every group labelled `label` (e.g. "dot", "circle"). */
  marks: (label: string, tag: string) => Element[];
  /** The texts of every group labelled `label` (e.g. "x-axis tick label"). */
  texts: (label: string) => string[];
}

/** A standalone SVG is parsed as XML, so it must be well-formed and namespaced to parse at all. */
export function parse(markup: string): Parsed {
  const svg = markup.startsWith("<svg");
  const doc = new JSDOM(markup, svg ? { contentType: "image/svg+xml" } : {}).window.document;
  const root = svg ? doc.documentElement : doc.body.firstElementChild!;
  const plot = [...root.ownerDocument.querySelectorAll("svg")].find((s) => s.querySelector('g[aria-label="x-axis tick"]'))!;
  const marks = (label: string, tag: string) => [...plot.querySelectorAll(`g[aria-label="${label}"] ${tag}`)];
  const texts = (label: string) => marks(label, "text").map((t) => t.textContent!);
  return { root, plot, marks, texts };
}

/** The x (or y) offset of an element's `transform="translate(x,y)"`, as Plot places ticks. */
export function translate(el: Element, axis: "x" | "y"): number {
  const m = (el.getAttribute("transform") ?? "").match(/translate\(([-\d.]+),([-\d.]+)\)/);
  if (!m) throw new Error(`no translate on ${el.outerHTML.slice(0, 80)}`);
  return Number(axis === "x" ? m[1] : m[2]);
}

/** The points of an SVG path ("M56,107.586L63.125,103.053..."). */
export const points = (d: string) => d.slice(1).split(/L|M/).map((p) => p.split(",").map(Number));
