/**
 * Series and LazyFrames for the notebook: a Series as a one-column table headed "Series"; a
 * LazyFrame as its schema and its optimized plan, with the hint that `collect` runs it.
 */
import pl from "nodejs-polars";
import { dtypeLabel } from "./dtypeLabel.ts";
import { frameBundle, type FrameDisplayOptions } from "./frameHtml.ts";
import { escapeHtml } from "./html.ts";
import type { MediaBundle } from "./jupyter.ts";

const tag = (value: unknown): string | undefined => {
  try {
    const t = (value as Record<symbol, unknown>)?.[Symbol.toStringTag];
    return typeof t === "function" ? t.call(value) : typeof t === "string" ? t : undefined;
  } catch {
    return undefined;
  }
};

/** Whether `value` is a nodejs-polars DataFrame, Series or LazyDataFrame (they are Proxies with no shared prototype). */
export const polarsKind = (value: unknown) => {
  if (value === null || typeof value !== "object") return undefined;
  const t = tag(value);
  return t === "DataFrame" || t === "Series" || t === "LazyDataFrame" ? t : undefined;
};

/**
 * What a Series shows as a cell's value: a one-column table with its dtype.
 *
 * @example
 * ```ts
 * seriesBundle(df.getColumn("Price"));
 * ```
 */
export function seriesBundle(series: pl.Series, options: FrameDisplayOptions = {}): MediaBundle {
  return frameBundle(pl.DataFrame([series]), { ...options, kind: "Series" });
}

/**
 * What a LazyFrame shows as a cell's value: its columns and dtypes, and its plan (nothing is collected).
 *
 * @example
 * ```ts
 * lazyBundle(wb.scan("downloads/aapl"));
 * ```
 */
export function lazyBundle(lf: pl.LazyDataFrame): MediaBundle {
  let schema: [string, string][] = [];
  try {
    // An empty collect resolves the schema from file metadata without reading the data.
    const empty = lf.limit(0).collectSync();
    schema = empty.columns.map((c) => [c, dtypeLabel(empty.getColumn(c).dtype)]);
  } catch {
    schema = lf.columns.map((c) => [c, "?"]);
  }
  let plan = "";
  try {
    plan = lf.describeOptimizedPlan();
  } catch (error) {
    plan = `(plan unavailable: ${(error as Error).message})`;
  }
  const hint = "Lazy: nothing is read until you call .collect() (or .collectSync()); e.g. lf.head(10).collectSync()";
  const html =
    `<div style="font:13px sans-serif"><div><b>LazyFrame</b> · ${schema.length} columns</div><div style="color:#555;margin:2px 0">${
      escapeHtml(hint)
    }</div><div style="font:12px monospace;margin:4px 0">${
      schema.map(([c, t]) => `${escapeHtml(c)}&nbsp;<span style="color:#888">${escapeHtml(t)}</span>`).join(" · ")
    }</div><details><summary>plan</summary><pre style="font-size:11px">${escapeHtml(plan)}</pre></details></div>`;
  const text = [`LazyFrame, ${schema.length} columns: ${schema.map(([c, t]) => `${c} ${t}`).join(", ")}`, hint, plan].join("\n");
  return { "text/html": html, "text/plain": text };
}
