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
import { installDisplay } from "./rich/install.ts";
import { inKernel } from "./display/jupyter.ts";
import { installEditor } from "./editor/service.ts";
import { listenForInterrupts } from "./kernel/interrupts.ts";

if (inKernel()) {
  installDisplay();
  // Through the project's kernel relay: the stop button interrupts workbench calls; Tab and Shift+Tab read the help index.
  listenForInterrupts();
  installEditor();
}

// Workbench types in these helpers' signatures, so that this module's docs are whole on their own
// (notebook.ts exports them once: they are the workbench's own).
export type {
  AccessRule,
  Entitlements,
  Holding,
  Identity,
  ProgressEvent,
  ProgressListener,
  Quotas,
  Verdict,
  WorkbenchError,
} from "../workbench/mod.ts";

export { installDisplay, show } from "./rich/install.ts";
export { richBundle } from "./rich/richBundle.ts";
export { formatBytes } from "./display/bytes.ts";
export { describe } from "./frames/describe.ts";
export { frameBundle, type FrameDisplayOptions } from "./display/frameHtml.ts";
export { type Displayable, displayable, inKernel, JUPYTER_DISPLAY, type MediaBundle, showBundle } from "./display/jupyter.ts";
export { progressBar, type ProgressBarOptions } from "./progress/progressBar.ts";
export { type SharedListener } from "./progress/combine.ts";
export type { RichProgressEvent } from "./progress/view.ts";
export { entitlementCard, explain } from "./entitlements/card.ts";
export { type Chart, type ChartText, type DisplayableChart, Plot, renderChart } from "./charts/render.ts";
export { type PlotOverrides } from "./charts/overrides.ts";
export { type FacetY } from "./charts/panelScales.ts";
export { ChartOptionError } from "./charts/chartOptionError.ts";
export { plot } from "./charts/plot.ts";
export { timeSeriesChart, type TimeSeriesOptions } from "./charts/timeSeries.ts";
export { intradayProfileChart, type IntradayProfileOptions } from "./charts/intradayProfile.ts";
export { candlestickChart, type CandlestickOptions } from "./charts/candlestick.ts";
export { termStructureChart, type TermStructureOptions } from "./charts/termStructure.ts";
export { heatmapChart, type HeatmapOptions } from "./charts/heatmap.ts";
export { smileChart, type SmileOptions } from "./charts/smile.ts";
