/**
 * `wb.data`: one function per data endpoint, each returning every matching row as a typed
 * Polars DataFrame (paging, types, checks, retries and throttling included). Per-ticker
 * endpoints take one ticker or a list; every dataset with a trade date takes `start`/`end`.
 * A universe is fetched concurrently within the per-minute quota, in one progress stream,
 * and returned as one frame in the order asked; the quota guard stops a call that would
 * spend too much of the month unless it says `force: true`.
 */
import type pl from "nodejs-polars";
import { progressListener } from "../events/progressListener.ts";
import { dataEndpoint, type DatasetId } from "../query/endpoints.ts";
import { type DataQuery, type PathArg, planCall } from "../query/plan.ts";
import type { DateLike } from "../query/dates.ts";
import { frameSink } from "../pipeline/frameSink.ts";
import type { Pipeline } from "../pipeline/pipeline.ts";
import type { ServiceFacts } from "../service/facts.ts";

export type { DataQuery } from "../query/plan.ts";

/**
 * `wb.data`: the dataset functions.
 *
 * @example
 * ```ts
 * const bars = await wb.data.eqTaq1Min("AAPL", { start: "2023-11-20", end: "2023-11-24" });
 * ```
 */
export class DataApi {
  readonly #pipeline: Pipeline;
  readonly #facts: ServiceFacts;

  /** @param pipeline the workbench's pipeline; @param facts the service's facts it uses */
  constructor(pipeline: Pipeline, facts: ServiceFacts) {
    this.#pipeline = pipeline;
    this.#facts = facts;
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
  async get(dataset: DatasetId | string, pathValues: readonly PathArg[] = [], query: DataQuery = {}): Promise<pl.DataFrame> {
    const plan = planCall(dataEndpoint(await this.#facts.textId(dataset)), pathValues, query);
    const onProgress = plan.base.onProgress;
    return await this.#pipeline.run({
      plan,
      info: { kind: "call", dataset: plan.endpoint.dataset, pathValues, query },
      listeners: onProgress ? [progressListener(plan.endpoint.dataset, onProgress)] : [],
      upfront: plan.units.length > 1,
    }, frameSink(this.#facts, plan));
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
