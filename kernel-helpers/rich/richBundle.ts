/**
 * Which rich rendering a cell's value gets: Polars frames, Series and LazyFrames, the
 * workbench's entitlements, estimates, statuses, download results and errors, and the
 * workbench itself (a card of its service, identity, datasets and quota). Anything else keeps
 * the kernel's own display (undefined).
 */
import type pl from "nodejs-polars";
import {
  type CacheCheck,
  type DatasetStatus,
  displayKindOf,
  type DownloadResult,
  Entitlements,
  type Estimate,
  Workbench,
  WorkbenchError,
  type WorkbenchSummary,
} from "../../workbench/mod.ts";
import { chartFromElement } from "../charts/chartBundle.ts";
import { isChartElement } from "../charts/document.ts";
import { entitlementCardBundle } from "../entitlements/card.ts";
import { cacheCheckBundle, downloadBundle, errorBundle, estimateBundle, statusBundle, workbenchBundle } from "../display/cards.ts";
import { frameBundle, type FrameDisplayOptions } from "../display/frameHtml.ts";
import type { MediaBundle } from "../display/jupyter.ts";
import { lazyBundle, polarsKind, seriesBundle } from "../display/polarsValues.ts";

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
    case "workbench-summary":
      return workbenchBundle(value as WorkbenchSummary);
  }
  return undefined;
}

/**
 * `richBundle`, and for a workbench its card, which needs the account read first (free reads):
 * the service, the identity, its datasets and quota, never the key.
 *
 * @example
 * ```ts
 * (await richBundleAsync(wb))?.["text/plain"]; // "Workbench of …\n  service  http://…"
 * ```
 */
export async function richBundleAsync(value: unknown, options: FrameDisplayOptions = {}): Promise<MediaBundle | undefined> {
  if (value instanceof Workbench) return workbenchBundle(await value.summary());
  return richBundle(value, options);
}
