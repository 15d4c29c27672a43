/**
 * Issue 21, item 6: every chart helper honours Plot's own options (facets, scales) or refuses
 * one by name; y domains leave room for the extremes; daily axes tick on trading days alike in
 * every helper; daily expiries stay readable; strike labels never crowd.
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import * as k from "../../kernel-helpers/mod.ts";
import { tradingDays, WorkbenchError } from "../../workbench/mod.ts";
import { chain, dailyExpiries, denseStrikes, intradayBars, termStructure, threeMonths, twoSessions } from "./support/chartFrames.ts";
import { parse, translate } from "./support/parseChart.ts";

const OHLC = { date: "TradeDate", open: "OpenPrice", high: "HighPrice", low: "LowPrice", close: "ClosePrice" } as const;
const twoChains = () =>
  pl.concat([chain().withColumns(pl.lit("AAPL").alias("Ticker")), chain().withColumns(pl.lit("MSFT").alias("Ticker"))]);

/** Each helper drawn from a frame with a Ticker (or a second date) to facet by, with the values expected. */
const helpers: [string, (o: k.PlotOverrides) => k.DisplayableChart, string, string[]][] = [
  ["intradayProfileChart", (o) => k.intradayProfileChart(intradayBars(), { minute: "Minute", y: "SpreadBps", title: "t" }, o), "Ticker", [
    "AAPL",
    "MSFT",
  ]],
  ["timeSeriesChart", (o) => k.timeSeriesChart(twoSessions(), { x: "BarDateTime", y: "ClosePrice", title: "t" }, o), "Ticker", [
    "AAPL",
    "MSFT",
  ]],
  ["candlestickChart", (o) => k.candlestickChart(threeMonths(), { ...OHLC, title: "t" }, o), "Ticker", ["AAPL", "MSFT"]],
  [
    "termStructureChart",
    (o) => k.termStructureChart(termStructure(), { x: "ExpirationDate", y: "OiWeightedIV", title: "t" }, o),
    "TradeDate",
    ["2023-11-21", "2023-11-22"],
  ],
  [
    "heatmapChart",
    (o) => k.heatmapChart(twoChains(), { x: "Strike", y: "ExpirationDate", fill: "OpenInterest", title: "t" }, o),
    "Ticker",
    ["AAPL", "MSFT"],
  ],
  ["smileChart", (o) => k.smileChart(twoChains(), { x: "Strike", y: "MidImpliedVol", series: "ExpirationDate", title: "t" }, o), "Ticker", [
    "AAPL",
    "MSFT",
  ]],
];

/** The error `action` throws (fails the test when it throws none). */
function thrown(action: () => unknown): k.ChartOptionError {
  try {
    action();
  } catch (e) {
    return e as k.ChartOptionError;
  }
  throw new Error("nothing was thrown");
}

describe("facets, as Plot spells them", () => {
  it.each(helpers)("%s draws one panel per value of the fy column, labelled beside it", (_, draw, column, values) => {
    const { texts, plot } = parse(draw({ fy: column }).markup);
    expect(texts("fy-axis tick label")).toEqual(values);
    // The data marks are split between the panels: one group per panel, each moved to its place.
    const panels = [...plot.querySelectorAll("g[aria-label]")].map((g) =>
      [...g.children].filter((c) => c.tagName === "g" && /translate/.test(c.getAttribute("transform") ?? "")).length
    );
    expect(Math.max(...panels)).toBe(values.length);
  });

  it("takes fx and facet: { y } too, and keeps the caller's fy scale options beside a column", () => {
    const draw = helpers[3][1];
    expect(parse(draw({ fx: "TradeDate" }).markup).texts("fx-axis tick label")).toEqual(["2023-11-21", "2023-11-22"]);
    expect(parse(draw({ facet: { y: "TradeDate" } }).markup).texts("fy-axis tick label")).toEqual(["2023-11-21", "2023-11-22"]);
    expect(parse(draw({ fy: "TradeDate", facet: { label: "trade date" } }).markup).texts("fy-axis label").join("")).toContain("trade date");
  });

  it("makes a chart of several panels taller, and leaves room on the right for their labels", () => {
    const one = parse(helpers[0][1]({}).markup).plot, two = parse(helpers[0][1]({ fy: "Ticker" }).markup).plot;
    expect(Number(two.getAttribute("height"))).toBeGreaterThan(Number(one.getAttribute("height")));
    const label = parse(helpers[3][1]({ fy: "TradeDate" }).markup).marks("fy-axis tick label", "text")[0];
    // "2023-11-21" (10 characters, ~60 px) ends inside the 960 px chart.
    expect(translate(label, "x") + 6 + 60).toBeLessThanOrEqual(960);
  });
});

