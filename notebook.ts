/**
 * The one module a notebook imports (`market-workbench/notebook`): the workbench, the kernel
 * helpers and `sandbox()` together, with rich display turned on in the Deno kernel (frames,
 * Series, LazyFrames and the workbench's own objects), so no setup line is needed.
 *
 * @example
 * ```ts
 * import { connect, sandbox, timeSeriesChart } from "market-workbench/notebook";
 * const local = await sandbox();
 * const wb = await connect({ baseUrl: local.baseUrl, apiKey: local.keys.fullAccess });
 * ```
 *
 * @module
 */
export * from "./workbench/mod.ts";
export * from "./kernel-helpers/mod.ts";
export { DenoNotFoundError, type LocalSandbox, sandbox, type SandboxOptions, SandboxSettingError } from "./sandbox/launcher/mod.ts";
