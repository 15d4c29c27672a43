/** Intraday profile: a value by minute of day (New York time), one line per series. */
import type pl from "nodejs-polars";
import { clock, minuteOfDay, records } from "./frameData.ts";
import { asDisplayable, Plot, renderChart } from "./render.ts";

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
  title: string;
  subtitle?: string;
  yLabel?: string;
  /** Shade regular hours 09:30-16:00 (default true). */
  shadeRegularHours?: boolean;
}

/**
 * @example
 * ```ts
 * intradayProfileChart(profile, { minute: "Minute", y: "SpreadBps", series: "Ticker", title: "Quoted spread by minute" });
 * ```
 */
export function intradayProfileChart(frame: pl.DataFrame, o: IntradayProfileOptions) {
  const data = records(frame, [o.minute, o.y, ...(o.series ? [o.series] : [])]).map((r) =>
    r[o.minute] instanceof Date ? { ...r, [o.minute]: minuteOfDay(r[o.minute] as Date) } : r
  );
  const marks = [
    ...(o.shadeRegularHours === false ? [] : [Plot.rectX([{ x1: 570, x2: 960 }], { x1: "x1", x2: "x2", fill: "#f0f0f0" })]),
    Plot.lineY(data, { x: o.minute, y: o.y, stroke: o.series ?? "steelblue", strokeWidth: 1.2 }),
    Plot.ruleY([0]),
  ];
  return asDisplayable(renderChart({
    width: 760,
    height: 320,
    marginLeft: 56,
    x: { label: "New York time", domain: [240, 1200], ticks: [240, 360, 480, 570, 720, 840, 960, 1080, 1200], tickFormat: clock },
    y: { label: o.yLabel ?? o.y, grid: true },
    color: o.series ? { legend: true, type: "categorical" } : undefined,
    marks,
  }, { title: o.title, subtitle: o.subtitle }));
}
