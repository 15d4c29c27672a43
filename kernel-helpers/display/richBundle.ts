/**
 * Which rich rendering a cell's value gets: Polars frames, Series and LazyFrames, the
 * workbench's entitlements, estimates, statuses, download results and errors. Anything else
 * keeps the kernel's own display (undefined).
 */
import type pl from "nodejs-polars";
import { Entitlements } from "../../workbench/api/entitlements.ts";
import type { DatasetStatus } from "../../workbench/api/meta.ts";
import { displayKindOf } from "../../workbench/display/kind.ts";
import { WorkbenchError } from "../../workbench/errors/base.ts";
import type { DownloadResult } from "../../workbench/store/download.ts";
import type { Estimate } from "../../workbench/guard/estimate.ts";
import { chartFromElement } from "../charts/chartBundle.ts";
import { isChartElement } from "../charts/document.ts";
import { entitlementCardBundle } from "../entitlements/card.ts";
import { cacheCheckBundle, downloadBundle, errorBundle, estimateBundle, statusBundle } from "./cards.ts";
import type { CacheCheck } from "../../workbench/store/cache.ts";
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
