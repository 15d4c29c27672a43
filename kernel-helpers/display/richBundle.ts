/**
 * Which rich rendering a cell's value gets: Polars frames, Series and LazyFrames, the
 * workbench's entitlements, estimates, statuses, download results and errors. Anything else
 * keeps the kernel's own display (undefined).
 */
import type pl from "nodejs-polars";
import { type CacheCheck, type DatasetStatus, displayKindOf, type DownloadResult, Entitlements, type Estimate, WorkbenchError } from "../../workbench/mod.ts";
import { chartFromElement } from "../charts/chartBundle.ts";
import { isChartElement } from "../charts/document.ts";
import { entitlementCardBundle } from "../entitlements/card.ts";
import { cacheCheckBundle, downloadBundle, errorBundle, estimateBundle, statusBundle } from "./cards.ts";
import { type FrameDisplayOptions, frameBundle } from "./frameHtml.ts";
import type { MediaBundle } from "./jupyter.ts";
import { lazyBundle, polarsKind, seriesBundle } from "./polarsValues.ts";

/**
 * The rich media bundle for `value`, or undefined when it has none.
 *
 * @example
 * ```ts
 * richBundle(df)?.["text/html"];
 * ```
 */
export function richBundle(value: unknown, options: FrameDisplayOptions = {}): MediaBundle | undefined {
  switch (polarsKind(value)) {
    case "DataFrame":
      return frameBundle(value as pl.DataFrame, options);
    case "Series":
      return seriesBundle(value as pl.Series, options);
    case "LazyDataFrame":
      return lazyBundle(value as pl.LazyDataFrame);
  }
  // What Plot.plot() returns in a cell (see charts/document.ts).
  if (isChartElement(value)) return chartFromElement(value).bundle;
  if (value instanceof Entitlements) return entitlementCardBundle(value);
  if (value instanceof WorkbenchError) return errorBundle(value);
  switch (displayKindOf(value)) {
    case "estimate":
      return estimateBundle(value as Estimate);
    case "dataset-status":
      return statusBundle(value as DatasetStatus);
    case "download-result":
      return downloadBundle(value as DownloadResult);
    case "cache-check":
      return cacheCheckBundle(value as CacheCheck);
  }
  return undefined;
}
