/**
 * Issue 38, item 5: charts that refuse or adapt, never mislead. Each mistake the issue found is
 * drawn here and gets its message: a time series over strikes is refused naming the charts that
 * fit; panels of different magnitudes get their own y scales; several days of minute bars are
 * drawn on trading time; big numbers are compact; a domain that leaves points out and a point
 * that stretches the axis are noted; hover titles are rounded as the table rounds.
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import * as k from "../../kernel-helpers/mod.ts";
import { chain, dates, fourWeeksOfBars, threeMonths, twoMagnitudes } from "./support/chartFrames.ts";
import { parse, points, translate } from "./support/parseChart.ts";

/** The error `action` throws (fails the test when it throws none). */
function thrown(action: () => unknown): k.ChartOptionError {
  try {
    action();
  } catch (e) {
    return e as k.ChartOptionError;
  }
  throw new Error("nothing was thrown");
}

describe("a time series refuses what it cannot draw over time", () => {
  it("refuses a strike for x, naming its type and the smile or scatter that fits", () => {
    const e = thrown(() => k.timeSeriesChart(chain(), { x: "Strike", y: "MidImpliedVol", series: "ExpirationDate", title: "smile" }));
    expect(e).toBeInstanceOf(k.ChartOptionError);
    expect(e.option).toBe("x");
    expect(e.message).toBe(
      "timeSeriesChart draws over time: x 'Strike' is a Float64 column, not a Date or Datetime column; for MidImpliedVol by Strike draw " +
        'smileChart(frame, { x: "Strike", y: "MidImpliedVol", ... }) (implied vol by strike) or a scatter: plot({ marks: [Plot.dot(frame.toRecords(), { x: "Strike", y: "MidImpliedVol" })] })',
    );
  });

  it("refuses dates written as text, saying how to make them a Date", () => {
    const text = threeMonths().withColumns(pl.col("TradeDate").cast(pl.String));
    expect(thrown(() => k.timeSeriesChart(text, { x: "TradeDate", y: "ClosePrice", title: "t" })).message).toBe(
      "timeSeriesChart draws over time: x 'TradeDate' is a String column, not a Date or Datetime column; if it holds dates as text, make it a Date first: " +
        'frame.withColumns(pl.col("TradeDate").str.strptime(pl.Date, "%Y-%m-%d"))',
    );
  });

  it("a smile refuses a date for x, and a candlestick a number for its date", () => {
    expect(thrown(() => k.smileChart(chain(), { x: "ExpirationDate", y: "MidImpliedVol", title: "t" })).message).toBe(
      "smileChart places x by its value: x 'ExpirationDate' is a Date column, not a number column; give the strike (or moneyness) column; for a value by expiry draw termStructureChart, over time timeSeriesChart",
    );
    expect(
      thrown(() =>
        k.candlestickChart(threeMonths(), {
          date: "OpenPrice",
          open: "OpenPrice",
          high: "HighPrice",
          low: "LowPrice",
          close: "ClosePrice",
          title: "t",
        })
      ).option,
    ).toBe("date");
  });
});

describe("panels of different magnitudes", () => {
  // SPY near 450 under AAPL near 170: one shared scale would flatten both.
  const closes = twoMagnitudes;

  it("get a y scale each by default, with their own round ticks and a note that says so", () => {
    const chart = k.timeSeriesChart(closes(), { x: "TradeDate", y: "ClosePrice", title: "t" }, { fy: "Ticker" });
    const { plot, texts } = parse(chart.markup);
    const panels = [...plot.querySelectorAll('g[aria-label="y-axis tick label"] > g')].map((g) =>
      [...g.querySelectorAll("text")].map((t) => t.textContent)
    );
    expect(panels).toEqual([["140", "150", "160", "170", "180"], ["400", "450", "500", "550"]]);
    expect(texts("fy-axis tick label")).toEqual(["AAPL", "SPY"]);
    expect(chart.notes).toEqual([
      'Each panel has its own y scale (the panels\' values differ in magnitude; { facetY: "shared" } puts them on one)',
    ]);
    // Each line spans most of its panel's height, not a sliver of a shared one.
    const heights = [...plot.querySelectorAll('g[aria-label="line"] path')].map((p) => {
      const ys = points(p.getAttribute("d")!).map(([, y]) => y);
      return Math.max(...ys) - Math.min(...ys);
    });
    expect(Math.min(...heights)).toBeGreaterThan(80);
  });

  it("share one scale when asked, and refuse independent scales beside a y domain", () => {
    const shared = k.timeSeriesChart(closes(), { x: "TradeDate", y: "ClosePrice", title: "t", facetY: "shared" }, { fy: "Ticker" });
    expect(shared.notes).toEqual([]);
    expect(parse(shared.markup).texts("y-axis tick label")).toEqual(["0", "200", "400", "600", "0", "200", "400", "600"]);
    const e = thrown(() =>
      k.timeSeriesChart(closes(), { x: "TradeDate", y: "ClosePrice", title: "t", facetY: "independent" }, {
        fy: "Ticker",
        y: { domain: [100, 600] },
      })
    );
    expect(e.option).toBe("facetY");
    expect(e.message).toBe(
      'timeSeriesChart: facetY "independent" gives each panel its own linear y scale, which a y domain cannot take: drop one of them',
    );
  });
});

