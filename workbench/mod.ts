/**
 * The workbench: every endpoint of the Datasets Service as a function returning a typed
 * Polars DataFrame. This is the only export surface.
 *
 * @example
 * ```ts
 * import { connect, sandbox } from "./workbench/mod.ts";
 * const local = await sandbox();
 * const wb = await connect({ baseUrl: local.baseUrl, apiKey: local.keys.fullAccess });
 * const bars = await wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-11-21" } });
 * ```
 */
import { installKernelDisplay } from "./display/kernel.ts";

// In the Deno Jupyter kernel only: frames and workbench objects display richly with no setup.
await installKernelDisplay();

export { connect, type ConnectOptions, Workbench } from "./client.ts";
export { type LocalSandbox, sandbox, type SandboxOptions } from "./sandbox.ts";
export { type FilterSpec, type FilterValue, type Query } from "./query/query.ts";
export { type ProgressEvent, type ProgressListener, terminalProgress } from "./fetch/progress.ts";
export { type Estimate } from "./store/estimate.ts";
export { type DownloadResult } from "./store/download.ts";
export { type AccessRule, type Identity, type Quotas } from "./api/account.ts";
export { Entitlements, type Verdict } from "./api/entitlements.ts";
export { type DatasetStatus } from "./api/meta.ts";
export { DATA_ENDPOINTS, type DatasetId } from "./endpoints.ts";
export { type ColumnInfo, dtypeOf, NEW_YORK } from "./frames.ts";
export { QueryError, WorkbenchError } from "./errors/base.ts";
export * from "./errors/http.ts";
