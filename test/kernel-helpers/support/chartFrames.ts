/**
 * Small deterministic frames for the chart tests (seeded noise, dates parsed from text and
 * instants given in UTC, so nothing depends on the machine's time zone), and the chart cases
 * drawn from them: one golden file each.
 */
import pl from "nodejs-polars";
import * as k from "../../../kernel-helpers/mod.ts";
import { tradingSessions } from "../../../workbench/mod.ts";

/** mulberry32: a tiny seeded generator, so the noise is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (x: number, digits: number) => Number(x.toFixed(digits));

/** A Date column from YYYY-MM-DD text. */
export const dates = (name: string, values: string[]) => pl.Series(name, values).str.strptime(pl.Date, "%Y-%m-%d");

/** A Datetime(ns, America/New_York) column from UTC instants, as the workbench types time columns. */
export function newYorkTimes(name: string, utc: string[]): pl.Series {
  const ms = pl.DataFrame([pl.Series(name, utc.map((s) => new Date(s)), pl.Datetime("ms"))]);
  return ms.select(pl.col(name).cast(pl.Datetime("ns")).dt.replaceTimeZone("UTC").dt.convertTimeZone("America/New_York")).getColumn(name);
}

/** Ten-minute bars of 2023-11-21 (EST, UTC-5) from 04:00 to 19:50 New York: spread in bps per ticker. */
export function intradayBars(): pl.DataFrame {
  const rnd = seeded(7);
  const rows: { utc: string; ticker: string; bps: number }[] = [];
  for (const [ticker, level] of [["AAPL", 1.2], ["MSFT", 1.6]] as const) {
    for (let m = 240; m < 1200; m += 10) {
      const regular = m >= 570 && m < 960;
      const utc = new Date(Date.UTC(2023, 10, 21, 5) + m * 60_000).toISOString();
      rows.push({ utc, ticker, bps: round(level * (regular ? 1 + 0.6 * Math.exp(-(m - 570) / 30) : 6) * (0.8 + 0.4 * rnd()), 3) });
    }
  }
  return pl.DataFrame([
    dates("TradeDate", rows.map(() => "2023-11-21")),
    newYorkTimes("BarDateTime", rows.map((r) => r.utc)),
    pl.Series("Ticker", rows.map((r) => r.ticker)),
    pl.Series("SpreadBps", rows.map((r) => r.bps)),
  ]).withColumns(
    pl.col("BarDateTime").dt.hour().cast(pl.Int32).mul(60).add(pl.col("BarDateTime").dt.minute().cast(pl.Int32)).alias("Minute"),
  );
}

/** Daily OHLC over the tiny market's days (Thanksgiving 11-23 closed): a seeded random walk. */
export function dailyBars(): pl.DataFrame {
  const rnd = seeded(11);
  const days = ["2023-11-20", "2023-11-21", "2023-11-22", "2023-11-24", "2023-11-27", "2023-11-28"];
  let close = 190;
  const bars = days.map(() => {
    const open = round(close + (rnd() - 0.5) * 2, 2);
    close = round(open + (rnd() - 0.5) * 4, 2);
    return { open, close, high: round(Math.max(open, close) + rnd(), 2), low: round(Math.min(open, close) - rnd(), 2) };
  });
  return pl.DataFrame([
    dates("TradeDate", days),
    ...(["open", "high", "low", "close"] as const).map((f) => pl.Series(`${f[0].toUpperCase()}${f.slice(1)}Price`, bars.map((b) => b[f]))),
  ]);
}

const EXPIRIES = ["2023-12-01", "2023-12-15", "2024-01-19", "2024-03-15"];

