/** Intraday profile: a value by minute of day (New York time), one line per series. */
import type pl from "nodejs-polars";
import { checkHelperOptions, facetsOf, panelHeight } from "./facets.ts";
import { clock, minuteOfDay, records, shown } from "./frameData.ts";
import { type PlotOverrides, withOverrides } from "./overrides.ts";
import { type FacetY, panelY } from "./panelScales.ts";
import { valueNotes } from "./rangeNotes.ts";
import { asDisplayable, type DisplayableChart, Plot, renderChart } from "./render.ts";
import { dayOf, HOVER_LIMIT, sessionsBetween } from "./session.ts";

const KNOWN = ["minute", "y", "series", "title", "subtitle", "yLabel", "shadeRegularHours", "sessionDate", "facetY"];
const HELPER = "intradayProfileChart";

/** The columns `intradayProfileChart` draws, its titles and its shading. */
export interface IntradayProfileOptions {
  /**
   * Column with minutes after midnight (New York), e.g. 570 for 09:30, or a Datetime column such
   * as `BarDateTime` (placed by its New York wall clock: one day's bars, or one line per day).
   */
  minute: string;
  /** Value column. */
  y: string;
  /** Column naming the series (one line each), optional. */
  series?: string;
  /** Title shown above the chart. */
  title: string;
  /** A second line under the title, optional. */
  subtitle?: string;
  /** Label of the y axis (default: the column's name). */
  yLabel?: string;
  /** Shade regular hours (default true): the calendar's session of each day in a Datetime column, else 09:30-16:00. */
  shadeRegularHours?: boolean;
  /** With a minute-number column: the date whose session to shade (e.g. an early close, "2023-11-24"). */
  sessionDate?: string;
  /** With panels (`{ fy: "Ticker" }`): one y scale for all, or one per panel (default: one each when their values differ in magnitude). */
  facetY?: FacetY;
}

/** Distinct regular sessions [open, close] in minutes, of the days a Datetime column covers. */
function sessions(days: string[], sessionDate?: string): [number, number][] {
  const wanted = sessionDate ? [sessionDate] : days;
  if (wanted.length === 0) return [[570, 960]];
  const sorted = [...wanted].sort();
  const trading = sessionsBetween(sorted[0], sorted.at(-1)!).filter((d) => wanted.includes(d.date));
  const distinct = new Map(trading.map((d) => [`${d.openMinute}-${d.closeMinute}`, [d.openMinute, d.closeMinute] as [number, number]]));
  return [...distinct.values()];
}

/**
 * The x range shown: the data's hours (whole hours around the first and last bar).
 */
function hours(values: number[]): [number, number] {
  if (values.length === 0) return [240, 1200];
  return [Math.floor(Math.min(...values) / 60) * 60, Math.ceil((Math.max(...values) + 1) / 60) * 60];
}

/**
 * A value by minute of day. The x range follows the data (override with `{ x: { domain: [570, 960] } }`),
 * y fits the data (not from zero) with round ends beyond it, the left margin fits the tick
 * labels; facet with `{ fy: "Ticker" }`, or take a log scale with `{ y: { type: "log" } }`.
 *
 * @example
 * ```ts
 * const bars = withMinuteOfDay(await wb.data.eqTaq1Min(["AAPL", "MSFT"], { date: "2023-11-21" }));
 * intradayProfileChart(bars, { minute: "MinuteOfDay", y: "ClosePrice", series: "Ticker", title: "Close by minute" }, { x: { domain: [570, 960] } });
 * ```
 */
export function intradayProfileChart(frame: pl.DataFrame, o: IntradayProfileOptions, overrides: PlotOverrides = {}): DisplayableChart {
  checkHelperOptions(o, KNOWN, HELPER);
  const facets = facetsOf(frame, overrides, HELPER);
  const days = new Set<string>();
  const labels = [...(o.series ? [o.series] : []), ...facets.columns];
  const data = records(frame, [o.minute, o.y, ...labels], labels).map((r) => {
    if (!(r[o.minute] instanceof Date)) return r;
    days.add(dayOf(r[o.minute] as Date));
    return { ...r, [o.minute]: minuteOfDay(r[o.minute] as Date) };
  });
  const fitted = hours(data.map((r) => r[o.minute] as number).filter(Number.isFinite));
  const [from, to] = (overrides.x as { domain?: [number, number] } | undefined)?.domain ?? fitted;
  // Whole hours inside the domain shown (the caller's, when given).
  const ticks = Array.from({ length: Math.floor((to - from) / 60) + 2 }, (_, i) => Math.ceil(from / 60) * 60 + 60 * i).filter((t) =>
    t >= from && t <= to
  );
  const step = Math.max(1, Math.ceil(ticks.length / 12));
  const shade = o.shadeRegularHours === false
    ? []
    : sessions([...days], o.sessionDate).map(([open, close]) => ({ open, close, label: `regular session ${clock(open)}-${clock(close)}` }));
  const title = (r: Record<string, unknown>) => `${o.series ? `${r[o.series]} ` : ""}${clock(r[o.minute] as number)}: ${shown(r, o.y)}`;
  const fxy = facets.channels;
  const py = panelY({
    data,
    fields: [o.y],
    panel: fxy.fy,
    choice: o.facetY,
    label: o.yLabel ?? o.y,
    panelHeight: facets.panelsDown > 1 ? 192 : 320,
    scale: { zero: false },
    overrides: facets.overrides,
    helper: HELPER,
  });
  const where = (r: Record<string, unknown>) =>
    [...facets.columns, ...(o.series ? [o.series] : [])].map((c) => `${r[c]} `).join("") + clock(r[o.minute] as number);
  const notes = valueNotes({
    data,
    fields: [o.y],
    overrides: facets.overrides,
    panel: py.independent ? fxy.fy : undefined,
    where,
    x: { field: o.minute, format: clock },
  });
  return asDisplayable(renderChart(
    withOverrides({
      height: panelHeight(320, facets.panelsDown),
      x: { label: "New York time", domain: fitted, ticks: ticks.filter((_, i) => i % step === 0), tickFormat: clock },
      y: py.y,
      color: o.series ? { legend: true, type: "categorical" } : undefined,
      marks: [
        ...py.marks,
        Plot.rectX(shade, { clip: true, x1: "open", x2: "close", fill: "#000", fillOpacity: 0.05, title: "label" }),
        Plot.lineY(data, {
          clip: true,
          x: o.minute,
          y: py.field(o.y),
          stroke: o.series ?? "steelblue",
          strokeWidth: 1.2,
          title: o.series ? (r: Record<string, unknown>) => String(r[o.series!]) : undefined,
          ...fxy,
        }),
        // Invisible dots carry each point's hover title (an SVG <title>); skipped on very long frames.
        ...(data.length <= HOVER_LIMIT
          ? [Plot.dot(data, { clip: true, x: o.minute, y: py.field(o.y), r: 3, fill: "currentColor", fillOpacity: 0, title, ...fxy })]
          : []),
      ],
    }, facets.overrides),
    { title: o.title, subtitle: o.subtitle, notes: [...notes, ...(py.note ? [py.note] : [])] },
  ));
}
