/**
 * What only a notebook needs on top of the workbench: rich display of frames, a live
 * progress bar, the entitlements card, and Observable Plot charts rendered inline as SVG.
 *
 * @example
 * ```ts
 * import { installDisplay, progressBar, intradayProfileChart } from "./kernel-helpers/mod.ts";
 * installDisplay();
 * ```
 */
export { installDisplay, show } from "./display/install.ts";
export { type FrameDisplayOptions, frameBundle } from "./display/frameHtml.ts";
export { displayable, inKernel, type MediaBundle, showBundle } from "./display/jupyter.ts";
export { progressBar } from "./progress/progressBar.ts";
export { entitlementCard, entitlementCardBundle, explain } from "./entitlements/card.ts";
export { type Chart, renderChart } from "./charts/render.ts";
export { intradayProfileChart } from "./charts/intradayProfile.ts";
export { candlestickChart } from "./charts/candlestick.ts";
export { termStructureChart } from "./charts/termStructure.ts";
export { heatmapChart } from "./charts/heatmap.ts";
export { smileChart } from "./charts/smile.ts";
