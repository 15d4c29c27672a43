/**
 * The five chart renderers on small seeded frames (Date and Datetime(ns, America/New_York)
 * columns): each render equals its golden file byte for byte, has the structure its kind
 * promises, and does not depend on the machine's time zone.
 */
import { describe, expect, it, vi } from "vitest";
import * as k from "../../kernel-helpers/mod.ts";
import { chartCases, dailyBars } from "./support/chartFrames.ts";
import { expectGolden, withPlotIdsInOrder } from "./support/golden.ts";
import { parse } from "./support/parseChart.ts";
import process from "node:process";

const SVG_NS = "http://www.w3.org/2000/svg";
const cases = chartCases();

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
    expect(texts("x-axis tick label")).toEqual(["04:00", "06:00", "08:00", "10:00", "12:00", "14:00", "16:00", "18:00", "20:00"]);
    const [line] = marks("line", "path");
    const xs = points(line.getAttribute("d")!).map(([x]) => x);
    // 96 ten-minute bars from 04:00 (09:00Z) to 19:50, evenly spaced: 14:30Z is bar 33, at 09:30.
    expect(xs).toHaveLength(96);
    const step = (xs[95] - xs[0]) / 95;
    expect(xs[33] - xs[0]).toBeCloseTo(33 * step, 3);
    expect(marks("rect", "rect")).toHaveLength(1); // regular hours shaded
    expect(marks("rect", "title").map((t) => t.textContent)).toEqual(["regular session 09:30-16:00"]);
    expect(marks("dot", "title")[33].textContent).toBe(
      "09:30: " + cases["intraday-profile"].markup.match(/<title>09:30: ([\d.]+)<\/title>/)![1],
    );
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

  it("the term structure draws one line per trade date and a dot per expiry, by days to expiry from each trade date", () => {
    const { root, marks, texts } = parse(cases["term-structure"].markup);
    expect(marks("line", "path")).toHaveLength(2);
    expect(marks("dot", "circle")).toHaveLength(8);
    expect([...root.querySelectorAll("span")].map((s) => s.textContent)).toEqual(["2023-11-21", "2023-11-22"]);
    expect(texts("x-axis label")).toEqual(["expiry →"]);
    expect(texts("x-axis tick label")).toEqual(["10", "14", "21", "30", "45", "60", "90"]);
    expect(marks("dot", "title")[0].textContent).toMatch(/^2023-11-21\nexpiry 2023-12-01 \(10 days\)\nOI-weighted IV /);
  });

  it("the term structure as bars stands one bar per expiry on a band of dates", () => {
    const { marks, texts } = parse(cases["term-structure-bars"].markup);
    expect(marks("bar", "rect")).toHaveLength(4);
    // The axis crosses a year: the first tick and the first of the new year carry it.
    expect(texts("x-axis tick label")).toEqual(["2023-12-01", "12-15", "2024-01-19", "03-15"]);
    expect(marks("bar", "title")[0].textContent).toBe(
      "expiry 2023-12-01\nopen interest " + marks("bar", "title")[0].textContent!.split(" ").at(-1),
    );
  });

  it("the heatmap fills one cell per strike and expiry, with a quantized swatch legend", () => {
    const { root, marks, texts } = parse(cases.heatmap.markup);
    expect(marks("rect", "rect")).toHaveLength(27);
    expect(texts("y-axis tick label")).toEqual(["2023-12-01", "2023-12-15", "2024-01-19"]);
    // Every strike labelled, the last one too.
    expect(texts("x-axis tick label")).toEqual(["170", "172.5", "175", "177.5", "180", "182.5", "185", "187.5", "190"]);
    const legend = [...root.querySelectorAll("svg")].find((s) => !s.querySelector('g[aria-label="x-axis tick"]'))!;
    expect(legend.querySelectorAll("rect").length).toBeGreaterThanOrEqual(5);
    expect(legend.textContent).toContain("open interest");
    // Compact labels ("20k"), not digits run together.
    const labels = [...legend.querySelectorAll("text")].map((t) => t.textContent!).filter((t) => t !== "open interest");
    expect(labels.every((l) => /^\d+(\.\d)?[kKM]?$/.test(l))).toBe(true);
    expect(Math.max(...labels.map((l) => l.length))).toBeLessThanOrEqual(5);
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

describe("chart overrides and new charts", () => {
  it("applies the caller's Plot options over the helper's defaults, keeping the rest", () => {
    const { plot, marks, texts } = parse(cases["intraday-profile-overrides"].markup);
    expect(plot.getAttribute("viewBox")).toBe("0 0 640 260");
    expect(texts("x-axis tick label")[0]).toBe("10:00"); // domain 09:30-16:00
    expect(texts("y-axis tick label")).toEqual(["0.0", "0.5", "1.0", "1.5", "2.0", "2.5", "3.0"]);
    expect(texts("y-axis label")).toEqual(["↑ SpreadBps"]); // the helper's label survives a y override
    expect(marks("rule", "line").some((l) => (l.getAttribute("stroke") ?? l.parentElement!.getAttribute("stroke")) === "red")).toBe(true);
  });

  it("term structure and heatmap take overrides too: a fixed y range and format, another colour scheme", () => {
    expect(parse(cases["term-structure-overrides"].markup).texts("y-axis tick label")).toEqual([
      "16%",
      "18%",
      "20%",
      "22%",
      "24%",
      "26%",
      "28%",
      "30%",
    ]);
    const heat = parse(cases["heatmap-overrides"].markup);
    expect(heat.marks("rect", "rect").map((r) => r.getAttribute("fill")).some((f) => /^rgb\(\d+, \d+, \d+\)$|^#/.test(f ?? ""))).toBe(true);
    expect(cases["heatmap-overrides"].markup).not.toBe(cases.heatmap.markup);
    expect([...heat.root.querySelectorAll("svg text")].map((t) => t.textContent).filter((t) => t!.endsWith("%")).length).toBeGreaterThan(2); // the legend in percent
  });

  it("writes millions compactly (7M, not 7,000,000) and fits the left margin to the longest y tick label", () => {
    const { texts } = parse(cases["intraday-profile-volume"].markup);
    const longest = Math.max(...texts("y-axis tick label").map((t) => t.length));
    expect(texts("y-axis tick label")).toEqual(["0", "1M", "2M", "3M", "4M", "5M", "6M", "7M", "8M", "9M"]);
    // Labels end 9 px left of the plot area (at marginLeft - 9), with room for the longest.
    const margin = Number(
      cases["intraday-profile-volume"].markup.match(
        /aria-label="y-axis tick label".*?<text y="0.32em" transform="translate\(([\d.]+),/,
      )![1],
    );
    expect(margin - 9).toBeGreaterThanOrEqual(longest * 5.8);
  });

  it("the time series breaks its lines between sessions and shades each day's session, the early close at 13:00", () => {
    const { root, marks, texts } = parse(cases["time-series"].markup);
    // Two days: on trading time, ticked at each session open.
    expect(texts("x-axis label")).toEqual(["New York time, trading hours only →"]);
    expect(texts("x-axis tick label")).toEqual(["11-22", "11-24"]);
    // Two tickers over two sessions: four separate lines, none across the night.
    expect(marks("line", "path")).toHaveLength(4);
    expect(marks("rect", "title").map((t) => t.textContent)).toEqual([
      "2023-11-22 regular session",
      "2023-11-24 regular session (early close)",
    ]);
    const [full, early] = marks("rect", "rect").map((r) => Number(r.getAttribute("width")));
    expect(early / full).toBeCloseTo(210 / 390, 1);
    expect([...root.querySelectorAll("span")].map((s) => s.textContent)).toEqual(["AAPL", "MSFT"]);
  });

  it("over a Date column the time series joins trading days (weekends and holidays too) with no shading", () => {
    const daily = dailyBars().select("TradeDate", "ClosePrice");
    const { marks, texts } = parse(k.timeSeriesChart(daily, { x: "TradeDate", y: "ClosePrice", title: "Closes" }).markup);
    expect(marks("line", "path")).toHaveLength(1);
    expect(points(marks("line", "path")[0].getAttribute("d")!)).toHaveLength(6);
    expect(marks("rect", "rect")).toHaveLength(0);
    expect(texts("x-axis label")).toEqual(["TradeDate"]); // an ordinal axis of trading days, as the candlestick's
    expect(texts("x-axis tick label").every((t) => /^\d\d-\d\d$/.test(t))).toBe(true); // dates, not "12 PM"
  });

  it("candlestick dates carry the year when the range crosses one", () => {
    expect(parse(cases["candlestick-new-year"].markup).texts("x-axis tick label")).toEqual([
      "2023-12-27",
      "12-28",
      "12-29",
      "2024-01-02",
      "01-03",
      "01-04",
      "01-05",
    ]);
  });

  it("plot() renders any Plot specification with the same defaults and hover titles", () => {
    const { plot, marks } = parse(cases["plot-spec"].markup);
    expect(plot.getAttribute("viewBox")).toBe("0 0 960 400");
    expect(marks("dot", "circle")).toHaveLength(8);
    expect(marks("dot", "title")).toHaveLength(8);
    expect(cases["plot-spec"].html).toContain("plot() of any spec");
  });
});

it("renders the same bytes when the time zone is Asia/Tokyo, its modules loaded afresh under it", async () => {
  // In this process, not a second one (a fresh Node importing Polars, Plot and jsdom cost
  // several CPU seconds): Node re-reads TZ when it is set, for Date, Intl and the C library
  // Polars asks; the chart modules are evaluated again under it, so a zone captured when a
  // module loads is caught as a fresh process would catch it. Synchronous apart from that
  // import, and this file's tests run one at a time: nothing else renders meanwhile.
  const before = process.env.TZ;
  const noon = new Date("2023-11-21T12:00:00Z");
  const offsetBefore = noon.getTimezoneOffset();
  let tokyo: { offsetMinutes: number; charts: typeof cases };
  try {
    process.env.TZ = "Asia/Tokyo";
    vi.resetModules();
    const fresh = await import("./support/chartFrames.ts");
    expect(fresh.chartCases).not.toBe(chartCases); // evaluated again, not the cached module
    tokyo = { offsetMinutes: noon.getTimezoneOffset(), charts: fresh.chartCases() };
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
  expect(tokyo.offsetMinutes).toBe(-540);
  expect(noon.getTimezoneOffset()).toBe(offsetBefore); // the zone is back for the files after this one
  expect(Object.keys(tokyo.charts)).toEqual(Object.keys(cases));
  for (const [name, chart] of Object.entries(tokyo.charts)) {
    expect(withPlotIdsInOrder(chart.markup), name).toBe(withPlotIdsInOrder(cases[name].markup));
  }
});
