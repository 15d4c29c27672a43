/**
 * The five chart renderers on small seeded frames (Date and Datetime(ns, America/New_York)
 * columns): each render equals its golden file byte for byte, has the structure its kind
 * promises, and does not depend on the machine's time zone.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { chartCases } from "./support/chartFrames.ts";
import { expectGolden } from "./support/golden.ts";

const SVG_NS = "http://www.w3.org/2000/svg";
const cases = chartCases();

interface Parsed {
  /** The root element: `<svg>` for a standalone chart, `<figure>` when legends sit beside it. */
  root: Element;
  /** The chart's own SVG (the one with axes). */
  plot: Element;
  marks: (label: string, tag: string) => Element[];
  texts: (label: string) => string[];
}

/** A standalone SVG is parsed as XML, so it must be well-formed and namespaced to parse at all. */
function parse(markup: string): Parsed {
  const svg = markup.startsWith("<svg");
  const doc = new JSDOM(markup, svg ? { contentType: "image/svg+xml" } : {}).window.document;
  const root = svg ? doc.documentElement : doc.body.firstElementChild!;
  const plot = [...root.ownerDocument.querySelectorAll("svg")].find((s) => s.querySelector('g[aria-label="x-axis tick"]'))!;
  const marks = (label: string, tag: string) => [...plot.querySelectorAll(`g[aria-label="${label}"] ${tag}`)];
  const texts = (label: string) => marks(label, "text").map((t) => t.textContent!);
  return { root, plot, marks, texts };
}

/** The points of an SVG path ("M56,107.586L63.125,103.053..."). */
const points = (d: string) => d.slice(1).split("L").map((p) => p.split(",").map(Number));

describe("chart renders equal their golden files", () => {
  it.each(Object.keys(cases))("%s", (name) => {
    expectGolden(name, cases[name].markup);
  });
});

