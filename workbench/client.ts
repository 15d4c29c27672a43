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
import { dataEndpoint } from "./endpoints.ts";
import { QueryError } from "./errors/base.ts";
import { type ProgressListener } from "./fetch/progress.ts";
import { Transport, type TransportOptions } from "./http/transport.ts";
import type { Query } from "./query/query.ts";
import { FrameCache } from "./store/cache.ts";
import { type DownloadResult, downloadToParquet, scanDownload } from "./store/download.ts";
import { type Estimate, estimateDownload } from "./store/estimate.ts";
import { envVar } from "./env.ts";
import { displayAs } from "./display/kind.ts";

export interface ConnectOptions extends Partial<TransportOptions> {
  /** Folder of an on-disk result cache (off unless given). */
  cache?: string;
}

export class Workbench {
  readonly account: AccountApi;
  readonly meta: MetaApi;
  readonly data: DataApi;
  readonly cache?: FrameCache;

  constructor(readonly transport: Transport, cacheDir?: string) {
    this.account = new AccountApi(transport);
    this.meta = new MetaApi(transport);
    const scope = createHash("sha256").update(`${transport.options.baseUrl}\n${transport.options.apiKey}`).digest("hex").slice(0, 16);
    this.cache = cacheDir ? new FrameCache(cacheDir, scope) : undefined;
    this.data = new DataApi(transport, this.meta, this.account, this.cache);
  }

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
   * Streams every row of a query into Parquet files under `dir`, one page at a time; running
   * it again after an interruption resumes. Refuses to start when the estimate exceeds the
   * remaining monthly quota, unless `force`.
   *
   * @example
   * ```ts
   * await wb.download("eq-taq-1min", { filters: { TradeDate: { ge: "2023-11-01" } } }, "downloads/aapl", { pathValues: ["AAPL"] });
   * const lf = wb.scan("downloads/aapl");
   * ```
   */
  async download(dataset: string, query: Query, dir: string, options: { pathValues?: readonly string[]; force?: boolean; onProgress?: ProgressListener } = {}): Promise<DownloadResult> {
    const pathValues = options.pathValues ?? [];
    const request = await this.data.prepare(dataset, pathValues, query);
    if (!options.force) {
      const e = await this.estimate(dataset, query, pathValues);
      if (!e.fitsMonthlyQuota) {
        throw new QueryError(
          `Downloading ${dataset} needs about ${e.requests} requests and ${(e.bytes / 1e6).toFixed(1)} MB, but this month leaves ${e.remaining.monthly_requests} requests and ${(e.remaining.monthly_data_returned / 1e6).toFixed(1)} MB; pass { force: true } to start anyway`,
        );
      }
    }
    return displayAs(await downloadToParquet(this.transport, request, dir, options.onProgress ?? query.onProgress), "download-result");
  }

  /**
   * A LazyFrame over a folder written by `download`.
   *
   * @example
   * ```ts
   * const lf = wb.scan("downloads/aapl"); lf.filter(pl.col("Volume").gt(0)).collectSync();
   * ```
   */
  scan(dir: string): pl.LazyDataFrame {
    return scanDownload(dir);
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
  return Promise.resolve(new Workbench(new Transport({ ...options, baseUrl, apiKey }), options.cache));
}
