/**
 * A value over date-time (a Datetime column, e.g. `BarDateTime`) in New York time: one line
 * per series, broken at every gap between sessions (nights, weekends, holidays, or missing
 * bars), each day's regular session shaded as the calendar gives it (early closes). One day is
 * drawn on its clock; several days on a trading-time axis (tradingTime.ts: no nights, weekends
 * or holidays, ticks at session opens). Over a Date column (daily data) the lines run from
 * trading day to trading day on the same trading-day axis as `candlestickChart`, unshaded.
 * Any other x (a strike, a number) is refused, naming the chart that fits.
 */
import type { ScaleOptions } from "@observablehq/plot";
import type pl from "nodejs-polars";
import { ChartOptionError } from "./chartOptionError.ts";
import { checkColumnKind } from "./columnKinds.ts";
import { checkHelperOptions, facetsOf, panelHeight } from "./facets.ts";
import { records, shown } from "./frameData.ts";
import { type PlotOverrides, withOverrides } from "./overrides.ts";
import { type FacetY, panelY } from "./panelScales.ts";
import { valueNotes } from "./rangeNotes.ts";
import { asDisplayable, type DisplayableChart, Plot, renderChart } from "./render.ts";
import { atMinute, dayOf, HOVER_LIMIT, sessionsBetween } from "./session.ts";
import { tradingDayAxis } from "./tradingDayAxis.ts";
import { spansDays, tradingTime } from "./tradingTime.ts";

const KNOWN = ["x", "y", "series", "title", "subtitle", "yLabel", "xLabel", "shadeRegularHours", "facetY"];
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
  /**
   * With panels (`{ fy: "Ticker" }`): one y scale for all (`"shared"`) or one per panel
   * (`"independent"`); by default each panel gets its own when their values differ in magnitude.
   */
  facetY?: FacetY;
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

/** Why x cannot be drawn over time, and what draws it. */
function notTemporalHint(frame: pl.DataFrame, o: TimeSeriesOptions): string {
  const variant = frame.getColumn(o.x).dtype.variant;
  if (variant === "String" || variant === "Utf8") {
    return `if it holds dates as text, make it a Date first: frame.withColumns(pl.col("${o.x}").str.strptime(pl.Date, "%Y-%m-%d"))`;
  }
  return `for ${o.y} by ${o.x} draw smileChart(frame, { x: "${o.x}", y: "${o.y}", ... }) (implied vol by strike) or a scatter: plot({ marks: [Plot.dot(frame.toRecords(), { x: "${o.x}", y: "${o.y}" })] })`;
}

/**
 * A time series chart in New York time; lines never join across a gap. Several days of
 * intraday data are drawn on a trading-time axis (no nights, weekends or holidays; ticks at
 * session opens); `{ x: { type: "utc" } }` draws them on the clock instead.
 *
 * @example
 * ```ts
 * const bars = await wb.data.eqTaq1Min(["AAPL", "MSFT"], { date: "2023-11-21" });
 * timeSeriesChart(bars, { x: "BarDateTime", y: "ClosePrice", series: "Ticker", title: "Closes, New York time" }, { y: { domain: [180, 200] } });
 * ```
 */
