/**
 * `wb.data`: one function per data endpoint, each returning every matching row as a typed
 * Polars DataFrame (paging, types, checks, retries and throttling included). Per-ticker
 * endpoints take one ticker or a list; every dataset with a trade date takes `start`/`end`.
 * A universe is fetched concurrently within the per-minute quota, in one progress stream,
 * and returned as one frame in the order asked; the quota guard stops a call that would
 * spend too much of the month unless it says `force: true`.
 */
import pl from "nodejs-polars";
import { dataEndpoint, type DataEndpoint, type DatasetId } from "../query/endpoints.ts";
import { CallProgress } from "../progress/callProgress.ts";
import { addFrameWarnings } from "../frames/frameWarnings.ts";
import { Pager } from "../fetch/pager.ts";
import type { ProgressListener } from "../progress/progress.ts";
import { emptyPartWarnings, rangeText, unjudgedWarnings } from "../pipeline/emptyParts.ts";
import { QuotaJudge } from "../guard/quotaJudge.ts";
import { CallGuard, QuotaGuardError, type QuotaGuardOptions } from "../guard/quotaGuard.ts";
import { gatedTransport, RateGate } from "../http/rateWindow.ts";
import { type DateLike, dateRange, type PathArg, planUnits, runUnits, withRange } from "../query/plan.ts";
import { WorkbenchError } from "../errors/base.ts";
import { emptyFrame, stackFrames } from "../frames/frames.ts";
import type { Transport } from "../http/transport.ts";
import { checkPathArgs, checkPathValues, checkQuery } from "../query/checkInput.ts";
import { prepareRequest, type PreparedRequest } from "../query/prepare.ts";
import { checkWithService } from "../guard/serviceChecks.ts";
import { checkTickersUpfront, explainAbsentTickers, type TickerSource } from "../guard/tickers.ts";
import { tickerSource } from "../query/tickerSource.ts";
import type { Query } from "../query/query.ts";
import type { FetchTap } from "../provenance/callTap.ts";
import type { ProvenanceRecorder } from "../provenance/recorder.ts";
import type { FrameCache } from "../store/cache.ts";
import type { AccountApi } from "./account.ts";
import type { MetaApi } from "./meta.ts";

/** A data call: the query, plus a `start`/`end` range and `force` (past the quota guard). */
export interface DataQuery extends Query {
  /** First trade date, inclusive (`"2023-11-20"` or a Date: its UTC date). */
  start?: DateLike;
  /** Last trade date, inclusive. */
  end?: DateLike;
  /** Run even when the quota guard judges the call too large for the month. */
  force?: boolean;
}

/** What the data API shares with the rest of the workbench. */
export interface DataApiOptions {
  /** The per-minute window shared by every call. */
  gate: RateGate;
  /** Threshold of the quota guard, or false to switch it off. */
  quotaGuard: QuotaGuardOptions | false;
  /** Account and metadata reads of the guard, on their own transport (they spend no quota). */
  guardReads: { account: AccountApi; meta: MetaApi };
  /** Where each call that returns a frame is recorded for the provenance manifest. */
  recorder?: ProvenanceRecorder;
}

export class DataApi {
  private readonly options: DataApiOptions;
  private readonly judge: QuotaJudge;

  constructor(
    private readonly transport: Transport,
    private readonly meta: MetaApi,
    private readonly account: AccountApi,
    private readonly cache?: FrameCache,
    options?: Partial<DataApiOptions>,
  ) {
    this.options = { gate: options?.gate ?? new RateGate(), quotaGuard: options?.quotaGuard ?? {}, guardReads: options?.guardReads ?? { account, meta }, recorder: options?.recorder };
    this.judge = new QuotaJudge(this.options.guardReads, this.options.quotaGuard);
    this.tickers = tickerSource(account, (id, path, query) => this.run(id, path, query, false));
  }

  /**
   * The quota guard before anything is sent, for calls whose every request is known (a
   * universe, a download): throws QuotaGuardError past the threshold.
   *
   * @internal
   */
  guardUpfront(endpoint: DataEndpoint, requests: PreparedRequest[], units: string[][]): Promise<void> {
    return this.judge.upfront(endpoint, requests, units);
  }

