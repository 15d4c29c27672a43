/**
 * A value over date-time (a Datetime column, e.g. `BarDateTime`) on a New York time axis:
 * one line per series, broken at every gap between sessions (nights, weekends, holidays, or
 * missing bars), each day's regular session shaded as the calendar gives it (early closes).
 * Over a Date column (daily data) the lines run from trading day to trading day on the same
 * trading-day axis as `candlestickChart` (no weekends, ticks on the first trading day of each
 * week or month), unshaded.
 */
import type pl from "nodejs-polars";
import { ChartOptionError } from "./chartOptionError.ts";
import { checkHelperOptions, facetsOf, panelHeight } from "./facets.ts";
import { records } from "./frameData.ts";
import { type PlotOverrides, withOverrides } from "./overrides.ts";
import { asDisplayable, Plot, renderChart, type DisplayableChart } from "./render.ts";
import { atMinute, dayOf, HOVER_LIMIT, sessionsBetween } from "./session.ts";
import { tradingDayAxis } from "./tradingDayAxis.ts";
import { valueScale } from "./valueScale.ts";

const KNOWN = ["x", "y", "series", "title", "subtitle", "yLabel", "xLabel", "shadeRegularHours"];
const HELPER = "timeSeriesChart";

/** The columns `timeSeriesChart` draws, its titles and its shading. */
export interface TimeSeriesOptions {
  /** A Datetime column (or Date), shown as New York wall clock. */
  x: string;
  /** The value column. */
  y: string;
  /** Column naming the series (one line each), optional. */
  series?: string;
  /** Title shown above the chart. */
  title: string;
  /** A second line under the title, optional. */
  subtitle?: string;
  /** Label of the y axis (default: the column's name). */
  yLabel?: string;
  /** Axis label (default "New York time", or the column's name for a Date column). */
  xLabel?: string;
  /** Shade each day's regular session (default true; never for a Date column). */
  shadeRegularHours?: boolean;
}

const pad = (n: number) => String(n).padStart(2, "0");
const hhmm = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;

/** Tick text for a New York wall-clock instant: the time within a day, the date when days (or years) change. */
function timeFormat(first: Date, last: Date): (d: Date) => string {
  const oneDay = dayOf(first) === dayOf(last), oneYear = first.getUTCFullYear() === last.getUTCFullYear();
  return (d) => {
    const date = oneYear ? dayOf(d).slice(5) : dayOf(d);
    if (oneDay) return hhmm(d);
    return d.getUTCHours() === 0 && d.getUTCMinutes() === 0 ? date : `${date} ${hhmm(d)}`;
  };
}

/** Segment keys: a new segment at each day change or gap wider than three typical steps. */
function segments(xs: Date[]): number[] {
  const steps = xs.slice(1).map((x, i) => x.getTime() - xs[i].getTime()).filter((s) => s > 0).sort((a, b) => a - b);
  const typical = steps.length ? steps[Math.floor(steps.length / 2)] : 0;
  let segment = 0;
  return xs.map((x, i) => {
    if (i > 0 && (dayOf(x) !== dayOf(xs[i - 1]) || x.getTime() - xs[i - 1].getTime() > 3 * typical)) segment++;
    return segment;
  });
}

/**
 * A time series chart; the axis reads "New York time", lines never join across a gap.
 *
 * @example
 * ```ts
 * const bars = await wb.data.eqTaq1Min(["AAPL", "MSFT"], { date: "2023-11-21" });
 * timeSeriesChart(bars, { x: "BarDateTime", y: "ClosePrice", series: "Ticker", title: "Closes, New York time" }, { y: { domain: [180, 200] } });
 * ```
 */
export function timeSeriesChart(frame: pl.DataFrame, o: TimeSeriesOptions, overrides: PlotOverrides = {}): DisplayableChart {
  checkHelperOptions(o, KNOWN, HELPER);
  const facets = facetsOf(frame, overrides, HELPER);
  const daily = frame.columns.includes(o.x) && frame.getColumn(o.x).dtype.variant === "Date";
  const type = (overrides.x as { type?: string } | undefined)?.type;
  if (daily && type !== undefined && type !== "point") {
    throw new ChartOptionError("x.type", `${HELPER} draws a Date column on the trading-day axis (a point scale, as candlestickChart); x.type ${JSON.stringify(type)} cannot place its days (leave x.type out, or draw with plot())`);
  }
  const labels = [...(o.series ? [o.series] : []), ...facets.columns];
  const rows = records(frame, [o.x, o.y, ...labels], labels).filter((r) => r[o.x] instanceof Date);
  const bySeries = new Map<string, Record<string, unknown>[]>();
  for (const r of rows) {
    const key = [o.series, ...facets.columns].map((c) => (c ? String(r[c]) : "")).join("\u0000");
    const list = bySeries.get(key);
    if (list) list.push(r);
    else bySeries.set(key, [r]);
  }
  const data = [...bySeries.entries()].flatMap(([key, list]) => {
    list.sort((a, b) => (a[o.x] as Date).getTime() - (b[o.x] as Date).getTime());
    const seg = daily ? list.map(() => 0) : segments(list.map((r) => r[o.x] as Date));
    // Daily rows are placed on the trading-day axis by their day's text.
    return list.map((r, i): Record<string, unknown> => ({ ...r, ...(daily ? { [o.x]: dayOf(r[o.x] as Date) } : {}), segment: `${key}#${seg[i]}` }));
  });
  const xs = rows.map((r) => r[o.x] as Date).sort((a, b) => a.getTime() - b.getTime());
  const first = xs[0] ?? new Date(0), last = xs.at(-1) ?? new Date(0);
  const shade = daily || o.shadeRegularHours === false || xs.length === 0 ? [] : sessionsBetween(dayOf(first), dayOf(last)).map((d) => ({
    x1: atMinute(d.date, d.openMinute), x2: atMinute(d.date, d.closeMinute), label: `${d.date} regular session${d.earlyClose ? " (early close)" : ""}`,
  }));
  const title = (r: Record<string, unknown>) => `${o.series ? `${r[o.series]} ` : ""}${daily ? r[o.x] : `${dayOf(r[o.x] as Date)} ${hhmm(r[o.x] as Date)}`}: ${r[o.y]}`;
  const fxy = facets.channels;
  return asDisplayable(renderChart(withOverrides({
    height: panelHeight(320, facets.panelsDown),
    x: daily
      ? { type: "point", label: o.xLabel ?? o.x, ...tradingDayAxis(data.map((r) => r[o.x] as string)) }
      : { type: "utc", label: o.xLabel ?? "New York time", tickFormat: timeFormat(first, last) },
    y: valueScale(o.yLabel ?? o.y, { zero: false }, facets.panelsDown > 1 ? 192 : 320),
    color: o.series ? { legend: true, type: "categorical" } : undefined,
    marks: [
      Plot.rectX(shade, { clip: true, x1: "x1", x2: "x2", fill: "#000", fillOpacity: 0.05, title: "label" }),
      Plot.lineY(data, { clip: true, x: o.x, y: o.y, z: "segment", stroke: o.series ?? "steelblue", strokeWidth: 1.2, ...fxy }),
      ...(data.length <= HOVER_LIMIT ? [Plot.dot(data, { clip: true, x: o.x, y: o.y, r: 3, fill: "currentColor", fillOpacity: 0, title, ...fxy })] : []),
    ],
  }, facets.overrides), { title: o.title, subtitle: o.subtitle }));
}