export function timeSeriesChart(frame: pl.DataFrame, o: TimeSeriesOptions, overrides: PlotOverrides = {}): DisplayableChart {
  checkHelperOptions(o, KNOWN, HELPER);
  checkColumnKind(frame, o.x, "temporal", HELPER, "x", frame.columns.includes(o.x) ? notTemporalHint(frame, o) : "");
  const facets = facetsOf(frame, overrides, HELPER);
  const daily = frame.columns.includes(o.x) && frame.getColumn(o.x).dtype.variant === "Date";
  const type = (overrides.x as { type?: string } | undefined)?.type;
  if (daily && type !== undefined && type !== "point") {
    throw new ChartOptionError(
      "x.type",
      `${HELPER} draws a Date column on the trading-day axis (a point scale, as candlestickChart); x.type ${
        JSON.stringify(type)
      } cannot place its days (leave x.type out, or draw with plot())`,
    );
  }
  const labels = [...(o.series ? [o.series] : []), ...facets.columns];
  const rows = records(frame, [o.x, o.y, ...labels], labels).filter((r) => r[o.x] instanceof Date);
  const xs = rows.map((r) => r[o.x] as Date).sort((a, b) => a.getTime() - b.getTime());
  const first = xs[0] ?? new Date(0), last = xs.at(-1) ?? new Date(0);
  // Several days of intraday data: trading time, unless the caller asks for the clock.
  const trading = !daily && spansDays(xs) && (type === undefined || type === "linear") ? tradingTime(xs) : undefined;
  if (trading && (overrides.x as { domain?: unknown } | undefined)?.domain !== undefined) {
    throw new ChartOptionError(
      "x.domain",
      `${HELPER} draws several days on a trading-time axis, whose positions are not times: filter the frame to the times to show, or give { x: { type: "utc", domain: [...] } } for a clock-time axis`,
    );
  }
  const bySeries = new Map<string, Record<string, unknown>[]>();
  for (const r of rows) {
    const key = [o.series, ...facets.columns].map((c) => (c ? String(r[c]) : "")).join("\u0000");
    const list = bySeries.get(key);
    if (list) list.push(r);
    else bySeries.set(key, [r]);
  }
  const X = trading ? "__tradingTime" : o.x;
  const data = [...bySeries.entries()].flatMap(([key, list]) => {
    list.sort((a, b) => (a[o.x] as Date).getTime() - (b[o.x] as Date).getTime());
    const seg = daily ? list.map(() => 0) : segments(list.map((r) => r[o.x] as Date));
    // Daily rows are placed on the trading-day axis by their day's text; intraday rows of several days by trading time.
    return list.map((r, i): Record<string, unknown> => ({
      ...r,
      ...(daily ? { [o.x]: dayOf(r[o.x] as Date) } : {}),
      ...(trading ? { [X]: trading.position(r[o.x] as Date) } : {}),
      segment: `${key}#${seg[i]}`,
    }));
  });
  const shade = daily || o.shadeRegularHours === false || xs.length === 0
    ? []
    : trading
    ? trading.sessions.map((d) => ({ x1: d.x1, x2: d.x2, label: `${d.date} regular session${d.earlyClose ? " (early close)" : ""}` }))
    : sessionsBetween(dayOf(first), dayOf(last)).map((d) => ({
      x1: atMinute(d.date, d.openMinute),
      x2: atMinute(d.date, d.closeMinute),
      label: `${d.date} regular session${d.earlyClose ? " (early close)" : ""}`,
    }));
  const when = (r: Record<string, unknown>) => (daily ? String(r[o.x]) : `${dayOf(r[o.x] as Date)} ${hhmm(r[o.x] as Date)}`);
  const title = (r: Record<string, unknown>) => `${o.series ? `${r[o.series]} ` : ""}${when(r)}: ${shown(r, o.y)}`;
  const fxy = facets.channels;
  const perPanel = facets.panelsDown > 1 ? 192 : 320;
  const py = panelY({
    data,
    fields: [o.y],
    panel: fxy.fy,
    choice: o.facetY,
    label: o.yLabel ?? o.y,
    panelHeight: perPanel,
    scale: { zero: false },
    overrides: facets.overrides,
    helper: HELPER,
  });
  const where = (r: Record<string, unknown>) =>
    [...facets.columns, ...(o.series ? [o.series] : [])].map((c) => `${r[c]} `).join("") + when(r);
  const clockX = !daily && !trading ? { field: o.x, format: (v: number) => `${dayOf(new Date(v))} ${hhmm(new Date(v))}` } : undefined;
  const notes = valueNotes({
    data,
    fields: [o.y],
    overrides: facets.overrides,
    panel: py.independent ? fxy.fy : undefined,
    where,
    x: clockX,
  });
  const x = daily
    ? { type: "point", label: o.xLabel ?? o.x, ...tradingDayAxis(data.map((r) => r[o.x] as string)) }
    : trading
    ? { ...trading.scale, label: o.xLabel ?? "New York time, trading hours only" }
    : { type: "utc", label: o.xLabel ?? "New York time", tickFormat: timeFormat(first, last) };
  return asDisplayable(renderChart(
    withOverrides({
      height: panelHeight(320, facets.panelsDown),
      x: x as ScaleOptions,
      y: py.y,
      color: o.series ? { legend: true, type: "categorical" } : undefined,
      marks: [
        ...py.marks,
        Plot.rectX(shade, { clip: true, x1: "x1", x2: "x2", fill: "#000", fillOpacity: 0.05, title: "label" }),
        Plot.lineY(data, { clip: true, x: X, y: py.field(o.y), z: "segment", stroke: o.series ?? "steelblue", strokeWidth: 1.2, ...fxy }),
        ...(data.length <= HOVER_LIMIT
          ? [Plot.dot(data, { clip: true, x: X, y: py.field(o.y), r: 3, fill: "currentColor", fillOpacity: 0, title, ...fxy })]
          : []),
      ],
    }, facets.overrides),
    { title: o.title, subtitle: o.subtitle, notes: [...notes, ...(py.note ? [py.note] : [])] },
  ));
}
