/**
 * The workbench a notebook holds: `wb.account`, `wb.meta` and `wb.data` mirror
 * /api/v1/account, /api/v1/meta and /api/v1/data on one shared transport, plus estimates,
 * downloads and scans.
 */
import type pl from "nodejs-polars";
import { createHash } from "node:crypto";
import { AccountApi } from "./api/account.ts";
import { DataApi } from "./api/data.ts";
import { Entitlements } from "./api/entitlements.ts";
import { MetaApi } from "./api/meta.ts";
import { dataEndpoint } from "./query/endpoints.ts";
import { QueryError } from "./errors/base.ts";
import { type QuotaGuardOptions } from "./guard/quotaGuard.ts";
import { RateGate } from "./http/rateWindow.ts";
import { Transport, type TransportOptions } from "./http/transport.ts";
import type { Query } from "./query/query.ts";
import { FrameCache, NoCache } from "./store/cache.ts";
import { type DownloadResult, downloadLake, type LakeQuery, scanLake } from "./store/download.ts";
import { type Estimate, estimateDownload } from "./guard/estimate.ts";
import { envVar } from "./runtime/env.ts";
import { displayAs } from "./display/kind.ts";
import type { ProvenanceManifest } from "./provenance/manifest.ts";
import { ProvenanceRecorder } from "./provenance/recorder.ts";

export interface ConnectOptions extends Partial<TransportOptions> {
  /** Folder of an on-disk result cache (off unless given). */
  cache?: string;
  /**
   * The quota guard's threshold: a data call stops before its second request when the rest
   * would take more than `maxShare` (default 0.1) of any remaining monthly quota or more than
   * `maxBytes` (default 1e9); `false` switches the guard off. A call passes it with `force: true`.
   */
  quotaGuard?: QuotaGuardOptions | false;
  /**
   * Records each data call and download for `wb.provenance()`. On by default; off with
   * `false` or with `MARKETDATA_PROVENANCE=0` in the environment. Each page's rows are hashed in
   * the waits for the service's next answer, so recording adds about 2% to a large fetch from a
   * service on other cores (5-6% when the sandbox shares this machine's two cores; see
   * bench/provenance.ts).
   */
  provenance?: boolean;
}

export class Workbench {
  readonly account: AccountApi;
  readonly meta: MetaApi;
  readonly data: DataApi;
  /**
   * The on-disk cache (`connect({ cache: dir })`): `enabled`, `hits`, `misses`, `verify()`.
   * Always there: without a cache folder it is a `NoCache`, whose `verify()` says how to get one.
   */
  readonly cache: FrameCache | NoCache;

  /** The per-minute request window, shared by every call of this workbench. */
  readonly gate = new RateGate();

  /** Records every data call that returns a frame (see `provenance()`). */
  private readonly recorder: ProvenanceRecorder;
  /** Whether data calls are recorded. */
  readonly recording: boolean;

  constructor(readonly transport: Transport, cacheDir?: string, readonly quotaGuard: QuotaGuardOptions | false = {}, recording = false) {
    this.account = new AccountApi(transport);
    this.meta = new MetaApi(transport);
    const scope = createHash("sha256").update(`${transport.options.baseUrl}\n${transport.options.apiKey}`).digest("hex").slice(0, 16);
    // The guard's free reads (quotas, status) use their own transport, so `transport.requestsSent`
    // keeps counting what a call itself sends.
    const guardTransport = new Transport(transport.options);
    const guardReads = { account: new AccountApi(guardTransport), meta: new MetaApi(guardTransport) };
    // The status at each call (and each cached frame) comes from the guard's cached free read:
    // it adds no request to `transport`; the cache's verify() asks for the status afresh.
    const statusAtCall = (id: string) => guardReads.meta.availability(id);
    const cache = cacheDir ? new FrameCache(cacheDir, scope, { baseUrl: transport.options.baseUrl, statusAtFetch: statusAtCall, statusNow: (id) => guardReads.meta.status(id) }) : undefined;
    this.cache = cache ?? new NoCache();
    this.recorder = new ProvenanceRecorder(transport.options.baseUrl, statusAtCall, [transport.options.apiKey ?? ""]);
    this.recording = recording;
    this.data = new DataApi(transport, this.meta, this.account, cache, { gate: this.gate, quotaGuard, guardReads, recorder: recording ? this.recorder : undefined });
  }

  /**
   * The provenance manifest of this session: for each data call, in the order the calls
   * started, the dataset, its requests' paths and parameters (never the key), the dataset's
   * status at the time, the request ids, pages, rows, bytes and the frame's `frameHash` (or,
   * for a call that failed, the error's class and message); each `wb.download` run with the
   * partitions it fetched (rows and hash each) and reused; and the hash scheme. Plain JSON.
   *
   * @example
   * ```ts
   * const wb = await connect({ provenance: true });
   * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
   * const m = wb.provenance();
   * m.calls[0].frameHash; // "rows:…", the same as frameHash(daily)
   * ```
   */
  provenance(): ProvenanceManifest {
    if (!this.recording && !this.warnedNotRecording) {
      this.warnedNotRecording = true;
      console.warn("This workbench does not record its data calls, so its provenance has none: it was connected with provenance: false or MARKETDATA_PROVENANCE=0; connect({ provenance: true }) records them.");
    }
    return { ...this.recorder.manifest(), recording: this.recording };
  }
  private warnedNotRecording = false;

