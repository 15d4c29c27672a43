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
export { type ProgressEvent, type ProgressListener, terminalProgress } from "./progress/progress.ts";
export { frameWarnings } from "./frames/frameWarnings.ts";
export { type Projection, QuotaGuardError, type QuotaGuardOptions } from "./guard/quotaGuard.ts";
export { type DateLike } from "./query/plan.ts";
export { type DataQuery } from "./api/data.ts";
export { type Estimate } from "./guard/estimate.ts";
export { type DownloadResult, type LakeQuery } from "./store/download.ts";
export { type CacheCheck, type CacheEntry } from "./store/cache.ts";
export { type AccessRule, type Identity, type Quotas } from "./api/account.ts";
export { Entitlements, type Verdict } from "./api/entitlements.ts";
export { type DatasetStatus } from "./api/meta.ts";
export { DATA_ENDPOINTS, type DatasetId } from "./query/endpoints.ts";
export { type ColumnInfo, dtypeOf, NEW_YORK } from "./frames/frames.ts";
export { QueryError, WorkbenchError } from "./errors/base.ts";
export * from "./errors/http.ts";
export { type Session, session, sessionTable, tradingDays, withMinuteOfDay, withSession, withSessionColumns } from "./calendar.ts";
export { frameHash, hashScheme } from "./provenance/frameHash.ts";
export { compareRuns, type Verdict as RunComparison } from "./provenance/compareRuns.ts";
export { type CallRecord, type DownloadRecord, type ProvenanceManifest, type RunManifest } from "./provenance/manifest.ts";
export { type AdjustedRoot, adjustedRoots, classifyRoots, type RootKind, splitFactors } from "./research/splitFactors.ts";
export { adjustPrices, type AdjustOptions, priceColumnsOf, volumeColumnsOf } from "./research/adjustPrices.ts";
export { securityBars, type SecurityBarsOptions, securitySpans, type TickerSpan, tickerSpans } from "./research/securities.ts";
export { signTrades } from "./research/leeReady.ts";
export { barSpreads, type SpreadOptions, spreadsByTimeOfDay, tradeSpreads, weightedSpreads } from "./research/spreads.ts";
