/**
 * A chart helper's defaults with the caller's Plot options applied last, as Plot itself treats
 * top-level options: scale options merge key by key (so `{ y: { domain: [0, 2] } }` keeps the
 * helper's label and grid), extra `marks` are drawn on top, anything else replaces the default.
 */
import type * as Plot from "@observablehq/plot";

/** Plot options a caller passes to any chart helper to override its defaults. */
export type PlotOverrides = Partial<Plot.PlotOptions>;

const SCALES = ["x", "y", "fx", "fy", "color", "r", "opacity", "symbol", "length", "facet"] as const;

/**
 * Merges the caller's overrides into a helper's defaults.
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
    if (isPlain(base) && isPlain(extra)) merged[key] = { ...base, ...extra };
  }
  merged.marks = [...(defaults.marks ?? []), ...(overrides.marks ?? [])];
  return merged as Plot.PlotOptions;
}

const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
