/**
 * Every chart case drawn by headless Chromium (no emoji or web fonts) and checked by its
 * pixels: coloured marks are drawn, all of them inside the plot area (none spill over the
 * axes), and every y tick label is inside the chart and has ink (not clipped off the left edge).
 * The page and its screenshot stay in out/chart-pixels/ (git-ignored) for a person to look at.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { outDir } from "../../scripts/paths.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileBrowser } from "../scripts/support/chromium.ts";
import { decodePng, type Image } from "../scripts/support/png.ts";
import { chartCases } from "./support/chartFrames.ts";
import { type ChartLayout, readLayout, writeChartPage } from "./support/chartPage.ts";

const cases = chartCases();
let image: Image;
let layout: ChartLayout[];
const browser = fileBrowser();
afterAll(() => browser.close());

beforeAll(async () => {
  const dir = join(outDir, "chart-pixels");
  mkdirSync(dir, { recursive: true });
  const page = join(dir, "charts.html");
  writeChartPage(page, Object.fromEntries(Object.entries(cases).map(([name, c]) => [name, c.markup])));
  // One page: its script measures the charts on load; the screenshot is as tall as they are.
  const tab = await browser.open(page, 1100, 2000);
  const measured = readLayout(await tab.content());
  layout = measured.charts;
  await tab.setViewportSize({ width: 1100, height: Math.ceil(measured.height) + 20 });
  const png = await tab.screenshot();
  writeFileSync(join(dir, "charts.png"), png);
  image = decodePng(png);
}, 120_000);

const pixel = (x: number, y: number) => {
  const i = (Math.round(y) * image.width + Math.round(x)) * 4;
  return [image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]];
};
/** A saturated pixel: a mark's colour, not text, grid or session shading (all grey). */
const coloured = ([r, g, b]: number[]) => Math.max(r, g, b) - Math.min(r, g, b) > 60;
const dark = ([r, g, b]: number[]) => r + g + b < 3 * 160;

describe("charts in Chromium", () => {
  it.each(Object.keys(cases))("%s: coloured marks inside the plot area, none over the axes", (name) => {
    const c = layout.find((l) => l.name === name)!;
    let inside = 0, outside = 0;
    for (let y = Math.ceil(c.svg.top); y < Math.floor(c.svg.bottom); y++) {
      for (let x = Math.ceil(c.svg.left); x < Math.floor(c.svg.right); x++) {
        if (!coloured(pixel(x, y))) continue;
        if (x >= c.plotLeft - 2 && y <= c.plotBottom + 2) inside++;
        else outside++;
      }
    }
    expect(inside).toBeGreaterThan(100);
    expect(outside).toBe(0);
  });

  it.each(Object.keys(cases))("%s: y tick labels inside the chart, drawn in full", (name) => {
    const c = layout.find((l) => l.name === name)!;
    expect(c.yLabels.length).toBeGreaterThan(1);
    for (const label of c.yLabels) {
      expect(label.left).toBeGreaterThanOrEqual(c.svg.left);
      let ink = 0;
      for (let y = Math.ceil(label.top); y < Math.floor(label.bottom); y++) {
        for (let x = Math.ceil(label.left); x < Math.floor(label.right); x++) if (dark(pixel(x, y))) ink++;
      }
      expect(ink).toBeGreaterThan(3);
    }
    // Nothing is drawn in the chart's first pixel column: no label runs off its left edge.
    const column = Array.from({ length: Math.floor(c.svg.bottom - c.svg.top) }, (_, i) => pixel(Math.ceil(c.svg.left), c.svg.top + i));
    expect(column.filter(dark)).toHaveLength(0);
  });
});
