/**
 * Term structure: a value by expiry, one line per series, with dots (or bars). A Date expiry
 * is drawn by days to expiry from each row's trade date, on a scale that keeps daily expiries
 * apart (see expiryAxis.ts); without a trade date, one evenly spaced slot per expiry.
 */
import type { ScaleOptions } from "@observablehq/plot";
import type pl from "nodejs-polars";
import { ChartOptionError } from "./chartOptionError.ts";
import { dateTickFormat } from "./dateTicks.ts";
import { daysBetween, daysToExpiryScale, thinned } from "./expiryAxis.ts";
import { checkHelperOptions, facetsOf, panelHeight } from "./facets.ts";
import { records, shown } from "./frameData.ts";
import { type PlotOverrides, withOverrides } from "./overrides.ts";
import { type FacetY, panelY } from "./panelScales.ts";
import { valueNotes } from "./rangeNotes.ts";
import { asDisplayable, DEFAULT_WIDTH, type DisplayableChart, Plot, renderChart } from "./render.ts";

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
  /** With panels (`{ fy: "Ticker" }`): one y scale for all, or one per panel (default: one each when their values differ in magnitude). */
  facetY?: FacetY;
}

const KNOWN = ["x", "y", "series", "title", "subtitle", "xLabel", "yLabel", "bars", "asOf", "facetY"];
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
  const labels = [...(o.series ? [o.series] : []), ...facets.columns];
  const width = typeof overrides.width === "number" ? overrides.width : DEFAULT_WIDTH;
  const callerType = (overrides.x as { type?: string } | undefined)?.type;
  const { data, x, scale, slotted, isTime } = placeExpiries(frame, o, records(frame, [o.x, o.y, ...labels], labels), width, callerType);
  const stroke = o.series ?? "steelblue";
  const fxy = facets.channels;
  const where = (
    r: Record<string, unknown>,
  ) => (isTime ? `expiry ${day(r[o.x])}${x === DAYS ? ` (${r[DAYS]} days)` : ""}` : `${o.xLabel ?? o.x} ${shown(r, o.x)}`);
  const title = (r: Record<string, unknown>) => `${o.series ? `${r[o.series]}\n` : ""}${where(r)}\n${o.yLabel ?? o.y} ${shown(r, o.y)}`;
  const perPanel = facets.panelsDown > 1 ? 192 : 320;
  const py = panelY({
    data,
    fields: [o.y],
    panel: fxy.fy,
    choice: o.facetY,
    label: o.yLabel ?? o.y,
    panelHeight: perPanel,
    scale: o.bars ? { zero: true, insetBottom: 0 } : { zero: false },
    overrides: facets.overrides,
    helper: HELPER,
  });
  const y = py.field(o.y);
  const marks = o.bars ? [Plot.barY(data, { x, y, fill: stroke, title, ...fxy }), Plot.ruleY([0])] : [
    Plot.lineY(data, { clip: true, x, y, stroke, strokeWidth: 1.5, ...fxy }),
    Plot.dot(data, { clip: true, x, y, fill: stroke, r: 2.5, title, ...fxy }),
  ];
  const named = (r: Record<string, unknown>) =>
    [...facets.columns, ...(o.series ? [o.series] : [])].map((c) => `${r[c]} `).join("") + where(r);
  const notes = valueNotes({
    data,
    fields: [o.y],
    overrides: facets.overrides,
    panel: py.independent ? fxy.fy : undefined,
    where: named,
    stretch: !o.bars,
    x: x === o.x && !isTime ? { field: x } : undefined,
  });
  return asDisplayable(renderChart(
    withOverrides({
      height: panelHeight(320, facets.panelsDown),
      // Lines keep a few pixels free at both ends, so the first and last dots are drawn whole.
      x: { ...(o.bars ? {} : { insetLeft: 8, insetRight: 8 }), ...scale },
      marginBottom: slotted ? 60 : 30,
      y: py.y,
      color: o.series ? { legend: true, type: "categorical" } : undefined,
      marks: [...py.marks, ...marks],
    }, facets.overrides),
    { title: o.title, subtitle: o.subtitle, notes: [...notes, ...(py.note ? [py.note] : [])] },
  ));
}