  /** Checks a call against the schema and the access rules and builds its request; sends no data request. */
  async prepare(dataset: string, pathValues: readonly (string | Date)[], query: Query = {}): Promise<PreparedRequest> {
    const endpoint = dataEndpoint(dataset);
    // The call's shape first: a mistake is named before any request, even a free one.
    query = checkQuery(query);
    const values = checkPathValues(endpoint, pathValues);
    // Rules first: an unentitled dataset is refused here, before its schema is even asked for.
    const rules = await this.account.rules();
    if (!rules.some((r) => r.dataset_text_id === dataset)) return prepareRequest(endpoint, values, query, [], rules);
    const schema = await this.meta.schema(dataset);
    const request = prepareRequest(endpoint, values, query, schema, rules);
    request.tickers = await checkWithService({ endpoint, pathValues: values, request, schema, status: () => this.meta.availability(dataset), tickers: this.tickers });
    return request;
  }

  /** Where ticker checks resolve tickers: the rules, the lookup files (one request per session), a probe. */
  readonly tickers: TickerSource;

  /**
   * Judges the tickers of a call of several requests before sending any (see
   * checkTickersUpfront): a misspelt ticker then costs no empty page. Used by `get` and
   * `wb.download`.
   *
   * @internal
   */
  checkTickersUpfront(dataset: string, requests: readonly PreparedRequest[]): Promise<void> {
    return checkTickersUpfront(this.tickers, dataset, requests.map((r) => r.tickers));
  }

  /**
   * Any dataset by id. Each path value may be a list (a universe: one request per ticker, or
   * per ticker and date), and `start`/`end` bound the trade date of any dataset that has one.
   *
   * @example
   * ```ts
   * const df = await wb.data.get("eq-taq", ["2023-11-21", ["AAPL", "MSFT"]], { maxRows: 1000 });
   * const week = await wb.data.get("eq-daily-ohlc", [], { start: "2023-11-20", end: "2023-11-24" });
   * ```
   */
  get(dataset: DatasetId | string, pathValues: readonly PathArg[] = [], query: DataQuery = {}): Promise<pl.DataFrame> {
    return this.run(dataset, pathValues, query, true);
  }

  /** `get`, recorded for provenance or not (the workbench's own checks: lookup files, probes). */
  private async run(dataset: DatasetId | string, pathValues: readonly PathArg[], query: DataQuery, record: boolean): Promise<pl.DataFrame> {
    const endpoint = dataEndpoint(dataset);
    // The call's shape first, in the single-call words: a mistake is named before any request.
    checkPathArgs(endpoint, pathValues);
    const { start, end, force, ...rest } = checkQuery(query) as DataQuery;
    const range = dateRange(start, end);
    const base = withRange(endpoint, rest, range);
    const units = planUnits(endpoint, pathValues, range);
    const tap = record ? this.options.recorder?.begin(dataset, pathValues, query) : undefined;
    if (units.length === 0) {
      const frame = emptyFrame(await this.meta.schema(dataset));
      const warned = addFrameWarnings(frame, [`${dataset} has no trading day${rangeText(range)}: nothing was fetched`]);
      return tap ? tap.finish([], warned) : warned;
    }
    const requests = await Promise.all(units.map((u) => this.prepare(dataset, u, base))).catch(async (error) => {
      await tap?.fail([], error); // refused before sending: recorded with no request
      throw error;
    });
    // A universe is judged before sending (every request is known), so its requests need not
    // wait behind the first answer; one request is judged on its first answer.
    const upfront = units.length > 1 && !force;
    const judged = upfront ? this.judge.upfront(endpoint, requests, units).then(() => true) : Promise.resolve(force);
    // Several requests: the tickers are judged before any is sent (the lookup files cost one request per session).
    const fetched = units.length > 1 ? judged.then(async (pass) => (await this.checkTickersUpfront(dataset, requests), pass)) : judged;
    const done: (pl.DataFrame | undefined)[] = units.map(() => undefined); // not sparse: flatMap skips holes
    let unjudged: string[] = [];
    const assemble = () => {
      const frames = done as pl.DataFrame[];
      const frame = stackFrames(frames);
      return addFrameWarnings(frame, [...emptyPartWarnings(endpoint, units, frames, base, range, frame, requests[0].maxRows), ...unjudgedWarnings(dataset, unjudged)]);
    };
    await fetched.then((pass) => this.fetchPrepared(endpoint, requests, units, { force: pass, onProgress: rest.onProgress, tap }, (i, frame) => (done[i] = frame)))
      .then(async () => void (unjudged = await this.explainAbsent(dataset, requests, done as pl.DataFrame[]))).catch((error) => {
      // Going on after the guard stopped the call means running it anyway.
      if (error instanceof QuotaGuardError) error.resume = () => this.run(dataset, pathValues, { ...query, force: true }, record);
      else if (units.length > 1 && error instanceof WorkbenchError) {
        // A universe cut short keeps the tickers finished before the first unfinished one, in
        // the order asked, and resume() fetches only the unfinished ones.
        const firstMissing = done.findIndex((f) => f === undefined);
        const prefix = done.slice(0, firstMissing < 0 ? done.length : firstMissing) as pl.DataFrame[];
        error.partial = prefix.length ? stackFrames(prefix) : emptyFrame(requests[0].columns);
        error.resume = async () => {
          const missing = done.flatMap((f, i) => (f ? [] : [i]));
          await this.fetchPrepared(endpoint, missing.map((i) => requests[i]), missing.map((i) => units[i]), { force: true, onProgress: rest.onProgress }, (k, frame) => (done[missing[k]] = frame));
          return assemble();
        };
      }
      throw error;
    }).catch(async (error) => {
      await tap?.fail(requests, error); // a failed call is recorded too (class and message, never the key)
      throw error;
    });
    return tap ? tap.finish(requests, assemble()) : assemble();
  }

