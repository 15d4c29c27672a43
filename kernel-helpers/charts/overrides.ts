/**
 * A chart helper's defaults with the caller's Plot options applied last, as Plot itself treats
 * top-level options: scale options merge key by key (so `{ y: { domain: [0, 2] } }` keeps the
 * helper's label and grid), extra `marks` are drawn on top, anything else replaces the default.
 * An option Plot does not know is refused by name, never dropped.
 */
import type * as Plot from "@observablehq/plot";
import { ChartOptionError } from "./chartOptionError.ts";

/**
 * Plot options a caller passes to any chart helper to override its defaults. `fx` and `fy`
 * also take a column name, which facets the chart by that column (one panel per value).
 */
export type PlotOverrides = Partial<Omit<Plot.PlotOptions, "fx" | "fy">> & {
  /** Panels side by side, one per value of this column (or the fx scale's options). */
  fx?: string | Plot.ScaleOptions;
  /** Panels one above the other, one per value of this column (or the fy scale's options). */
  fy?: string | Plot.ScaleOptions;
};

const SCALES = ["x", "y", "fx", "fy", "color", "r", "opacity", "symbol", "length", "facet"] as const;

/** Every top-level option of Plot.plot() (Plot 0.6: PlotOptions, ScaleDefaults, InsetOptions). */
const PLOT_OPTIONS: readonly string[] = [
  "marks",
  "width",
  "height",
  "aspectRatio",
  "margin",
  "marginTop",
  "marginRight",
  "marginBottom",
  "marginLeft",
  "inset",
  "insetTop",
  "insetRight",
  "insetBottom",
  "insetLeft",
  "style",
  "className",
  "title",
  "subtitle",
  "caption",
  "figure",
  "ariaLabel",
  "ariaDescription",
  "document",
  "clip",
  "projection",
  "facet",
  ...SCALES,
  "clamp",
  "nice",
  "zero",
  "round",
  "align",
  "padding",
  "axis",
  "grid",
  "label",
  "labelArrow",
];

/**
 * Refuses any top-level option Plot does not know (a typo would otherwise change nothing).
 *
 * @example
 * ```ts
 * checkPlotOptions({ hieght: 200 }, "smileChart"); // throws ChartOptionError naming "hieght"
 * ```
 */
export function checkPlotOptions(overrides: object, helper: string): void {
  for (const key of Object.keys(overrides)) {
    if (PLOT_OPTIONS.includes(key)) continue;
    const close = PLOT_OPTIONS.filter((k) => k.toLowerCase() === key.toLowerCase() || sameLetters(k, key));
    throw new ChartOptionError(
      key,
      `${helper} cannot take '${key}': it is not a Plot option${close.length ? ` (did you mean '${close[0]}'?)` : ""}; Plot's options are ${
        PLOT_OPTIONS.join(", ")
      }`,
    );
  }
}

/** Same letters in another order or with one letter swapped: "hieght" for "height". */
const sameLetters = (a: string, b: string) =>
  a.length === b.length && [...a.toLowerCase()].sort().join("") === [...b.toLowerCase()].sort().join("");

/**
 * Merges the caller's overrides into a helper's defaults. A scale given a `domain` by the caller
 * loses the helper's `nice` (a domain asked for is the domain drawn); one given another `type`
 * (log, sqrt ...) loses the helper's `nice` and tick count, which suit a linear axis.
 *
 * @example
 * ```ts
 * withOverrides({ y: { label: "bps", grid: true }, marks }, { y: { domain: [0, 2] }, height: 240 });
 * ```
 */
export function withOverrides(defaults: Plot.PlotOptions, overrides: PlotOverrides = {}): Plot.PlotOptions {
  const merged: Record<string, unknown> = { ...defaults, ...overrides };
  for (const key of SCALES) {
    const base = (defaults as Record<string, unknown>)[key], extra = (overrides as Record<string, unknown>)[key];
    if (isPlain(base) && isPlain(extra)) {
      const scale: Record<string, unknown> = { ...base, ...extra };
      if ("domain" in extra && !("nice" in extra)) delete scale.nice;
      // The helper's nice round ends and tick count suit a linear axis: a log scale made nice
      // widens to powers of ten (the data a sliver of the axis), and its ticks need no count.
      if (typeof extra.type === "string" && extra.type !== "linear") {
        if (!("nice" in extra)) delete scale.nice;
        if (!("ticks" in extra) && typeof base.ticks === "number") delete scale.ticks;
      }
      merged[key] = scale;
    }
  }
  merged.marks = [...(defaults.marks ?? []), ...(overrides.marks ?? [])];
  return merged as Plot.PlotOptions;
}

const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