/**
 * Where each row sits across, and the x scale: days to expiry from the row's trade date (or
 * `asOf`) for a Date expiry; one slot per expiry for bars, or when no trade date is known; a
 * number column as given (on the days-to-expiry scale when it runs past 30, e.g. days to maturity).
 */
/** Rows placed across, the column (or computed field) they are placed by, and the x scale. */
interface Placed {
  data: Record<string, unknown>[];
  x: string;
  scale: ScaleOptions;
  /** One slot per expiry (a band or point scale, labels turned). */
  slotted: boolean;
  /** The expiry is a Date (or Datetime) column. */
  isTime: boolean;
}

function placeExpiries(
  frame: pl.DataFrame,
  o: TermStructureOptions,
  rows: Record<string, unknown>[],
  width: number,
  callerType?: string,
): Placed {
  const isTime = ["Date", "Datetime"].includes(frame.getColumn(o.x).dtype.variant);
  if (o.asOf !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(o.asOf)) {
    throw new ChartOptionError("asOf", `${HELPER}: asOf must be a date as YYYY-MM-DD; it is ${JSON.stringify(o.asOf)}`);
  }
  const asOf = o.asOf !== undefined ? new Date(`${o.asOf}T00:00:00Z`) : undefined;
  const hasTradeDate = frame.columns.includes("TradeDate") && frame.getColumn("TradeDate").dtype.variant === "Date";
  const tradeDates = hasTradeDate ? (frame.getColumn("TradeDate").toArray() as unknown as (Date | null)[]) : [];
  if (isTime && !o.bars && (asOf || hasTradeDate)) {
    const data = rows.map((r, i) => {
      const from = asOf ?? tradeDates[i];
      return { ...r, [DAYS]: from && r[o.x] instanceof Date ? daysBetween(from, r[o.x] as Date) : null };
    });
    const days = data.map((r) => r[DAYS]).filter((v): v is number => v !== null);
    return {
      data,
      x: DAYS,
      scale: withoutTicks(
        { label: o.xLabel ?? "days to expiry", ...daysToExpiryScale(Math.min(...days), Math.max(...days), width) },
        callerType,
      ),
      slotted: false,
      isTime,
    };
  }
  if (o.bars || isTime) {
    // One slot per expiry (weeklies and monthlies equally wide), labels thinned to fit.
    const data = isTime ? rows.map((r) => ({ ...r, [o.x]: day(r[o.x]) })) : rows;
    const slots = [...new Set(data.map((r) => String(r[o.x])))].sort();
    const ticks = thinned(slots, Math.floor(width / 40));
    const dated = isTime ? { ticks, tickFormat: dateTickFormat(ticks) } : {};
    return {
      data,
      x: o.x,
      scale: { type: o.bars ? "band" : "point", label: o.xLabel ?? o.x, tickRotate: -40, ...dated } as ScaleOptions,
      slotted: true,
      isTime,
    };
  }
  const values = rows.map((r) => r[o.x]).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  const longDays = values.length > 0 && Math.min(...values) >= 0 && Math.max(...values) > 30 && callerType === undefined;
  const scale: ScaleOptions = longDays
    ? { label: o.xLabel ?? o.x, ...daysToExpiryScale(Math.min(...values), Math.max(...values), width) }
    : { type: "linear", label: o.xLabel ?? o.x };
  return { data: rows, x: o.x, scale, slotted: false, isTime };
}

/** The caller's own x type (log, linear ...) takes its own ticks, not the tenors. */
function withoutTicks(scale: ScaleOptions, callerType?: string): ScaleOptions {
  if (callerType === undefined) return scale;
  const { ticks: _, ...rest } = scale;
  return rest;
}
