/**
 * Faceting for every chart helper, as Plot spells it: `{ fy: "Ticker" }` (or `fx`, or
 * `facet: { y: "Ticker" }`) names a column, and the helper's data marks get that column as
 * their facet channel, one panel per value. Marks without the column (session shading, a spot
 * rule) repeat in every panel.
 */
import type * as Plot from "@observablehq/plot";
import type pl from "nodejs-polars";
import { ChartOptionError } from "./chartOptionError.ts";
import { checkPlotOptions, type PlotOverrides } from "./overrides.ts";

/** The facet channels a helper spreads into its data marks, and the overrides left for Plot. */
export interface Facets {
  /** Facet columns the records must carry. */
  columns: string[];
  /** Channels for each data mark, e.g. `{ fy: "Ticker" }`. */
  channels: { fx?: string; fy?: string };
  /** The caller's overrides with the facet column names taken out (scale options kept). */
  overrides: Plot.PlotOptions;
  /** Panels one above the other (1 without `fy`), for the default height. */
  panelsDown: number;
}

/**
 * Reads the facet columns out of a helper's overrides, after refusing any option Plot does
 * not know.
 *
 * @example
 * ```ts
 * const f = facetsOf(frame, { fy: "Ticker", height: 500 }, "termStructureChart");
 * // f.channels: { fy: "Ticker" }, f.overrides: { height: 500 }
 * ```
 */
export function facetsOf(frame: pl.DataFrame, overrides: PlotOverrides, helper: string): Facets {
  checkPlotOptions(overrides, helper);
  const rest: Record<string, unknown> = { ...overrides };
  const channels: { fx?: string; fy?: string } = {};
  const facet = overrides.facet as (Plot.PlotFacetOptions & { data?: unknown }) | undefined;
  if (facet && typeof facet === "object") {
    if (facet.data !== undefined) {
      throw new ChartOptionError(
        "facet.data",
        `${helper} draws its own records, so top-level facet data cannot match them: give the column instead, e.g. { fy: "Ticker" } or { facet: { y: "Ticker" } }`,
      );
    }
    const { x, y, ...scaleDefaults } = facet as Record<string, unknown>;
    for (const [axis, value] of [["fx", x], ["fy", y]] as const) {
      if (value === undefined) continue;
      if (typeof value !== "string") {
        throw new ChartOptionError(
          `facet.${axis.slice(1)}`,
          `${helper} facets by a column name; facet.${axis.slice(1)} is ${JSON.stringify(value)}`,
        );
      }
      channels[axis] = value;
    }
    rest.facet = scaleDefaults;
  }
  for (const axis of ["fx", "fy"] as const) {
    const value = overrides[axis];
    if (typeof value === "string") {
      channels[axis] = value;
      delete rest[axis];
    }
  }
  const columns = [...new Set(Object.values(channels))];
  for (const [axis, column] of Object.entries(channels)) {
    if (!frame.columns.includes(column)) {
      throw new ChartOptionError(
        axis,
        `${helper} cannot facet by '${column}' (${axis}): the frame has no such column; it has ${frame.columns.join(", ")}`,
      );
    }
  }
  const panelsDown = channels.fy ? frame.getColumn(channels.fy).nUnique() : 1;
  return { columns, channels, overrides: rest as Plot.PlotOptions, panelsDown };
}

/**
 * The default height of a chart of `panels` panels one above the other: the helper's height for
 * one, a little over half of it for each when several share the axes.
 *
 * @example
 * ```ts
 * panelHeight(320, 3); // 636
 * ```
 */
export const panelHeight = (height: number, panels: number) => (panels <= 1 ? height : Math.round(panels * height * 0.6 + 60));

/**
 * Refuses a helper option the helper does not have (JavaScript callers, or `as` casts, get no
 * type check), e.g. `series` on `candlestickChart`.
 *
 * @example
 * ```ts
 * checkHelperOptions(o, ["date", "open", "high", "low", "close", "title", "subtitle", "yLabel"], "candlestickChart");
 * ```
 */
export function checkHelperOptions(o: object, known: readonly string[], helper: string, hint = ""): void {
  for (const key of Object.keys(o)) {
    if (!known.includes(key)) {
      throw new ChartOptionError(key, `${helper} has no option '${key}'${hint ? ` (${hint})` : ""}; its options are ${known.join(", ")}`);
    }
  }
}
