/**
 * The workbench a notebook holds: `wb.account`, `wb.meta` and `wb.data` mirror
 * /api/v1/account, /api/v1/meta and /api/v1/data on one shared transport, plus estimates,
 * downloads and scans.
 */
import type pl from "nodejs-polars";
import { AccountApi } from "./api/account.ts";
import { DataApi } from "./api/data.ts";
import { type Entitlements, readEntitlements } from "./api/entitlements.ts";
import { MetaApi } from "./api/meta.ts";
import { readSummary, type WorkbenchSummary } from "./api/summary.ts";
import { displayAs } from "./display/kind.ts";
import { QueryError } from "./errors/base.ts";
import { didYouMean } from "./errors/nearest.ts";
import { describeValue } from "./query/checkInput.ts";
import type { Estimate } from "./guard/estimate.ts";
import { estimateCall, type EstimateOptions } from "./guard/estimateCall.ts";
import { GuardStage } from "./guard/guardStage.ts";
import { QuotaJudge } from "./guard/quotaJudge.ts";
import type { QuotaGuardOptions } from "./guard/quotaGuard.ts";
import { SendChain } from "./fetch/sendChain.ts";
import { RateWindow } from "./http/rateWindow.ts";
import { Transport, type TransportOptions } from "./http/transport.ts";
import { Pipeline } from "./pipeline/pipeline.ts";
import type { ProvenanceManifest } from "./provenance/manifest.ts";
import { ProvenanceRecorder } from "./provenance/recorder.ts";
import { dataEndpoint } from "./query/endpoints.ts";
import { estimateArgs } from "./query/estimateArgs.ts";
import { type PathArg, planCall } from "./query/plan.ts";
import type { SymbolQuery, Symbols } from "./query/symbols.ts";
import { withoutCredentials } from "./errors/credentials.ts";
import { envVar } from "./runtime/env.ts";
import { localSecret } from "./runtime/localSecret.ts";
import { ServiceFacts } from "./service/facts.ts";
import { FrameCache, NoCache } from "./store/cache.ts";
import { downloadLake, type DownloadOptions, type DownloadResult, type LakeQuery, scanLake } from "./store/download.ts";

/**
 * Options of `connect()`: the service's address and key (else MARKETDATA_BASE_URL and
 * MARKETDATA_API_KEY), the transport's retries and timeouts, and the workbench's cache, quota
 * guard and provenance.
 */
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
   * the waits for the service's next answer, so recording adds little to a large fetch (more
   * when the sandbox shares the machine's cores; bench/provenance.ts measures it).
   * `{ hash: "canonical" }` records as well each frame's and partition's canonical hash
   * (`canonicalHash`: the same under any nodejs-polars version, reproducible in a few lines of
   * Python, docs/provenance.md), at about six times the hashing's cost.
   */
  provenance?: boolean | { hash?: "rows" | "canonical" };
}

/**
 * What `connect()` gives: `wb.account`, `wb.meta` and `wb.data` mirror the service's three
 * groups of endpoints; `entitlements`, `estimate`, `download`, `scan` and `provenance` work
 * across them.
 *
 * @example
 * ```ts
 * const wb = await connect();
 * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
 * ```
 */
export class Workbench {
  /** `GET /api/v1/account/...`: identity, quotas, data access rules. */
  readonly account: AccountApi;
  /** `GET /api/v1/meta/...`: datasets, their status and their columns. */
  readonly meta: MetaApi;
  /** `GET /api/v1/data/...`: one function per dataset, each returning a frame. */
  readonly data: DataApi;
  /**
   * The on-disk cache (`connect({ cache: dir })`): `enabled`, `hits`, `misses`, `verify()`.
   * Always there: without a cache folder it is a `NoCache`, whose `verify()` says how to get one.
   */
  readonly cache: FrameCache | NoCache;

  /** Records every data call and download (see `provenance()`). */
  readonly #recorder: ProvenanceRecorder;
  readonly #facts: ServiceFacts;
  readonly #pipeline: Pipeline;
  /** Whether data calls are recorded. */
  readonly recording: boolean;