  /**
   * Raises for an asked ticker that is absent from its answer when the service does not know
   * it (a misspelling: "did you mean ...?"); known tickers with no row get warnings instead.
   */
  private async explainAbsent(dataset: string, requests: PreparedRequest[], frames: pl.DataFrame[]): Promise<string[]> {
    const unjudged = new Set<string>();
    for (const [i, request] of requests.entries()) {
      if (request.tickers) for (const t of await explainAbsentTickers(this.tickers, dataset, request.tickers, frames[i], request.maxRows)) unjudged.add(t);
    }
    return [...unjudged];
  }

  /**
   * Fetches prepared requests (one per unit) concurrently within the per-minute quota, in one
   * progress stream, behind the quota guard; `use` receives each unit's frame as it completes
   * (a download writes it there) and its results come back in unit order. Used by `get` and
   * `wb.download`; notebooks call those.
   *
   * @internal
   */
  async fetchPrepared<T>(
    endpoint: DataEndpoint,
    requests: PreparedRequest[],
    units: string[][],
    options: { force?: boolean; onProgress?: ProgressListener; tap?: FetchTap },
    use: (index: number, frame: pl.DataFrame) => T | Promise<T>,
  ): Promise<T[]> {
    const progress = new CallProgress(endpoint.dataset, units.length, options.onProgress);
    const guard = options.force || this.options.quotaGuard === false ? undefined : new CallGuard((first) => this.judge.firstAnswer(endpoint, requests, units, first, progress));
    const gated = gatedTransport(this.transport, {
      gate: this.options.gate,
      beforeSend: guard?.beforeSend,
      onHeaders: guard?.onHeaders,
      settled: guard?.settled,
      onWait: (seconds) => progress.wait(seconds, "per-minute quota"),
    });
    const transport = options.tap ? options.tap.wrap(gated) : gated;
    const results = await runUnits(units.length, requests[0]?.concurrency ?? 4, async (i) => {
      const fetch = () => new Pager(transport, requests[i], options.tap?.pageListener?.(i)).fetchAll(progress.unitListener(i));
      let fromCache = false;
      const frame = await (this.cache ? this.cache.getOrFetch(requests[i], fetch, () => (fromCache = true)) : fetch());
      options.tap?.unitDone?.(i, frame, fromCache);
      const result = await use(i, frame);
      progress.unitDone(i, frame.height);
      return result;
    });
    progress.finish();
    return results;
  }