/** Open-interest-weighted IV and open interest by expiry, for two trade dates. */
export function termStructure(): pl.DataFrame {
  const rnd = seeded(3);
  const rows = ["2023-11-21", "2023-11-22"].flatMap((day, d) =>
    EXPIRIES.map((e, i) => ({ day, e, iv: round(0.2 + 0.01 * i - 0.004 * d + 0.004 * rnd(), 4), oi: Math.round(20000 + 60000 * rnd()) }))
  );
  return pl.DataFrame([
    dates("TradeDate", rows.map((r) => r.day)),
    dates("ExpirationDate", rows.map((r) => r.e)),
    pl.Series("OiWeightedIV", rows.map((r) => r.iv)),
    pl.Series("OpenInterest", rows.map((r) => r.oi), pl.Int64),
  ]);
}

/** Strike by expiry: open interest (clustered on round strikes) and an implied vol smile, spot 180. */
export function chain(): pl.DataFrame {
  const rnd = seeded(5);
  const rows = EXPIRIES.slice(0, 3).flatMap((e, i) =>
    [170, 172.5, 175, 177.5, 180, 182.5, 185, 187.5, 190].map((strike) => ({
      e,
      strike,
      oi: Math.round((strike % 5 === 0 ? 4000 : 600) * (0.5 + rnd()) / (1 + i)),
      iv: round(0.21 + 0.02 * i + 0.00012 * (strike - 180) ** 2 - 0.001 * (strike - 180) + 0.003 * rnd(), 4),
    }))
  );
  return pl.DataFrame([
    dates("ExpirationDate", rows.map((r) => r.e)),
    pl.Series("Strike", rows.map((r) => r.strike)),
    pl.Series("OpenInterest", rows.map((r) => r.oi), pl.Int64),
    pl.Series("MidImpliedVol", rows.map((r) => r.iv)),
  ]);
}

/** One-minute bars on 2023-11-22 (a full day) and 2023-11-24 (early close at 13:00), 09:30 to the close. */
export function twoSessions(): pl.DataFrame {
  const rnd = seeded(13);
  const rows: { utc: string; ticker: string; price: number }[] = [];
  for (const [ticker, level] of [["AAPL", 190], ["MSFT", 378]] as const) {
    let price: number = level;
    for (const [day, close] of [["2023-11-22", 960], ["2023-11-24", 780]] as const) {
      for (let m = 570; m < close; m += 5) {
        price = round(price + (rnd() - 0.5) * 0.4, 2);
        rows.push({ utc: new Date(Date.parse(`${day}T05:00:00Z`) + m * 60_000).toISOString(), ticker, price });
      }
    }
  }
  return pl.DataFrame([
    newYorkTimes("BarDateTime", rows.map((r) => r.utc)),
    pl.Series("Ticker", rows.map((r) => r.ticker)),
    pl.Series("ClosePrice", rows.map((r) => r.price)),
  ]);
}

