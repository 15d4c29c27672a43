/**
 * The y axis of a chart's panels: one scale shared by every panel, or one per panel (`fy`) when
 * the panels' values differ in magnitude. Plot's facets share their scales, so a panel of AAPL
 * near 190 under one of SPY near 450 is drawn flat; independent panels are drawn on one scale
 * from 0 to 1, each row placed by its own panel's round domain, each panel with its own ticks.
 */
import * as Plot from "@observablehq/plot";
import type { ScaleOptions } from "@observablehq/plot";
import { ChartOptionError } from "./chartOptionError.ts";
import { compactTickFormat, tickLabels } from "./numberText.ts";
import type { PlotOverrides } from "./overrides.ts";
import { niceTicks, tickCount, valueScale } from "./valueScale.ts";

/** How the panels of a faceted chart share their y axis. */
export type FacetY = "shared" | "independent";

/** A panel is drawn on its own scale by default when its values span less than this share of all panels' span. */
const OWN_SCALE_BELOW = 0.35;

/** What a helper gives to lay out its y axis. */
export interface PanelYInput {
  /** The records drawn. */
  data: Record<string, unknown>[];
  /** The value fields the marks place on y (e.g. the close, or a candle's low and high). */
  fields: readonly string[];
  /** The `fy` column, when the chart has panels one above the other. */
  panel?: string;
  /** The caller's choice (the helper's `facetY` option), else chosen from the data. */
  choice?: FacetY;
  /** The y axis label. */
  label: string;
  /** Pixels of one panel (for the tick count). */
  panelHeight: number;
  /** More options of the shared scale (e.g. `{ zero: false }`). */
  scale?: ScaleOptions;
  /** Tick text of a value (e.g. percent); the default is compact from 100,000 on. */
  format?: (v: number) => string;
  /** The caller's Plot options (a y domain or a log type keeps one shared scale). */
  overrides: PlotOverrides;
  /** The helper's name, for the messages of a bad option (`timeSeriesChart`). */
  helper: string;
}

/** The y axis a helper draws with. */
export interface PanelY {
  /** Whether each panel has its own scale. */
  independent: boolean;
  /** The field a mark places on y for a value field (its place on the panel's scale when independent). */
  field: (name: string) => string;
  /** The chart's y scale options. */
  y: ScaleOptions;
  /** Each panel's grid and tick labels (none when shared). */
  marks: Plot.Markish[];
  /** A line for the chart's notes, when the panels do not share their scale. */
  note?: string;
}

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** Each panel's values, by the panel's label. */
function valuesByPanel(data: Record<string, unknown>[], fields: readonly string[], panel: string): Map<string, number[]> {
  const by = new Map<string, number[]>();
  for (const r of data) {
    const key = String(r[panel]);
    const list = by.get(key) ?? [];
    for (const f of fields) if (finite(r[f])) list.push(r[f] as number);
    by.set(key, list);
  }
  return by;
}

const extentOf = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];

/**
 * The y axis of a helper's chart: shared (Plot's one scale, ends on round ticks) or, with panels
 * of different magnitudes (or `facetY: "independent"`), one per panel.
 *
 * @example
 * ```ts
 * const py = panelY({ data, fields: ["ClosePrice"], panel: "Ticker", label: "close", panelHeight: 192, overrides: {}, helper: "timeSeriesChart" });
 * Plot.lineY(data, { x: "TradeDate", y: py.field("ClosePrice"), fy: "Ticker" });
 * ```
 */
export function panelY(input: PanelYInput): PanelY {
  const { data, fields, panel, choice, label, panelHeight, overrides, helper } = input;
  const callerY = (overrides.y ?? {}) as { domain?: unknown; type?: string };
  const fixed = callerY.domain !== undefined || (callerY.type !== undefined && callerY.type !== "linear");
  if (choice !== undefined && choice !== "shared" && choice !== "independent") {
    throw new ChartOptionError(
      "facetY",
      `${helper}: facetY is "shared" (one y scale for every panel) or "independent" (one per panel), not ${JSON.stringify(choice)}`,
    );
  }
  if (choice === "independent" && fixed) {
    throw new ChartOptionError(
      "facetY",
      `${helper}: facetY "independent" gives each panel its own linear y scale, which ${
        callerY.domain !== undefined ? "a y domain" : `y.type "${callerY.type}"`
      } cannot take: drop one of them`,
    );
  }
  const all = data.flatMap((r) => fields.map((f) => r[f]).filter(finite));
  const largest = all.length ? Math.max(...all.map(Math.abs)) : 0;
  const format = input.format ?? compactTickFormat(largest);
  const shared = (): PanelY => ({
    independent: false,
    field: (name) => name,
    y: valueScale(label, { ...input.scale, ...(format ? { tickFormat: format } : {}) }, panelHeight),
    marks: [],
  });
  if (!panel || fixed || choice === "shared" || all.length === 0) return shared();
  const panels = valuesByPanel(data, fields, panel);
  if (panels.size < 2) return shared();
  const [lo, hi] = extentOf(all);
  const spans = [...panels.values()].filter((v) => v.length > 0).map((v) => extentOf(v)).map(([a, b]) =>
    (b - a) / Math.max(1e-12, hi - lo)
  );
  if (choice === undefined && Math.min(...spans) >= OWN_SCALE_BELOW) return shared();

  const zero = input.scale?.zero === true;
  const domains = new Map<string, [number, number]>();
  const ticks: Record<string, unknown>[] = [];
  for (const [key, values] of panels) {
    if (values.length === 0) continue;
    const [a, b] = extentOf(values);
    const nice = niceTicks(zero ? Math.min(0, a) : a, zero ? Math.max(0, b) : b, tickCount(panelHeight));
    domains.set(key, nice.domain);
    const texts = input.format ? nice.ticks.map(input.format) : tickLabels(nice.ticks, nice.step);
    nice.ticks.forEach((t, i) =>
      ticks.push({ [panel]: key, position: (t - nice.domain[0]) / (nice.domain[1] - nice.domain[0]), text: texts[i] })
    );
  }
  const placed = (name: string) => `${name}\u0000${panel}`;
  for (const r of data) {
    const d = domains.get(String(r[panel]));
    for (const f of fields) r[placed(f)] = d && finite(r[f]) ? ((r[f] as number) - d[0]) / (d[1] - d[0]) : null;
  }
  const { zero: _zero, nice: _nice, ...rest } = input.scale ?? {};
  return {
    independent: true,
    field: placed,
    // The label stays on the chart's own axis, which draws no ticks; each panel draws its own.
    y: { ...valueScale(label, rest, panelHeight), domain: [0, 1], ticks: [], nice: false, grid: false },
    marks: [
      // A light frame round each panel: its ticks are its own, so the panels read apart.
      Plot.frame({ stroke: "#ddd" }),
      Plot.gridY(ticks, { y: "position", fy: panel }),
      Plot.axisY(ticks, { y: "position", text: "text", fy: panel, facetAnchor: "left", tickSize: 6 }),
    ],
    note: `Each panel has its own y scale (the panels' values differ in magnitude; { facetY: "shared" } puts them on one)`,
  };
}