describe("chart structure", () => {
  it.each(Object.entries(cases))("%s is namespaced SVG with axis labels, and its title heads the notebook output", (_, chart) => {
    const { root, plot, texts } = parse(chart.markup);
    for (const svg of [root, ...root.querySelectorAll("svg")].filter((e) => e.tagName.toLowerCase() === "svg")) {
      expect(svg.getAttribute("xmlns")).toBe(SVG_NS);
      expect(svg.namespaceURI).toBe(SVG_NS);
    }
    expect(plot.getAttribute("viewBox")).toMatch(/^0 0 \d+ \d+$/);
    expect(texts("x-axis label").join("")).not.toBe("");
    expect(texts("y-axis label").join("")).not.toBe("");
    expect(texts("x-axis tick label").length).toBeGreaterThan(1);
    expect(chart.html).toMatch(/^<div class="wb-chart"><div style="font:bold 14px sans-serif;margin:4px 0">[^<]+<\/div>/);
    expect(chart.html).toContain(chart.markup);
  });

  it("the intraday profile reads a Datetime(ns, America/New_York) column on a New York time axis", () => {
    const { marks, texts } = parse(cases["intraday-profile"].markup);
    expect(texts("x-axis label")).toEqual(["New York time →"]);
    expect(texts("x-axis tick label")).toEqual(["04:00", "06:00", "08:00", "09:30", "12:00", "14:00", "16:00", "18:00", "20:00"]);
    const [line] = marks("line", "path");
    const xs = points(line.getAttribute("d")!).map(([x]) => x);
    // 96 ten-minute bars; the first bar (09:00Z) sits at 04:00, and 14:30Z at the 09:30 tick.
    expect(xs).toHaveLength(96);
    expect(xs[0]).toBe(56);
    expect(xs[33]).toBe(291.125);
    expect(marks("rect", "rect")).toHaveLength(1); // regular hours shaded
  });

  it("the profile by ticker draws one line per ticker with a swatch legend", () => {
    const { root, marks } = parse(cases["intraday-profile-by-ticker"].markup);
    expect(marks("line", "path")).toHaveLength(2);
    expect([...root.querySelectorAll("span")].map((s) => s.textContent)).toEqual(["AAPL", "MSFT"]);
    expect(cases["intraday-profile-by-ticker"].html).toContain("2023-11-21, ten-minute bars");
  });

  it("the candlestick draws a wick and a body per trading day, green up and red down, Thanksgiving left out", () => {
    const { plot, marks, texts } = parse(cases.candlestick.markup);
    const [wicks, bodies] = [...plot.querySelectorAll('g[aria-label="rule"]')].map((g) => [...g.querySelectorAll("line")]);
    expect(marks("rule", "line")).toHaveLength(12);
    expect(wicks).toHaveLength(6);
    expect(bodies.map((b) => b.getAttribute("stroke"))).toEqual(["#2ca25f", "#2ca25f", "#de2d26", "#2ca25f", "#de2d26", "#de2d26"]);
    expect(texts("x-axis tick label")).toEqual(["11-20", "11-21", "11-22", "11-24", "11-27", "11-28"]);
    expect(texts("y-axis label")).toEqual(["↑ price ($)"]);
  });

  it("the term structure draws one line per trade date and a dot per expiry on a UTC date axis", () => {
    const { root, marks, texts } = parse(cases["term-structure"].markup);
    expect(marks("line", "path")).toHaveLength(2);
    expect(marks("dot", "circle")).toHaveLength(8);
    expect([...root.querySelectorAll("span")].map((s) => s.textContent)).toEqual(["2023-11-21", "2023-11-22"]);
    expect(texts("x-axis label")).toEqual(["expiry →"]);
    expect(texts("x-axis tick label").join(" ")).toMatch(/Dec.*Jan.*Feb.*Mar/);
  });

  it("the term structure as bars stands one bar per expiry on a band of dates", () => {
    const { marks, texts } = parse(cases["term-structure-bars"].markup);
    expect(marks("bar", "rect")).toHaveLength(4);
    expect(texts("x-axis tick label")).toEqual(["2023-12-01", "2023-12-15", "2024-01-19", "2024-03-15"]);
  });

  it("the heatmap fills one cell per strike and expiry, with a quantized swatch legend", () => {
    const { root, marks, texts } = parse(cases.heatmap.markup);
    expect(marks("cell", "rect")).toHaveLength(27);
    expect(texts("y-axis tick label")).toEqual(["2023-12-01", "2023-12-15", "2024-01-19"]);
    expect(texts("x-axis tick label")).toHaveLength(9);
    const legend = [...root.querySelectorAll("svg")].find((s) => !s.querySelector('g[aria-label="x-axis tick"]'))!;
    expect(legend.querySelectorAll("rect").length).toBeGreaterThanOrEqual(5);
    expect(legend.textContent).toContain("open interest");
  });

  it("the smile draws one line per expiry, a dot per strike, the spot as a dashed rule and vol in percent", () => {
    const { marks, texts } = parse(cases.smile.markup);
    expect(marks("line", "path")).toHaveLength(3);
    expect(marks("dot", "circle")).toHaveLength(27);
    const [spot] = marks("rule", "line");
    expect(spot.getAttribute("stroke-dasharray") ?? spot.parentElement!.getAttribute("stroke-dasharray")).toBe("4,3");
    expect(texts("y-axis tick label").every((t) => /^\d+%$/.test(t))).toBe(true);
  });
});

it("renders the same bytes in a process whose time zone is Asia/Tokyo", async () => {
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(join(process.cwd(), "node_modules/.bin/vite-node"), ["test/kernel-helpers/support/renderCharts.ts"], { env: { ...process.env, TZ: "Asia/Tokyo" }, maxBuffer: 1 << 24 }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out))
  );
  const tokyo = JSON.parse(stdout.trim().split("\n").at(-1)!) as { offsetMinutes: number; charts: typeof cases };
  expect(tokyo.offsetMinutes).toBe(-540);
  expect(Object.keys(tokyo.charts)).toEqual(Object.keys(cases));
  for (const [name, chart] of Object.entries(tokyo.charts)) {
    expect(chart.markup, name).toBe(cases[name].markup);
  }
});
