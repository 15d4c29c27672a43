/**
 * Lays chart renders out on one HTML page at their natural size and measures them in Chromium:
 * a script in the page writes, for each chart, its main SVG's box, where its y tick labels
 * start and end, and the plot area's left and bottom edges (from the tick marks), so a test
 * can read the screenshot's pixels at the right places.
 */
import { writeFileSync } from "node:fs";

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface ChartLayout {
  name: string;
  /** The chart's own SVG (the one with axes), in page pixels. */
  svg: Box;
  /** Each y tick label's box. */
  yLabels: Box[];
  /** The plot area's left edge (where y tick marks end) and bottom edge (where x tick marks start). */
  plotLeft: number;
  plotBottom: number;
}

const MEASURE = `
const box = (r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
const out = [...document.querySelectorAll(".case")].map((c) => {
  const svg = [...c.querySelectorAll("svg")].find((s) => s.querySelector('g[aria-label="x-axis tick"]'));
  const ticks = (label) => [...svg.querySelectorAll('g[aria-label="' + label + '"] path')].map((p) => p.getBoundingClientRect());
  const yTicks = ticks("y-axis tick"), xTicks = ticks("x-axis tick");
  return {
    name: c.dataset.name,
    svg: box(svg.getBoundingClientRect()),
    yLabels: [...svg.querySelectorAll('g[aria-label="y-axis tick label"] text')].map((t) => box(t.getBoundingClientRect())),
    plotLeft: yTicks.length ? Math.max(...yTicks.map((r) => r.right)) : svg.getBoundingClientRect().left,
    plotBottom: xTicks.length ? Math.min(...xTicks.map((r) => r.top)) : svg.getBoundingClientRect().bottom,
  };
});
document.getElementById("layout").textContent = JSON.stringify({ height: document.body.scrollHeight, charts: out });
`;

/** Writes the page; each chart in its own block, 20 px apart, on white. */
export function writeChartPage(path: string, charts: Record<string, string>): void {
  const blocks = Object.entries(charts).map(([name, markup]) =>
    `<div class="case" data-name="${name}" style="margin:20px 0 0 20px">${markup}</div>`
  );
  // No web fonts, no emoji: the page renders with the machine's default sans-serif, as a bare notebook would.
  writeFileSync(
    path,
    `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#fff;width:1100px">${
      blocks.join("")
    }<pre id="layout"></pre><script>${MEASURE}</script></body></html>`,
  );
}

/** The measurements the page's script wrote, read from Chromium's DOM dump. */
export function readLayout(dom: string): { height: number; charts: ChartLayout[] } {
  const json = dom.match(/<pre id="layout">([^<]*)<\/pre>/)?.[1];
  if (!json) throw new Error("The chart page wrote no layout: did its script run?");
  return JSON.parse(json.replace(/&quot;/g, '"').replace(/&amp;/g, "&"));
}
