/**
 * The one module a notebook imports: the workbench and the kernel helpers together, with rich
 * display turned on in the Deno kernel (frames, Series, LazyFrames and the workbench's own
 * objects), so no setup line is needed.
 *
 * @example
 * ```ts
 * import { connect, sandbox, timeSeriesChart } from "./notebook.ts";
 * const local = await sandbox();
 * const wb = await connect({ baseUrl: local.baseUrl, apiKey: local.keys.fullAccess });
 * ```
 *
 * @module
 */
export * from "./workbench/mod.ts";
export * from "./kernel-helpers/mod.ts";