  /**
   * A workbench on `transport` (`connect()` builds one from its options).
   *
   * @param transport the HTTP layer every call goes through (`transport.requestsSent` counts a call's requests)
   * @param cacheDir folder of the on-disk result cache, off when undefined
   * @param quotaGuard the quota guard's threshold, or false to switch it off
   * @param recording whether data calls are recorded for `provenance()`
   * @param hashes `canonical`: records also hold each frame's canonical hash
   */
  constructor(
    readonly transport: Transport,
    cacheDir?: string,
    readonly quotaGuard: QuotaGuardOptions | false = {},
    recording = false,
    hashes: "rows" | "canonical" = "rows",
  ) {
    // Cached frames are kept apart by service and key under this user's local secret: an entry
    // tells nothing about the key to anyone without that secret.
    const scope = cacheDir ? transport.keyedScope(localSecret()) : "";
    // The one send chain: every data request, a call's and the workbench's own reads, goes
    // through it (rate window, quota gate, transport, events).
    const chain = new SendChain(transport, new RateWindow());
    // The guard's free reads (quotas, status) use their own transport, so `transport.requestsSent`
    // keeps counting what a call itself sends.
    const facts = new ServiceFacts(transport, transport.twin(), (request, options) => chain.read(request, options));
    this.#facts = facts;
    this.account = new AccountApi(facts);
    this.meta = new MetaApi(facts);
    // The status at each call (and each cached frame) comes from the guard's cached free read:
    // it adds no request to `transport`; the cache's verify() asks for the status afresh.
    const statusAtCall = (id: string) => facts.guardStatus(id);
    const cache = cacheDir
      ? new FrameCache(cacheDir, scope, {
        baseUrl: transport.options.baseUrl,
        statusAtFetch: statusAtCall,
        statusNow: (id) => facts.guardStatus(id, true),
      })
      : undefined;
    this.cache = cache ?? new NoCache();
    this.#recorder = new ProvenanceRecorder(
      transport.options.baseUrl,
      statusAtCall,
      (text) => transport.redact(text),
      hashes === "canonical",
    );
    this.recording = recording;
    const guard = new GuardStage(facts, new QuotaJudge(facts, quotaGuard));
    this.#pipeline = new Pipeline({ facts, chain, guard, cache, observers: recording ? [this.#recorder] : [] });
    this.data = new DataApi(this.#pipeline, facts);
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
    if (!this.recording && !this.#warnedNotRecording) {
      this.#warnedNotRecording = true;
      console.warn(
        "This workbench does not record its data calls, so its provenance has none: it was connected with provenance: false or MARKETDATA_PROVENANCE=0; connect({ provenance: true }) records them.",
      );
    }
    return { ...this.#recorder.manifest(), recording: this.recording };
  }
  #warnedNotRecording = false;

  /**
   * The workbench in a few lines: the service, the identity behind the key, the datasets it may
   * read and this month's quota (three free account reads), the cache and whether calls are
   * recorded. Never the key. In a notebook, `wb` and this summary show as a card.
   *
   * @example
   * ```ts
   * const s = await wb.summary();
   * s.identity?.name; s.datasets?.length; s.quotas?.quotas_usage.monthly_requests;
   * ```
   */
  summary(): Promise<WorkbenchSummary> {
    return readSummary(this.#facts, {
      service: this.transport.options.baseUrl,
      cache: this.cache.enabled ? this.cache.dir : undefined,
      recording: this.recording,
    });
  }

  /** `Workbench(<service>)`: never the key. */
  toString(): string {
    return `Workbench(${this.transport.options.baseUrl})`;
  }

  /** `Deno.inspect` and `console.log` show the service, cache and request count, never the key. */
  [Symbol.for("Deno.customInspect")](): string {
    return this.#shown();
  }