describe("several days of minute bars on trading time", () => {
  const chart = () => k.timeSeriesChart(fourWeeksOfBars(), { x: "BarDateTime", y: "Mid", title: "Mids over four weeks" });

  it("leaves out nights, weekends and holidays: every trading day as wide as the next, ticked at session opens", () => {
    const { marks, texts } = parse(chart().markup);
    expect(texts("x-axis label")).toEqual(["New York time, trading hours only →"]);
    // The first trading day of each week, at its 09:30 open.
    expect(texts("x-axis tick label")).toEqual(["11-20", "11-27", "12-04", "12-11"]);
    const ticks = marks("x-axis tick", "path").map((p) => translate(p, "x"));
    const weeks = ticks.slice(1).map((x, i) => x - ticks[i]);
    // 11-20 to 11-27 holds four trading days (Thanksgiving closed), the other weeks five.
    expect(weeks[1] / weeks[0]).toBeCloseTo(5 / 4, 2);
    expect(weeks[2]).toBeCloseTo(weeks[1], 6);
    // One session (rect) per trading day, each day's open right after the day before's window.
    const sessions = marks("rect", "rect");
    expect(sessions).toHaveLength(19);
    const lefts = sessions.map((r) => Number(r.getAttribute("x")));
    const steps = lefts.slice(1).map((x, i) => x - lefts[i]);
    expect(Math.max(...steps) - Math.min(...steps)).toBeLessThan(0.01);
    expect(marks("rect", "title").map((t) => t.textContent)[3]).toBe("2023-11-24 regular session (early close)");
  });

  it("draws the clock again with x.type utc", () => {
    const clock = parse(k.timeSeriesChart(fourWeeksOfBars(), { x: "BarDateTime", y: "Mid", title: "t" }, { x: { type: "utc" } }).markup);
    expect(clock.texts("x-axis label")).toEqual(["New York time →"]);
  });
});

describe("numbers that read right", () => {
  const volumes = () =>
    pl.DataFrame([
      dates("TradeDate", ["2023-11-20", "2023-11-21", "2023-11-22", "2023-11-24"]),
      pl.Series("Shares", [152_000_000, 180_000_000, 171_500_000, 64_000_000]),
    ]);

  it("writes a volume axis as 180M, not 180,000,000", () => {
    const { texts } = parse(k.timeSeriesChart(volumes(), { x: "TradeDate", y: "Shares", title: "t" }).markup);
    expect(texts("y-axis tick label")).toEqual(["60M", "80M", "100M", "120M", "140M", "160M", "180M"]);
  });

  it("rounds hover titles as the table rounds: 3.80, never 3.8000000000000003", () => {
    const ranges = pl.DataFrame([dates("TradeDate", ["2023-11-20", "2023-11-21"]), pl.Series("Range", [1.1 + 2.7, 2.41])]);
    expect(ranges.getColumn("Range").toArray()[0]).toBe(3.8000000000000003);
    const { marks } = parse(k.timeSeriesChart(ranges, { x: "TradeDate", y: "Range", title: "t" }).markup);
    expect(marks("dot", "title").map((t) => t.textContent)).toEqual(["2023-11-20: 3.80", "2023-11-21: 2.41"]);
  });
});

describe("notes where the axis would mislead", () => {
  const aapl = () => threeMonths().filter(pl.col("Ticker").eq(pl.lit("AAPL"))).select("TradeDate", "ClosePrice");

  it("names a point that stretches the axis, the others' range and the domain that shows them", () => {
    const bad = aapl().withColumns(
      pl.when(pl.col("TradeDate").eq(pl.lit(new Date("2023-12-05")))).then(pl.lit(2000)).otherwise(pl.col("ClosePrice")).alias(
        "ClosePrice",
      ),
    );
    const chart = k.timeSeriesChart(bad, { x: "TradeDate", y: "ClosePrice", title: "t" });
    const others = aapl().filter(pl.col("TradeDate").neq(pl.lit(new Date("2023-12-05")))).getColumn("ClosePrice");
    expect([others.len(), others.min(), others.max()]).toEqual([62, 141.15, 170.17]);
    expect(chart.notes).toEqual([
      "One point stretches the y axis: 2,000 (2023-12-05); the other 62 run 141.15 to 170.17: { y: { domain: [140, 175] } } shows them",
    ]);
    expect(String((chart as unknown as Record<symbol, () => Record<string, string>>)[Symbol.for("Jupyter.display")]()["text/html"]))
      .toContain("\u26a0 One point stretches the y axis");
    expect(k.timeSeriesChart(aapl(), { x: "TradeDate", y: "ClosePrice", title: "t" }).notes).toEqual([]);
  });

  it("counts the points a y domain leaves out", () => {
    const chart = k.timeSeriesChart(aapl(), { x: "TradeDate", y: "ClosePrice", title: "t" }, { y: { domain: [150, 160] } });
    const close = pl.col("ClosePrice");
    const [above, below] = [aapl().filter(close.gt(160)).height, aapl().filter(close.lt(150)).height];
    expect([above, below, aapl().height]).toEqual([21, 14, 63]);
    expect(chart.notes).toEqual(["35 of 63 points lie outside the y domain 150 to 160 (21 above, 14 below) and are not drawn"]);
  });
});