  /**
   * Identity, data access rules and quotas in one object, with `may()` to ask about a read.
   * Spends no quota (account endpoints are free).
   *
   * @example
   * ```ts
   * const ent = await wb.entitlements();
   * ent.may("eq-taq-1min", { ticker: "AAPL", date: "2023-11-21" }).reason;
   * ```
   */
  async entitlements(): Promise<Entitlements> {
    const [identity, rules, quotas] = await Promise.all([this.account.identity(), this.account.rules(true), this.account.quotasRaw()]);
    return new Entitlements(identity, rules, quotas);
  }

  /**
   * Requests, rows and bytes a download of `dataset` would take, against the remaining
   * quotas. Uses free metadata only: spends no quota.
   *
   * @example
   * ```ts
   * const e = await wb.estimate("eq-taq-1min", { filters: { TradeDate: { ge: "2023-11-01" } } }, ["AAPL"]);
   * e.requests; e.fitsMonthlyQuota;
   * ```
   */
  async estimate(dataset: string, query: Query = {}, pathValues: readonly string[] = []): Promise<Estimate> {
    const request = await this.data.prepare(dataset, pathValues, query);
    const [status, quotas] = await Promise.all([this.meta.status(dataset), this.account.quotasRaw()]);
    return displayAs(estimateDownload(dataEndpoint(dataset), request, status, quotas, pathValues), "estimate");
  }

  /**
   * Downloads a universe over a date range into a hive-partitioned Parquet folder
   * (`Ticker=AAPL/TradeDate=2023-11-21/part.parquet` for per-ticker datasets,
   * `TradeDate=.../part.parquet` for other dated ones), pulling chunks concurrently within the
   * per-minute quota and behind the quota guard (`force: true` passes it). Each partition is
   * written atomically and recorded in `_manifest.json`: running it again resumes an
   * interrupted download, and a wider range fetches only the partitions it lacks. Without
   * `start`/`end` it takes the dataset's whole availability.
   *
   * @example
   * ```ts
   * const r = await wb.download("eq-taq-1min", { tickers: ["AAPL", "MSFT"], start: "2023-11-01", end: "2023-11-30" }, "lake/bars");
   * r.fetched; // partitions fetched by this call
   * const lf = wb.scan("lake/bars");
   * ```
   */
  async download(dataset: string, query: LakeQuery, dir: string, options: { chunkDays?: number } = {}): Promise<DownloadResult> {
    const tap = this.recording ? this.recorder.beginDownload(dataset, query, dir) : undefined;
    try {
      const result = await downloadLake(this.data, this.meta, dataset, query, dir, options.chunkDays, tap);
      await tap?.end();
      return displayAs(result, "download-result");
    } catch (error) {
      await tap?.end(error);
      throw error;
    }
  }

  /**
   * A LazyFrame over a folder written by `download`, with the partition columns (Ticker,
   * TradeDate) typed and in the dataset's column order.
   *
   * @example
   * ```ts
   * const lf = wb.scan("lake/bars");
   * lf.filter(pl.col("TradeDate").eq(pl.lit(new Date("2023-11-21")))).collectSync();
   * ```
   */
  scan(dir: string): pl.LazyDataFrame {
    return scanLake(dir);
  }
}

/**
 * Connects to the Datasets Service. Without options it reads MARKETDATA_BASE_URL and
 * MARKETDATA_API_KEY from the environment. Sends nothing until the first call.
 *
 * @example
 * ```ts
 * import { connect, sandbox } from "./workbench/mod.ts";
 * const local = await sandbox();
 * const wb = await connect({ baseUrl: local.baseUrl, apiKey: local.keys.fullAccess });
 * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
 * ```
 */
export function connect(options: ConnectOptions = {}): Promise<Workbench> {
  const baseUrl = options.baseUrl ?? envVar("MARKETDATA_BASE_URL");
  const apiKey = options.apiKey ?? envVar("MARKETDATA_API_KEY");
  if (!baseUrl) return Promise.reject(new QueryError("No service address: pass { baseUrl } or set MARKETDATA_BASE_URL (for the local sandbox: const local = await sandbox())"));
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) return Promise.reject(new QueryError(`Base URL '${baseUrl}' is not an http(s) address such as http://127.0.0.1:8000`));
  if (!apiKey) return Promise.reject(new QueryError("No API key: pass { apiKey } or set MARKETDATA_API_KEY"));
  return Promise.resolve(new Workbench(new Transport({ ...options, baseUrl, apiKey }), options.cache, options.quotaGuard ?? {}, options.provenance ?? envVar("MARKETDATA_PROVENANCE") !== "0"));
}