  /** Node's `util.inspect` (and `console.log`), as `Deno.customInspect`. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.#shown();
  }

  #shown(): string {
    const cache = this.cache.enabled ? JSON.stringify(this.cache.dir) : "off";
    return `Workbench { service: ${
      JSON.stringify(this.transport.options.baseUrl)
    }, cache: ${cache}, recording: ${this.recording}, requestsSent: ${this.transport.requestsSent} }`;
  }

  /**
   * Identity, data access rules and quotas in one object, with `may()` to ask about a read,
   * and what each entitled dataset holds (its dates, the tickers the service knows). Spends
   * no quota but the lookup files' one request, once per session, where the identity may read
   * them (the data calls' ticker checks share it).
   *
   * @example
   * ```ts
   * const ent = await wb.entitlements();
   * ent.may("eq-taq-1min", { ticker: "AAPL", date: "2023-11-21" }).reason;
   * ```
   */
  async entitlements(): Promise<Entitlements> {
    const [identity, rules, quotas] = await Promise.all([this.account.identity(), this.account.rules(true), this.account.quotasRaw()]);
    return await readEntitlements(this.#facts, identity, rules, quotas);
  }

  /**
   * Requests, rows and bytes a call of `dataset` would take, against the remaining quotas. It
   * takes exactly the arguments of the dataset's data function after the dataset id (the
   * symbols first or as `tickers:`, `start`/`end` or `date`, filters ...), then its own options;
   * the REST form of `wb.data.get` (a query, then a list of path values) is still taken. Every
   * unit of the call is summed. Rows come from free metadata (the dataset's status); for ticks
   * (eq-taq), option chains (opt-greeks-daily, opt-open-interest) and reference data asked by
   * symbol (occ-eq-spec-settl, eq-lookup-files), whose rows differ from symbol to symbol, they
   * are counted by a small read of the estimate's own (one request per ticker, a few columns:
   * `basis`, `lookupRequests` and `lookupBytes` say how and what it spent), unless
   * `{ lookups: false }` keeps the estimate free.
   *
   * @example
   * ```ts
   * const e = await wb.estimate("eq-taq-1min", ["AAPL", "MSFT"], { start: "2023-11-01", end: "2023-11-30" });
   * e.requests; e.fitsMonthlyQuota;
   * const ticks = await wb.estimate("eq-taq", { tickers: "JPM", start: "2023-11-20", end: "2023-11-22" });
   * ticks.rows; ticks.basis; // "minute-bars"
   * const free = await wb.estimate("opt-greeks-daily", "SPY", { date: "2023-11-21" }, { lookups: false });
   * ```
   */
  async estimate(
    dataset: string,
    symbols?: Symbols | SymbolQuery,
    query?: SymbolQuery | EstimateOptions | readonly PathArg[],
    options?: EstimateOptions,
  ): Promise<Estimate> {
    const endpoint = dataEndpoint(await this.#facts.textId(dataset));
    const call = estimateArgs(endpoint, [symbols, query, options]);
    const given = call.options === undefined ? {} : call.options;
    // A mistyped option must not leave the estimate spending quota the caller meant to keep.
    if (given === null || typeof given !== "object" || Array.isArray(given)) {
      throw new QueryError(`wb.estimate's options are an object such as { lookups: false }, not ${describeValue(given)}`);
    }
    for (const [name, value] of Object.entries(given)) {
      if (name !== "lookups") {
        throw new QueryError(
          `Unknown estimate option '${name}'${
            didYouMean(name, ["lookups"])
          }: the option is lookups (true or false); the call's own options (tickers, start, end, filters ...) come before it, as its data function takes them`,
        );
      }
      if (value !== undefined && typeof value !== "boolean") {
        throw new QueryError(`lookups is ${describeValue(value)}: give true (count rows with a small read) or false (free metadata only)`);
      }
    }
    const plan = planCall(endpoint, call.pathArgs, call.query);
    const requests = await this.#pipeline.prepareCall(plan);
    return displayAs(await estimateCall(this.#facts, plan.endpoint, requests, plan.units, given as EstimateOptions), "estimate");
  }

  /**
   * Downloads a universe over a date range into a hive-partitioned Parquet folder (a table
   * Polars, pyarrow, DuckDB and Spark read in place), pulling chunks of up to 20 trading days
   * concurrently within the per-minute quota and behind the quota guard (`force: true` passes
   * it). Each chunk of a ticker is one file (`Ticker=AAPL/part-2023-11-01_2023-11-29.parquet`,
   * the trade date a column; ticks: a file a ticker-day,
   * `Ticker=AAPL/TradeDate=2023-11-21/part.parquet`), written atomically, hashed, and its
   * ticker-day partitions recorded in the manifest beside the folder
   * (`.bars.workbench/manifest.json` for `lake/bars`): running it again resumes an interrupted
   * download, another range or other tickers fetch only the partitions the folder lacks, and
   * every file reused is checked by content. Without `start`/`end` it takes the dataset's
   * whole availability. `options.repair` repairs a folder whose manifest is damaged.
   *
   * @example
   * ```ts
   * const r = await wb.download("eq-taq-1min", { tickers: ["AAPL", "MSFT"], start: "2023-11-01", end: "2023-11-30" }, "lake/bars");
   * r.fetched; // partitions fetched by this call
   * const lf = wb.scan("lake/bars");
   * ```
   */
  async download(dataset: string, query: LakeQuery, dir: string, options: DownloadOptions = {}): Promise<DownloadResult> {
    if (typeof dir !== "string" || dir.trim() === "") {
      throw new QueryError(
        `wb.download needs a folder to write the lake into as its third argument, got ${describeValue(dir)}: e.g. wb.download("${
          String(dataset)
        }", { tickers: ["AAPL"], start: "2023-11-01", end: "2023-11-30" }, "lake/bars")`,
      );
    }
    const chunkDays = options?.chunkDays;
    if (chunkDays !== undefined && !(Number.isInteger(chunkDays) && chunkDays >= 1)) {
      throw new QueryError(
        `chunkDays is ${describeValue(chunkDays)}: give a whole number of trading days per request, 1 or more (default 20)`,
      );
    }
    return displayAs(await downloadLake(this.#pipeline, this.#facts, dataset, query, dir, { ...options, chunkDays }), "download-result");
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
 * import { connect, sandbox } from "market-workbench/notebook";
 * const local = await sandbox();
 * const wb = await connect({ baseUrl: local.baseUrl, apiKey: local.keys.fullAccess });
 * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
 * ```
 */
export function connect(options: ConnectOptions = {}): Promise<Workbench> {
  if (options === null || typeof options !== "object") {
    return Promise.reject(new QueryError(`connect takes an object of options such as { baseUrl, apiKey }, not ${describeValue(options)}`));
  }
  for (const name of ["baseUrl", "apiKey", "cache"] as const) {
    const value = options[name];
    if (value !== undefined && typeof value !== "string") {
      return Promise.reject(new QueryError(`${name} is ${describeValue(value)}: give it as text`));
    }
  }
  const baseUrl = options.baseUrl ?? envVar("MARKETDATA_BASE_URL");
  const apiKey = options.apiKey ?? envVar("MARKETDATA_API_KEY");
  if (!baseUrl) {
    return Promise.reject(
      new QueryError(
        "No service address: pass { baseUrl } or set MARKETDATA_BASE_URL (for the local sandbox: const local = await sandbox())",
      ),
    );
  }
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) {
    return Promise.reject(
      new QueryError(`Base URL '${withoutCredentials(baseUrl)}' is not an http(s) address such as http://127.0.0.1:8000`),
    );
  }
  if (!apiKey) return Promise.reject(new QueryError("No API key: pass { apiKey } or set MARKETDATA_API_KEY"));
  const provenance = options.provenance;
  if (
    provenance !== undefined && typeof provenance !== "boolean" &&
    (provenance === null || typeof provenance !== "object" || ![undefined, "rows", "canonical"].includes(provenance.hash))
  ) {
    return Promise.reject(new QueryError(`provenance is ${describeValue(provenance)}: give true, false or { hash: "rows" | "canonical" }`));
  }
  const recording = typeof provenance === "object" ? true : provenance ?? envVar("MARKETDATA_PROVENANCE") !== "0";
  const hashes = typeof provenance === "object" ? provenance.hash ?? "rows" : "rows";
  return Promise.resolve(
    new Workbench(new Transport({ ...options, baseUrl, apiKey }), options.cache, options.quotaGuard ?? {}, recording, hashes),
  );
}
