/**
 * Starting the local sandbox (`market-workbench/sandbox`): a faithful local Datasets Service
 * over a deterministic synthetic market, run under Deno, so notebooks, teaching and tests work
 * offline. `sandbox()` starts one (or reuses the one running on the same market) and gives its
 * address and demo keys; `market-workbench/notebook` exports it too. The launcher runs the
 * service's command and never loads the service, nor the workbench, into this process.
 *
 * @example
 * ```ts
 * import { connect } from "market-workbench";
 * import { sandbox } from "market-workbench/sandbox";
 * const local = await sandbox({ profile: "tiny" });
 * const wb = await connect({ baseUrl: local.baseUrl, apiKey: local.keys.fullAccess });
 * ```
 *
 * @module
 */
export { type LocalSandbox, sandbox, type SandboxOptions } from "./local.ts";
export { SANDBOX_V8_FLAGS, type SandboxCommand, sandboxCommand, type SpawnedSandbox, type SpawnOptions, spawnSandbox } from "./spawn.ts";
export { HOME_VARIABLE, type SandboxHome, sandboxHome } from "./home.ts";
export { denoExecutable } from "./deno.ts";
export { DenoNotFoundError, SandboxSettingError } from "./errors.ts";
export { DEMO_KEYS, type DemoKeyRole } from "../../contract/demoKeys.ts";