describe("an option a helper cannot take is refused by name", () => {
  it("refuses a misspelt Plot option, suggesting the right one", () => {
    const e = thrown(() => helpers[5][1]({ hieght: 200 } as k.PlotOverrides));
    expect(e).toBeInstanceOf(k.ChartOptionError);
    expect(e).toBeInstanceOf(WorkbenchError);
    expect(e.option).toBe("hieght");
    expect(e.message).toMatch(/smileChart cannot take 'hieght': it is not a Plot option \(did you mean 'height'\?\)/);
  });

  it("refuses a facet column the frame lacks, listing the columns it has", () => {
    const e = thrown(() => helpers[3][1]({ fy: "Ticker" }));
    expect(e.option).toBe("fy");
    expect(e.message).toBe(
      "termStructureChart cannot facet by 'Ticker' (fy): the frame has no such column; it has TradeDate, ExpirationDate, OiWeightedIV, OpenInterest",
    );
  });

  it("refuses series on a candlestick (pointing to facets), another x scale type, and top-level facet data", () => {
    const series = thrown(() => k.candlestickChart(threeMonths(), { ...OHLC, title: "t", series: "Ticker" } as k.CandlestickOptions));
    expect(series.option).toBe("series");
    expect(series.message).toContain('facet several with { fy: "Ticker" }');
    const type = thrown(() => k.candlestickChart(threeMonths(), { ...OHLC, title: "t" }, { x: { type: "utc" } }));
    expect(type.option).toBe("x.type");
    expect(thrown(() => k.timeSeriesChart(threeMonths(), { x: "TradeDate", y: "ClosePrice", title: "t" }, { x: { type: "utc" } })).option)
      .toBe("x.type");
    expect(thrown(() => helpers[0][1]({ facet: { data: [], y: "Ticker" } })).option).toBe("facet.data");
  });

  it("refuses a value column the frame lacks with the typed error", () => {
    const e = thrown(() => k.smileChart(chain(), { x: "Strike", y: "IV", title: "t" }));
    expect(e).toBeInstanceOf(k.ChartOptionError);
    expect(e.message).toContain("The frame has no column 'IV'");
  });
});

/** The y of every data point (dots' centres, or rules' ends) and of every y tick. */
function yGeometry(markup: string, label: "dot" | "rule") {
  const { marks } = parse(markup);
  const ys = label === "dot"
    ? marks("dot", "circle").map((c) => Number(c.getAttribute("cy")))
    : marks("rule", "line").flatMap((l) => [Number(l.getAttribute("y1")), Number(l.getAttribute("y2"))]);
  const ticks = marks("y-axis tick", "path").map((p) => translate(p, "y"));
  return { highest: Math.min(...ys), lowest: Math.max(...ys), topTick: Math.min(...ticks), bottomTick: Math.max(...ticks) };
}

describe("y domains with room for the extremes", () => {
  it.each(
    [
      [
        "intradayProfileChart",
        () => k.intradayProfileChart(intradayBars(), { minute: "Minute", y: "SpreadBps", series: "Ticker", title: "t" }),
        "dot",
      ],
      [
        "timeSeriesChart",
        () => k.timeSeriesChart(twoSessions(), { x: "BarDateTime", y: "ClosePrice", series: "Ticker", title: "t" }),
        "dot",
      ],
      [
        "candlestickChart",
        () => k.candlestickChart(threeMonths().filter(pl.col("Ticker").eq(pl.lit("AAPL"))), { ...OHLC, title: "t" }),
        "rule",
      ],
      [
        "termStructureChart",
        () => k.termStructureChart(termStructure(), { x: "ExpirationDate", y: "OiWeightedIV", series: "TradeDate", title: "t" }),
        "dot",
      ],
      ["smileChart", () => k.smileChart(chain(), { x: "Strike", y: "MidImpliedVol", series: "ExpirationDate", title: "t" }), "dot"],
    ] as const,
  )("%s: the axis ends on round ticks beyond the highest and lowest values, drawn whole", (_, draw, label) => {
    const g = yGeometry(draw().markup, label);
    // Screen y grows downwards: the top tick is above (or at) the highest point.
    expect(g.highest).toBeGreaterThanOrEqual(g.topTick - 0.01);
    expect(g.lowest).toBeLessThanOrEqual(g.bottomTick + 0.01);
  });

  it("keeps a domain the caller gives, and does not widen a log scale to powers of ten", () => {
    const fixed = parse(
      k.termStructureChart(termStructure(), { x: "ExpirationDate", y: "OiWeightedIV", title: "t" }, {
        y: { domain: [0.15, 0.3], tickFormat: ".0%" },
      }).markup,
    );
    expect(fixed.texts("y-axis tick label")).toEqual(["16%", "18%", "20%", "22%", "24%", "26%", "28%", "30%"]);
    const log = parse(
      k.timeSeriesChart(twoSessions(), { x: "BarDateTime", y: "ClosePrice", series: "Ticker", title: "t" }, { y: { type: "log" } }).markup,
    );
    const ticks = log.texts("y-axis tick label").filter((t) => t !== "").map((t) => Number(t.replace(/,/g, "").replace("k", "e3")));
    expect(Math.max(...ticks)).toBeLessThan(1000);
    expect(Math.min(...ticks)).toBeGreaterThan(100);
  });
});

