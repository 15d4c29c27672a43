/** Term structure: a value by expiry (or days to maturity), one line per series, with dots. */
import type pl from "nodejs-polars";
import { records } from "./frameData.ts";
import { asDisplayable, Plot, renderChart } from "./render.ts";

export interface TermStructureOptions {
  /** Expiry (a Date column) or days to maturity (a number column). */
  x: string;
  y: string;
  series?: string;
  title: string;
  subtitle?: string;
  xLabel?: string;
  yLabel?: string;
  /** Draw bars instead of lines (e.g. open interest by expiry). */
  bars?: boolean;
}

/**
 * @example
 * ```ts
 * termStructureChart(ivByExpiry, { x: "ExpirationDate", y: "OiWeightedIV", series: "TradeDate", title: "IV term structure" });
 * ```
 */
export function termStructureChart(frame: pl.DataFrame, o: TermStructureOptions) {
  const isTime = ["Date", "Datetime"].includes(frame.getColumn(o.x).dtype.variant);
  // Bars stand on a band of expiries (labelled YYYY-MM-DD), so weeklies and monthlies are equally wide.
  const data = records(frame, [o.x, o.y, ...(o.series ? [o.series] : [])]).map((r) =>
    o.bars && r[o.x] instanceof Date ? { ...r, [o.x]: (r[o.x] as Date).toISOString().slice(0, 10) } : r
  );
  const stroke = o.series ?? "steelblue";
  const marks = o.bars
    ? [Plot.barY(data, { x: o.x, y: o.y, fill: stroke }), Plot.ruleY([0])]
    : [Plot.lineY(data, { x: o.x, y: o.y, stroke, strokeWidth: 1.5 }), Plot.dot(data, { x: o.x, y: o.y, fill: stroke, r: 2.5 })];
  return asDisplayable(renderChart({
    width: 760,
    height: 320,
    marginLeft: 60,
    x: o.bars ? { type: "band", label: o.xLabel ?? o.x, tickRotate: -40 } : { type: isTime ? "utc" : "linear", label: o.xLabel ?? o.x },
    marginBottom: o.bars ? 60 : 30,
    y: { label: o.yLabel ?? o.y, grid: true, zero: o.bars === true },
    color: o.series ? { legend: true, type: "categorical" } : undefined,
    marks,
  }, { title: o.title, subtitle: o.subtitle }));
}
