/**
 * The workbench (`market-workbench`): every endpoint of the Datasets Service as a function
 * returning a typed Polars DataFrame. This is the only export surface. In a notebook, import
 * `market-workbench/notebook` instead: it re-exports this module, the kernel helpers and
 * `sandbox()`, and turns on rich display. The local sandbox starts from
 * `market-workbench/sandbox`.
 *
 * @example
 * ```ts
 * import { connect } from "market-workbench";
 * const wb = await connect(); // MARKETDATA_BASE_URL and MARKETDATA_API_KEY from the environment
 * const bars = await wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-11-21" } });
 * ```
 *
 * @module
 */
// First: a missing native Polars binary is reported with its fix before any module loads Polars.
import "./runtime/polarsBinary.ts";
export { connect, type ConnectOptions, Workbench } from "./client.ts";
export { DEMO_KEYS, type DemoKeyRole } from "../contract/demoKeys.ts";
export { type FilterSpec, type FilterValue, type Operator, OPERATORS, type Query } from "./query/query.ts";
export { type ProgressEvent, type ProgressListener, terminalProgress } from "./progress/progress.ts";
export { frameWarnings } from "./frames/frameWarnings.ts";
export { type DatesAs, type DateValue, frameDates } from "./frames/frameDates.ts";
export { type Projection, QuotaGuardError, type QuotaGuardOptions } from "./guard/quotaGuard.ts";
export { type DateLike } from "./query/dates.ts";
export { type DataQuery, type PathArg } from "./query/plan.ts";
export { type AccessRule, AccountApi, type Identity, type Quotas, type QuotaValues } from "./api/account.ts";
export { DataApi, type SymbolQuery, type Symbols } from "./api/data.ts";
export { MetaApi } from "./api/meta.ts";
export type { RawResponse, Transport, TransportOptions, TransportSettings } from "./http/transport.ts";
export type { Waits } from "./runtime/timers.ts";
export { type DisplayKind, displayKindOf } from "./display/kind.ts";
export { type Estimate } from "./guard/estimate.ts";
export { type EstimateOptions } from "./guard/estimateCall.ts";
export { type DownloadOptions, type DownloadResult, type LakeQuery } from "./store/download.ts";
export type { CacheCheck, CacheEntry, CacheOrigin, FrameCache, NoCache } from "./store/cache.ts";
export { type CheckedEntry } from "./store/cacheEntries.ts";
export { Entitlements, type Holding, type Verdict } from "./api/entitlements.ts";
export type { WorkbenchSummary } from "./api/summary.ts";
export { type DatasetStatus } from "./api/meta.ts";
export { DATA_ENDPOINTS, type DatasetId } from "./query/endpoints.ts";
export { type ColumnInfo, dtypeOf, NEW_YORK, type WireFormat } from "./frames/frames.ts";
export { type CallState, QueryError, WorkbenchError } from "./errors/base.ts";
export {
  AccountDeactivatedError,
  ConflictError,
  ContractError,
  GatewayTimeoutError,
  InvalidApiKeyError,
  IpNotAllowedError,
  KeyExpiredError,
  NetworkError,
  NotEntitledError,
  NotFoundError,
  NotTheServiceError,
  QuotaExceededError,
  type QuotaName,
  ServiceUnavailableError,
  ServiceUnreachableError,
  UnauthenticatedError,
  UnknownDatasetError,
  UnknownTickerError,
  ValidationError,
  type ValidationIssue,
} from "./errors/http.ts";
export { FolderInUseError, LakeDamagedError, LakeManifestError, type LockHolder, StorageError } from "./errors/storage.ts";
export { InterruptedError, type InterruptedProgress, lastInterrupted } from "./errors/interrupted.ts";
export { interruptCalls } from "./runtime/interrupts.ts";
export { CALENDAR_COVERAGE, CalendarRangeError } from "../calendar/calendar.ts";
export {
  type Session,
  session,
  sessionTable,
  type TradingDay,
  tradingDays,
  tradingSessions,
  withMinuteOfDay,
  withSession,
  withSessionColumns,
} from "./calendar.ts";
export { frameHash, hashScheme, type HashSchemeName } from "./provenance/frameHash.ts";
export { type Comparable, compareRuns, type RunComparison } from "./provenance/compareRuns.ts";
export {
  type CallFailure,
  type CallRecord,
  type DownloadRecord,
  type HashSchemeRecord,
  type PartitionRecord,
  type ProvenanceManifest,
  type RequestRecord,
  type RunManifest,
  type StatusAtCall,
  type StatusRead,
} from "./provenance/manifest.ts";
export { type RowBlocks } from "./provenance/rowBlocks.ts";
export { type AdjustedRoot, adjustedRoots, classifyRoots, type RootKind, splitFactors } from "./research/splitFactors.ts";
export { type AdjustOptions, adjustPrices, priceColumnsOf, volumeColumnsOf } from "./research/adjustPrices.ts";
export { securityBars, type SecurityBarsOptions, securitySpans, type TickerSpan, tickerSpans } from "./research/securities.ts";
export { signTrades } from "./research/leeReady.ts";
export { normalCdf, normalPdf } from "./research/normal.ts";
export { blackScholesCall, forwardCallDelta, impliedDividendYield, type OptionTerms } from "./research/blackScholes.ts";
export { type ChainContract, type OptionChain, optionChains } from "./research/optionChains.ts";
export {
  type ChainForward,
  chainForward,
  expiryForwards,
  type ForwardOptions,
  parityForward,
  type ParityPair,
} from "./research/forward.ts";
export { atmForwardVol, fiftyDeltaVol, nearestSpotStrikeVol, otmSmile, type SmilePoint } from "./research/smileVols.ts";
export {
  calendarArbitrage,
  type ConstantMaturity,
  constantMaturityVol,
  constantMaturityVols,
  type TermPoint,
  volTermStructure,
} from "./research/volTermStructure.ts";
export { linkSplitSeries, matchedVolChanges, type MedianEstimate, medianWithError } from "./research/seriesLink.ts";
export { type Consideration, delistingReturn, totalReturns } from "./research/totalReturn.ts";
export {
  decayColumn,
  measureColumns,
  type SpreadOptions,
  spreadsByTimeOfDay,
  tradeSpreads,
  TRF_EXCHANGE,
  weightedSpreads,
  withTimeBucket,
} from "./research/spreads.ts";
export { barImbalance } from "./research/barImbalance.ts";
export { clusteredMeans, type ClusterOptions, dayTotals, totalColumns } from "./research/clusteredMeans.ts";
export { splitRatio, type TickerDay, type TickerDayPlan, tickerDays } from "./research/tickerDays.ts";
export { type EmptyDay, TICK_COLUMNS, type TickPanel, type TickPanelOptions, tickSpreadPanel } from "./research/tickPanel.ts";
export {
  decayCurve,
  SIZE_BOUNDS_DOLLARS,
  SIZE_BUCKETS,
  type SpreadDayOptions,
  spreadDayTotals,
  spreadMeasures,
  withSizeBucket,
} from "./research/spreadPanel.ts";
