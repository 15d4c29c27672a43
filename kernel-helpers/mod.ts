/**
 * What only a notebook needs on top of the workbench: rich display of frames, a live
 * progress bar, the entitlements card, and Observable Plot charts rendered inline as SVG.
 *
 * @example
 * ```ts
 * import { progressBar, intradayProfileChart } from "./kernel-helpers/mod.ts";
 * // importing this module in the Deno kernel installs rich display for frames and workbench objects
 * ```
 *
 * @module
 */
import { installDisplay } from "./display/install.ts";
import { inKernel } from "./display/jupyter.ts";

if (inKernel()) installDisplay();

export { installDisplay, show } from "./display/install.ts";
export { richBundle } from "./display/richBundle.ts";
export { formatBytes } from "./display/bytes.ts";
export { describe } from "./frames/describe.ts";
export { type FrameDisplayOptions, frameBundle } from "./display/frameHtml.ts";
export { displayable, inKernel, type MediaBundle, showBundle } from "./display/jupyter.ts";
export { progressBar, type ProgressBarOptions } from "./progress/progressBar.ts";
export { progressBundle, progressLine, type RichProgressEvent } from "./progress/view.ts";
export { entitlementCard, entitlementCardBundle, explain } from "./entitlements/card.ts";
export { type Chart, Plot, renderChart } from "./charts/render.ts";
export { type PlotOverrides } from "./charts/overrides.ts";
export { plot } from "./charts/plot.ts";
export { timeSeriesChart, type TimeSeriesOptions } from "./charts/timeSeries.ts";
export { intradayProfileChart } from "./charts/intradayProfile.ts";
export { candlestickChart } from "./charts/candlestick.ts";
export { termStructureChart } from "./charts/termStructure.ts";
export { heatmapChart } from "./charts/heatmap.ts";
export { smileChart } from "./charts/smile.ts";