/** Daily bars across a new year (2023-12-27 to 2024-01-05), for year labels. */
function acrossNewYear(): pl.DataFrame {
  const days = ["2023-12-27", "2023-12-28", "2023-12-29", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"];
  const daily = dailyBars().head(6);
  const open = [...daily.getColumn("OpenPrice").toArray(), 191] as number[];
  return pl.DataFrame([
    dates("TradeDate", days),
    pl.Series("OpenPrice", open),
    pl.Series("HighPrice", open.map((o) => o + 2)),
    pl.Series("LowPrice", open.map((o) => o - 2)),
    pl.Series("ClosePrice", open.map((o, i) => o + (i % 2 ? 1 : -1))),
  ]);
}

/** Daily closes of two tickers over three months (2023-11-01 to 2024-01-31, the demo market's span): a seeded walk. */
export function threeMonths(): pl.DataFrame {
  const rnd = seeded(17);
  const days: string[] = [];
  for (let t = Date.parse("2023-11-01T00:00:00Z"); t <= Date.parse("2024-01-31T00:00:00Z"); t += 86_400_000) {
    const d = new Date(t).toISOString().slice(0, 10);
    // Weekdays but Thanksgiving, Christmas and New Year's Day, as the calendar has them.
    if (![0, 6].includes(new Date(t).getUTCDay()) && !["2023-11-23", "2023-12-25", "2024-01-01"].includes(d)) days.push(d);
  }
  const rows = (["AAPL", "MSFT"] as const).flatMap((ticker, k) => {
    let close = k ? 190 : 170;
    return days.map((day) => {
      const open = round(close * (1 + (rnd() - 0.5) * 0.01), 2);
      close = round(open * (1 + (rnd() - 0.48) * 0.03), 2);
      return {
        day,
        ticker,
        open,
        close,
        high: round(Math.max(open, close) * (1 + 0.008 * rnd()), 2),
        low: round(Math.min(open, close) * (1 - 0.008 * rnd()), 2),
      };
    });
  });
  return pl.DataFrame([
    dates("TradeDate", rows.map((r) => r.day)),
    pl.Series("Ticker", rows.map((r) => r.ticker)),
    ...(["open", "high", "low", "close"] as const).map((f) => pl.Series(`${f[0].toUpperCase()}${f.slice(1)}Price`, rows.map((r) => r[f]))),
  ]);
}

/** SPY-like expiries on 2023-11-21: every trading day for three weeks, then monthlies out to two years. */
export function dailyExpiries(): pl.DataFrame {
  const expiries = [
    "2023-11-21",
    "2023-11-22",
    "2023-11-24",
    "2023-11-27",
    "2023-11-28",
    "2023-11-29",
    "2023-11-30",
    "2023-12-01",
    "2023-12-04",
    "2023-12-05",
    "2023-12-06",
    "2023-12-07",
    "2023-12-08",
    "2023-12-15",
    "2024-01-19",
    "2024-02-16",
    "2024-03-15",
    "2024-06-21",
    "2024-09-20",
    "2024-12-20",
    "2025-06-20",
    "2025-12-19",
  ];
  const days = expiries.map((e) => (Date.parse(`${e}T00:00:00Z`) - Date.parse("2023-11-21T00:00:00Z")) / 86_400_000);
  return pl.DataFrame([
    dates("TradeDate", expiries.map(() => "2023-11-21")),
    dates("ExpirationDate", expiries),
    pl.Series("AtmIV", days.map((d) => round(0.1 + 0.05 * Math.sqrt(d / 365) + (d === 0 ? 0.04 : 0), 4))),
  ]);
}

/** Open interest on uneven strikes, as a real chain lists them: 1 apart near the money, 5 further out, 25 far out. */
export function denseStrikes(): pl.DataFrame {
  const strikes = [
    ...Array.from({ length: 10 }, (_, i) => 200 + 25 * i),
    ...Array.from({ length: 20 }, (_, i) => 425 + 5 * i),
    ...Array.from({ length: 40 }, (_, i) => 430 + 1 * i + 0.5),
    ...Array.from({ length: 10 }, (_, i) => 525 + 25 * i),
  ]
    .sort((a, b) => a - b);
  const rnd = seeded(23);
  const rows = EXPIRIES.slice(0, 3).flatMap((e) =>
    strikes.map((strike) => ({ e, strike, oi: Math.round(1000 * rnd() * Math.exp(-(((strike - 450) / 60) ** 2))) }))
  );
  return pl.DataFrame([
    dates("ExpirationDate", rows.map((r) => r.e)),
    pl.Series("Strike", rows.map((r) => r.strike)),
    pl.Series("OpenInterest", rows.map((r) => r.oi), pl.Int64),
  ]);
}

/** Ten-minute mids 09:30-16:00 (13:00 on 2023-11-24) of every trading day from 2023-11-20 to 2023-12-15: a seeded walk. */
export function fourWeeksOfBars(): pl.DataFrame {
  const rnd = seeded(29);
  const days = tradingSessions("2023-11-20", "2023-12-15");
  const utc: string[] = [], mids: number[] = [];
  let mid = 190;
  for (const d of days) {
    for (let m = d.openMinute; m < d.closeMinute; m += 10) {
      utc.push(new Date(Date.parse(`${d.date}T05:00:00Z`) + m * 60_000).toISOString());
      mid = round(mid + (rnd() - 0.5) * 0.6, 2);
      mids.push(mid);
    }
  }
  return pl.DataFrame([newYorkTimes("BarDateTime", utc), pl.Series("Mid", mids)]);
}

/** Daily closes of a ticker near 170 and one near 450 (threeMonths' MSFT scaled): panels of different magnitudes. */
export function twoMagnitudes(): pl.DataFrame {
  return threeMonths().select("TradeDate", "Ticker", "ClosePrice").withColumns(
    pl.when(pl.col("Ticker").eq(pl.lit("MSFT"))).then(pl.col("ClosePrice").mul(2.3)).otherwise(pl.col("ClosePrice")).alias("ClosePrice"),
    pl.when(pl.col("Ticker").eq(pl.lit("MSFT"))).then(pl.lit("SPY")).otherwise(pl.col("Ticker")).alias("Ticker"),
  );
}

/** Every chart case by golden name: its markup, and the HTML the notebook shows (title above it). */
export function chartCases(): Record<string, { markup: string; html: string }> {
  const bars = intradayBars(), daily = dailyBars(), ts = termStructure(), options = chain();
  const charts = {
    "intraday-profile": k.intradayProfileChart(bars.filter(pl.col("Ticker").eq(pl.lit("AAPL"))), {
      minute: "BarDateTime",
      y: "SpreadBps",
      title: "AAPL quoted spread",
      yLabel: "spread (bps)",
    }),
    "intraday-profile-by-ticker": k.intradayProfileChart(bars, {
      minute: "Minute",
      y: "SpreadBps",
      series: "Ticker",
      title: "Quoted spread by minute",
      subtitle: "2023-11-21, ten-minute bars",
    }),
    "candlestick": k.candlestickChart(daily, {
      date: "TradeDate",
      open: "OpenPrice",
      high: "HighPrice",
      low: "LowPrice",
      close: "ClosePrice",
      title: "AAPL daily",
    }),
    "term-structure": k.termStructureChart(ts, {
      x: "ExpirationDate",
      y: "OiWeightedIV",
      series: "TradeDate",
      title: "IV term structure",
      xLabel: "expiry",
      yLabel: "OI-weighted IV",
    }),
    "term-structure-bars": k.termStructureChart(ts.head(EXPIRIES.length), {
      x: "ExpirationDate",
      y: "OpenInterest",
      bars: true,
      title: "Open interest by expiry",
      xLabel: "expiry",
      yLabel: "open interest",
    }),
    "heatmap": k.heatmapChart(options, {
      x: "Strike",
      y: "ExpirationDate",
      fill: "OpenInterest",
      title: "Open interest",
      xLabel: "strike",
      yLabel: "expiry",
      fillLabel: "open interest",
    }),
    "smile": k.smileChart(options, {
      x: "Strike",
      y: "MidImpliedVol",
      series: "ExpirationDate",
      spot: 180,
      title: "AAPL smile",
      xLabel: "strike",
      yLabel: "implied vol",
    }),
    // Overrides: regular hours only, a fixed y range, a size, a margin and an extra mark.
    "intraday-profile-overrides": k.intradayProfileChart(bars.filter(pl.col("Ticker").eq(pl.lit("AAPL"))), {
      minute: "BarDateTime",
      y: "SpreadBps",
      title: "AAPL regular hours",
    }, {
      x: { domain: [570, 960] },
      y: { domain: [0, 3] },
      width: 640,
      height: 260,
      marginRight: 30,
      marks: [k.Plot.ruleY([1.5], { stroke: "red" })],
    }),
    // Volumes in the millions: compact tick labels ("7M"), the left margin fitted to them.
    "intraday-profile-volume": k.intradayProfileChart(
      bars.filter(pl.col("Ticker").eq(pl.lit("AAPL"))).withColumns(pl.col("SpreadBps").mul(1_000_000).alias("Volume")),
      { minute: "Minute", y: "Volume", title: "Volume by minute" },
    ),
    "time-series": k.timeSeriesChart(twoSessions(), {
      x: "BarDateTime",
      y: "ClosePrice",
      series: "Ticker",
      title: "Closes around Thanksgiving",
    }, { y: { type: "log" } }),
    "candlestick-new-year": k.candlestickChart(acrossNewYear(), {
      date: "TradeDate",
      open: "OpenPrice",
      high: "HighPrice",
      low: "LowPrice",
      close: "ClosePrice",
      title: "Across the new year",
    }, { height: 260 }),
    "smile-overrides": k.smileChart(options, { x: "Strike", y: "MidImpliedVol", series: "ExpirationDate", title: "Smile, zoomed" }, {
      x: { domain: [175, 185] },
      clip: true,
    }),
    "term-structure-overrides": k.termStructureChart(ts, {
      x: "ExpirationDate",
      y: "OiWeightedIV",
      series: "TradeDate",
      title: "IV term structure, fixed range",
    }, { y: { domain: [0.15, 0.3], tickFormat: ".0%" }, height: 240 }),
    "heatmap-overrides": k.heatmapChart(options, { x: "Strike", y: "ExpirationDate", fill: "MidImpliedVol", title: "Implied vol" }, {
      color: { scheme: "viridis", tickFormat: ".0%" },
      marginBottom: 50,
    }),
    // Issue 21: daily axes on trading days alike, facets, daily expiries, dense strikes.
    "time-series-daily": k.timeSeriesChart(threeMonths(), {
      x: "TradeDate",
      y: "ClosePrice",
      series: "Ticker",
      title: "Daily closes over three months",
    }),
    "candlestick-facets": k.candlestickChart(threeMonths(), {
      date: "TradeDate",
      open: "OpenPrice",
      high: "HighPrice",
      low: "LowPrice",
      close: "ClosePrice",
      title: "Two tickers, one panel each",
    }, { fy: "Ticker" }),
    "term-structure-facets": k.termStructureChart(ts.withColumns(pl.col("TradeDate").cast(pl.String).alias("Day")), {
      x: "ExpirationDate",
      y: "OiWeightedIV",
      title: "IV term structure, one panel per trade date",
    }, { fy: "Day" }),
    "term-structure-daily-expiries": k.termStructureChart(dailyExpiries(), {
      x: "ExpirationDate",
      y: "AtmIV",
      title: "Daily expiries and two-year ones",
    }),
    "heatmap-dense-strikes": k.heatmapChart(denseStrikes(), {
      x: "Strike",
      y: "ExpirationDate",
      fill: "OpenInterest",
      title: "Open interest on uneven strikes",
    }),
    // Issue 38: several days of minute bars on trading time; panels of different magnitudes on their own y scales.
    "time-series-trading-time": k.timeSeriesChart(fourWeeksOfBars(), {
      x: "BarDateTime",
      y: "Mid",
      title: "Ten-minute mids over four weeks",
    }),
    "time-series-facets": k.timeSeriesChart(twoMagnitudes(), { x: "TradeDate", y: "ClosePrice", title: "Closes, one panel each" }, {
      fy: "Ticker",
    }),
    "plot-spec": k.plot({
      marks: [k.Plot.dot(termStructure().toRecords(), { x: "OpenInterest", y: "OiWeightedIV", fill: "steelblue", title: "OpenInterest" })],
      x: { inset: 10 },
      y: { grid: true, inset: 10 },
    }, { title: "plot() of any spec" }),
  };
  const bundle = (c: object) => (c as Record<symbol, () => Record<string, unknown>>)[Symbol.for("Jupyter.display")]();
  return Object.fromEntries(Object.entries(charts).map(([name, c]) => [name, { markup: c.markup, html: String(bundle(c)["text/html"]) }]));
}
