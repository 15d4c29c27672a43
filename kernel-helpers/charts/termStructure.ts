/**
 * Term structure: a value by expiry, one line per series, with dots (or bars). A Date expiry
 * is drawn by days to expiry from each row's trade date, on a scale that keeps daily expiries
 * apart (see expiryAxis.ts); without a trade date, one evenly spaced slot per expiry.
 */
import type pl from "nodejs-polars";
import { ChartOptionError } from "./chartOptionError.ts";
import { dateTickFormat } from "./dateTicks.ts";
import { daysBetween, daysToExpiryScale, thinned } from "./expiryAxis.ts";
import { checkHelperOptions, facetsOf, panelHeight } from "./facets.ts";
import { records } from "./frameData.ts";
import { type PlotOverrides, withOverrides } from "./overrides.ts";
import { asDisplayable, DEFAULT_WIDTH, Plot, renderChart, type DisplayableChart } from "./render.ts";
import { valueScale } from "./valueScale.ts";

/** The columns `termStructureChart` draws, and its titles. */
export interface TermStructureOptions {
  /** Expiry (a Date column) or days to maturity (a number column). For date-times use `timeSeriesChart`. */
  x: string;
  /** The value column, e.g. an implied volatility or open interest. */
  y: string;
  /** Column naming the series (one line each, e.g. `TradeDate`), optional. */
  series?: string;
  /** Title shown above the chart. */
  title: string;
  /** A second line under the title, optional. */
  subtitle?: string;
  /** Label of the x axis (default "days to expiry" for a Date expiry, else the column's name). */
  xLabel?: string;
  /** Label of the y axis (default: the column's name). */
  yLabel?: string;
  /** Draw bars instead of lines (e.g. open interest by expiry). */
  bars?: boolean;
  /**
   * The date days to expiry count from (YYYY-MM-DD) when the frame has no `TradeDate` column;
   * with neither, a Date expiry gets one evenly spaced slot per expiry.
   */
  asOf?: string;
}

const KNOWN = ["x", "y", "series", "title", "subtitle", "xLabel", "yLabel", "bars", "asOf"];
const HELPER = "termStructureChart";

const day = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v));
const DAYS = "__daysToExpiry";

/**
 * Lines (or bars) by expiry; each dot or bar's hover title gives its expiry and value. Facet
 * with `{ fy: "Ticker" }` (one panel per ticker), like any Plot option.
 *
 * @example
 * ```ts
 * const greeks = await wb.data.optGreeksDaily("AAPL", { date: "2023-11-21" });
 * const ivByExpiry = greeks.groupBy(["TradeDate", "ExpirationDate"]).agg(pl.col("MidImpliedVol").mean().alias("MeanIV")).sort("ExpirationDate");
 * termStructureChart(ivByExpiry, { x: "ExpirationDate", y: "MeanIV", title: "IV term structure" }, { y: { domain: [0.15, 0.3] } });
 * ```
 */
export function termStructureChart(frame: pl.DataFrame, o: TermStructureOptions, overrides: PlotOverrides = {}): DisplayableChart {
  checkHelperOptions(o, KNOWN, HELPER);
  const facets = facetsOf(frame, overrides, HELPER);
  const records_ = records(frame, [o.x, o.y, ...(o.series ? [o.series] : []), ...facets.columns], [...(o.series ? [o.series] : []), ...facets.columns]);
  const isTime = ["Date", "Datetime"].includes(frame.getColumn(o.x).dtype.variant);
  const tradeDate = o.asOf !== undefined ? undefined : frame.columns.includes("TradeDate") && frame.getColumn("TradeDate").dtype.variant === "Date" ? "TradeDate" : undefined;
  if (o.asOf !== undefined && Number.isNaN(Date.parse(`${o.asOf}T00:00:00Z`))) throw new ChartOptionError("asOf", `${HELPER}: asOf must be a date as YYYY-MM-DD; it is ${JSON.stringify(o.asOf)}`);
  const asOf = o.asOf !== undefined ? new Date(`${o.asOf}T00:00:00Z`) : undefined;
  const tradeDates = tradeDate ? (frame.getColumn(tradeDate).toArray() as unknown as (Date | null)[]) : [];
  const byDays = isTime && !o.bars && (asOf !== undefined || tradeDate !== undefined);
  const data = records_.map((r, i) => {
    const row: Record<string, unknown> = { ...r };
    if (byDays) {
      const from = asOf ?? tradeDates[i];
      row[DAYS] = from && r[o.x] instanceof Date ? daysBetween(from, r[o.x] as Date) : null;
    } else if (isTime) row[o.x] = day(r[o.x]);
    return row;
  });
  const x = byDays ? DAYS : o.x;
  const stroke = o.series ?? "steelblue";
  const fxy = facets.channels;
  const title = (r: Record<string, unknown>) =>
    `${o.series ? `${r[o.series]}\n` : ""}${isTime ? `expiry ${day(r[o.x])}${byDays ? ` (${r[DAYS]} days)` : ""}` : `${o.xLabel ?? o.x} ${r[o.x]}`}\n${o.yLabel ?? o.y} ${r[o.y]}`;
  const marks = o.bars
    ? [Plot.barY(data, { x, y: o.y, fill: stroke, title, ...fxy }), Plot.ruleY([0])]
    : [Plot.lineY(data, { clip: true, x, y: o.y, stroke, strokeWidth: 1.5, ...fxy }), Plot.dot(data, { clip: true, x, y: o.y, fill: stroke, r: 2.5, title, ...fxy })];
  const slots = [...new Set(data.map((r) => String(r[o.x])))].sort();
  const width = typeof overrides.width === "number" ? overrides.width : DEFAULT_WIDTH;
  const values = data.map((r) => r[x]).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  const callerType = (overrides.x as { type?: string } | undefined)?.type;
  const xScale = o.bars || (isTime && !byDays)
    // One slot per expiry (weeklies and monthlies equally wide), labels thinned to fit.
    ? { type: o.bars ? "band" : "point", label: o.xLabel ?? o.x, tickRotate: -40, ...(isTime ? { ticks: thinned(slots, Math.floor(width / 40)), tickFormat: dateTickFormat(thinned(slots, Math.floor(width / 40))) } : {}) }
    : byDays || (Math.min(...values) >= 0 && Math.max(...values) > 30 && callerType === undefined)
    ? { label: o.xLabel ?? (byDays ? "days to expiry" : o.x), ...daysToExpiryScale(Math.min(...values), Math.max(...values), width) }
    : { type: "linear", label: o.xLabel ?? o.x };
  if (callerType !== undefined && "ticks" in xScale) delete (xScale as Record<string, unknown>).ticks;
  const perPanel = facets.panelsDown > 1 ? 192 : 320;
  return asDisplayable(renderChart(withOverrides({
    height: panelHeight(320, facets.panelsDown),
    // Lines keep a few pixels free at both ends, so the first and last dots are drawn whole.
    x: { ...(o.bars ? {} : { insetLeft: 8, insetRight: 8 }), ...xScale } as Record<string, unknown>,
    marginBottom: o.bars || (isTime && !byDays) ? 60 : 30,
    y: o.bars ? valueScale(o.yLabel ?? o.y, { zero: true, insetBottom: 0 }, perPanel) : valueScale(o.yLabel ?? o.y, { zero: false }, perPanel),
    color: o.series ? { legend: true, type: "categorical" } : undefined,
    marks,
  }, facets.overrides), { title: o.title, subtitle: o.subtitle }));
}