describe("daily axes on trading days, alike in every helper", () => {
  it("timeSeriesChart over a Date column ticks the same trading days as candlestickChart, none on a weekend", () => {
    const daily = threeMonths();
    const series = parse(k.timeSeriesChart(daily, { x: "TradeDate", y: "ClosePrice", series: "Ticker", title: "t" }).markup).texts(
      "x-axis tick label",
    );
    const candles = parse(k.candlestickChart(daily.filter(pl.col("Ticker").eq(pl.lit("AAPL"))), { ...OHLC, title: "t" }).markup).texts(
      "x-axis tick label",
    );
    expect(series).toEqual(candles);
    // The first trading day of each week (the range starts on a Wednesday), the year at the first tick and the new year.
    expect(series).toEqual([
      "2023-11-06",
      "11-13",
      "11-20",
      "11-27",
      "12-04",
      "12-11",
      "12-18",
      "12-26",
      "2024-01-02",
      "01-08",
      "01-15",
      "01-22",
      "01-29",
    ]);
  });

  it("over a few days every trading day is ticked; over a year, the first of each month", () => {
    const frame = (list: string[]) =>
      pl.DataFrame([pl.Series("TradeDate", list).str.strptime(pl.Date, "%Y-%m-%d"), pl.Series("Close", list.map((_, i) => 100 + i))]);
    expect(
      parse(k.timeSeriesChart(frame(tradingDays("2023-11-20", "2023-11-28")), { x: "TradeDate", y: "Close", title: "t" }).markup).texts(
        "x-axis tick label",
      ),
    )
      .toEqual(["11-20", "11-21", "11-22", "11-24", "11-27", "11-28"]); // Thanksgiving (11-23) is no trading day
    const year = parse(k.timeSeriesChart(frame(tradingDays("2023-01-03", "2023-12-29")), { x: "TradeDate", y: "Close", title: "t" }).markup)
      .texts("x-axis tick label");
    expect(year).toEqual(["01-03", "02-01", "03-01", "04-03", "05-01", "06-01", "07-03", "08-01", "09-01", "10-02", "11-01", "12-01"]);
  });
});

describe("expiry axes that keep daily expiries readable", () => {
  it("places expiries by days to expiry from the trade date, giving three weeks of dailies a third of the axis", () => {
    const { marks, texts } = parse(k.termStructureChart(dailyExpiries(), { x: "ExpirationDate", y: "AtmIV", title: "t" }).markup);
    const xs = marks("dot", "circle").map((c) => Number(c.getAttribute("cx")));
    expect(xs).toHaveLength(22);
    // Expiries 0 to 17 days out (the first 13) against the whole axis to 760 days: 2% on a linear date axis.
    expect((xs[12] - xs[0]) / (xs[21] - xs[0])).toBeGreaterThan(0.3);
    expect(texts("x-axis label")).toEqual(["days to expiry →"]);
    expect(texts("x-axis tick label").slice(0, 4)).toEqual(["0", "1", "2", "3"]);
    expect(marks("dot", "title")[2].textContent).toBe("expiry 2023-11-24 (3 days)\nAtmIV 0.1045");
  });

  it("counts from asOf when the frame has no TradeDate, and gives each expiry an even slot with neither", () => {
    const noDate = dailyExpiries().drop("TradeDate");
    const asOf = parse(k.termStructureChart(noDate, { x: "ExpirationDate", y: "AtmIV", title: "t", asOf: "2023-11-21" }).markup);
    expect(asOf.texts("x-axis label")).toEqual(["days to expiry →"]);
    const slots = parse(k.termStructureChart(noDate, { x: "ExpirationDate", y: "AtmIV", title: "t" }).markup);
    const xs = slots.marks("dot", "circle").map((c) => Number(c.getAttribute("cx")));
    const gaps = xs.slice(1).map((x, i) => x - xs[i]);
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThan(0.01);
    expect(thrown(() => k.termStructureChart(noDate, { x: "ExpirationDate", y: "AtmIV", title: "t", asOf: "21/11/2023" })).option).toBe(
      "asOf",
    );
  });
});

describe("heatmap strike labels", () => {
  it("labels every strike when they fit, else round values, never two labels closer than 40 px", () => {
    const dense = parse(k.heatmapChart(denseStrikes(), { x: "Strike", y: "ExpirationDate", fill: "OpenInterest", title: "t" }).markup);
    const xs = dense.marks("x-axis tick", "path").map((p) => translate(p, "x"));
    expect(Math.min(...xs.slice(1).map((x, i) => x - xs[i]))).toBeGreaterThanOrEqual(40);
    expect(dense.texts("x-axis tick label").every((t) => Number(t) % 50 === 0)).toBe(true);
    const sparse = parse(k.heatmapChart(chain(), { x: "Strike", y: "ExpirationDate", fill: "OpenInterest", title: "t" }).markup);
    expect(sparse.texts("x-axis tick label")).toEqual(["170", "172.5", "175", "177.5", "180", "182.5", "185", "187.5", "190"]);
  });
});
