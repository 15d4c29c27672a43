/** Volatility smile: implied vol by strike (or moneyness), one line per expiry, with the spot marked. */
import type pl from "nodejs-polars";
import { checkHelperOptions, facetsOf, panelHeight } from "./facets.ts";
import { records, shown } from "./frameData.ts";
import { checkColumnKind } from "./columnKinds.ts";
import { valueText } from "./numberText.ts";
import { type PlotOverrides, withOverrides } from "./overrides.ts";
import { type FacetY, panelY } from "./panelScales.ts";
import { valueNotes } from "./rangeNotes.ts";
import { asDisplayable, type DisplayableChart, Plot, renderChart } from "./render.ts";

const KNOWN = ["x", "y", "series", "spot", "title", "subtitle", "xLabel", "yLabel", "facetY"];
const HELPER = "smileChart";

/** The columns `smileChart` draws, and its titles. */
export interface SmileOptions {
  /** The strike (or moneyness) column. */
  x: string;
  /** The implied volatility column (a fraction; drawn in percent), e.g. `MidImpliedVol`. */
  y: string;
  /** Column naming the series (one line each, e.g. `ExpirationDate`), optional. */
  series?: string;
  /** Underlying price (or 1 for moneyness), drawn as a vertical rule. */
  spot?: number;
  /** Title shown above the chart. */
  title: string;
  /** A second line under the title, optional. */
  subtitle?: string;
  /** Label of the x axis (default: the column's name). */
  xLabel?: string;
  /** Label of the y axis (default: the column's name). */
  yLabel?: string;
  /** With panels (`{ fy: "Ticker" }`): one vol axis for all, or one per panel (default: one each when their vols differ in magnitude). */
  facetY?: FacetY;
}

/**
 * Implied vol in percent by strike; each dot's hover title gives expiry, strike and vol. The y
 * axis ends on round values beyond the data, so the steepest wing is drawn whole; facet
 * several underlyings with `{ fy: "Ticker" }`.
 *
 * @example
 * ```ts
 * const greeks = await wb.data.optGreeksDaily("AAPL", { date: "2023-11-21" });
 * smileChart(greeks, { x: "Strike", y: "MidImpliedVol", series: "ExpirationDate", spot: 173.02, title: "AAPL smile" }, { x: { domain: [150, 200] } });
 * ```
 */
export function smileChart(frame: pl.DataFrame, o: SmileOptions, overrides: PlotOverrides = {}): DisplayableChart {
  checkHelperOptions(o, KNOWN, HELPER);
  const facets = facetsOf(frame, overrides, HELPER);
  checkColumnKind(
    frame,
    o.x,
    "number",
    HELPER,
    "x",
    "give the strike (or moneyness) column; for a value by expiry draw termStructureChart, over time timeSeriesChart",
  );
  const labels = [...(o.series ? [o.series] : []), ...facets.columns];
  const data = records(frame, [o.x, o.y, ...labels], labels);
  const title = (r: Record<string, unknown>) =>
    `${o.series ? `${r[o.series]}\n` : ""}${o.xLabel ?? o.x} ${shown(r, o.x)}\n${o.yLabel ?? o.y} ${
      ((r[o.y] as number) * 100).toFixed(1)
    }%`;
  const fxy = facets.channels;
  const percent = (v: number) => `${Math.round(v * 1000) / 10}%`;
  const py = panelY({
    data,
    fields: [o.y],
    panel: fxy.fy,
    choice: o.facetY,
    label: o.yLabel ?? o.y,
    panelHeight: facets.panelsDown > 1 ? 204 : 340,
    format: percent,
    overrides: facets.overrides,
    helper: HELPER,
  });
  const where = (r: Record<string, unknown>) =>
    [...facets.columns, ...(o.series ? [o.series] : [])].map((c) => `${r[c]} `).join("") + `${o.xLabel ?? o.x} ${shown(r, o.x)}`;
  const notes = valueNotes({
    data,
    fields: [o.y],
    overrides: facets.overrides,
    panel: py.independent ? fxy.fy : undefined,
    where,
    x: { field: o.x },
  });
  return asDisplayable(renderChart(
    withOverrides({
      height: panelHeight(340, facets.panelsDown),
      x: { label: o.xLabel ?? o.x, insetLeft: 8, insetRight: 8 },
      y: py.y,
      color: o.series ? { legend: true, type: "categorical" } : undefined,
      marks: [
        ...py.marks,
        ...(o.spot !== undefined
          ? [Plot.ruleX([o.spot], { stroke: "#999", strokeDasharray: "4,3", title: () => `spot ${valueText(o.spot)}` })]
          : []),
        Plot.lineY(data, { clip: true, x: o.x, y: py.field(o.y), stroke: o.series ?? "steelblue", strokeWidth: 1.3, ...fxy }),
        Plot.dot(data, { clip: true, x: o.x, y: py.field(o.y), fill: o.series ?? "steelblue", r: 2, title, ...fxy }),
      ],
    }, facets.overrides),
    { title: o.title, subtitle: o.subtitle, notes: [...notes, ...(py.note ? [py.note] : [])] },
  ));
}