  /**
   * 1-minute TAQ bars of one ticker or a universe (GET /api/v1/data/us-equity/eq-taq-1min/{ticker},
   * one request per ticker, concurrently), as one frame in the order asked.
   *
   * @example
   * ```ts
   * const bars = await wb.data.eqTaq1Min(["SPY", "QQQ"], { start: "2023-11-20", end: "2023-11-24" });
   * const one = await wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: { ge: "2023-11-21", le: "2023-11-22" } }, aggregation: "no_finra_trf" });
   * ```
   */
  eqTaq1Min(ticker: string | readonly string[], query: DataQuery = {}): Promise<pl.DataFrame> {
    return this.get("eq-taq-1min", [ticker], query);
  }

  /**
   * Daily OHLC bars (GET /api/v1/data/us-equity/eq-daily-ohlc).
   *
   * @example
   * ```ts
   * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: ["AAPL", "MSFT"] }, sort: ["Ticker", "TradeDate"] });
   * ```
   */
  eqDailyOhlc(query: DataQuery = {}): Promise<pl.DataFrame> {
    return this.get("eq-daily-ohlc", [], query);
  }

  /**
   * Ticks (GET /api/v1/data/us-equity/eq-taq/{trade_date}/{ticker}) of one ticker or a list, on
   * one day, a list of days, or (with `null` and `start`/`end`) every trading day between.
   *
   * @example
   * ```ts
   * const ticks = await wb.data.eqTaq("2023-11-21", "AAPL", { filters: { EventType: "TRADE" } });
   * const week = await wb.data.eqTaq(null, ["AAPL", "MSFT"], { start: "2023-11-20", end: "2023-11-24", filters: { EventType: "TRADE" } });
   * ```
   */
  eqTaq(tradeDate: DateLike | readonly DateLike[] | null, ticker: string | readonly string[], query: DataQuery = {}): Promise<pl.DataFrame> {
    return this.get("eq-taq", [tradeDate, ticker], query);
  }

  /**
   * End-of-day option analytics (GET /api/v1/data/us-equity-opt/opt-greeks-daily).
   *
   * @example
   * ```ts
   * const greeks = await wb.data.optGreeksDaily({ filters: { Ticker: "AAPL", TradeDate: "2023-11-21" } });
   * ```
   */
  optGreeksDaily(query: DataQuery = {}): Promise<pl.DataFrame> {
    return this.get("opt-greeks-daily", [], query);
  }

  /**
   * Daily open interest per contract (GET /api/v1/data/us-equity-opt/opt-open-interest).
   *
   * @example
   * ```ts
   * const oi = await wb.data.optOpenInterest({ filters: { Ticker: "SPY", TradeDate: "2023-11-21" } });
   * ```
   */
  optOpenInterest(query: DataQuery = {}): Promise<pl.DataFrame> {
    return this.get("opt-open-interest", [], query);
  }

  /**
   * Option roots, listed and delisted (GET /api/v1/data/us-equity-opt-ref/opt-sec-master).
   *
   * @example
   * ```ts
   * const roots = await wb.data.optSecMaster({ filters: { UnderTicker: "ODFL" } });
   * ```
   */
  optSecMaster(query: DataQuery = {}): Promise<pl.DataFrame> {
    return this.get("opt-sec-master", [], query);
  }

  /**
   * Adjusted option contracts' deliverables (GET /api/v1/data/us-equity-opt-ref/occ-eq-spec-settl).
   *
   * @example
   * ```ts
   * const settl = await wb.data.occEqSpecSettl({ filters: { OptionTicker: "ODFL1" } });
   * ```
   */
  occEqSpecSettl(query: DataQuery = {}): Promise<pl.DataFrame> {
    return this.get("occ-eq-spec-settl", [], query);
  }

  /**
   * Ticker to security id with end dates (GET /api/v1/data/us-equity-ref/eq-lookup-files).
   *
   * @example
   * ```ts
   * const ids = await wb.data.eqLookupFiles({ filters: { Ticker: ["SQ", "XYZ"] } });
   * ```
   */
  eqLookupFiles(query: DataQuery = {}): Promise<pl.DataFrame> {
    return this.get("eq-lookup-files", [], query);
  }
}
