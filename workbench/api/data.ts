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
import { type DataQuery, type PathArg, planCall, unitTickers } from "../query/plan.ts";
import type { DateLike } from "../query/dates.ts";
import { QueryError } from "../errors/base.ts";
import { callForm, symbolCall, type SymbolQuery, type Symbols } from "../query/symbols.ts";
import { frameSink } from "../pipeline/frameSink.ts";
import type { Pipeline } from "../pipeline/pipeline.ts";
import type { ServiceFacts } from "../service/facts.ts";

export type { DataQuery } from "../query/plan.ts";
export type { SymbolQuery, Symbols } from "../query/symbols.ts";

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

  /**
   * Made by `connect()`; a notebook uses `wb.data`.
   *
   * @param pipeline the workbench's pipeline
   * @param facts the service's facts it uses
   * @internal
   */
  constructor(pipeline: Pipeline, facts: ServiceFacts) {
    this.#pipeline = pipeline;
    this.#facts = facts;
  }

  /** A dataset function's call, in its one form (symbols first or `tickers:`; `start`/`end` or `date`). */
  #symbolCall(name: string, dataset: DatasetId, first: unknown, second: unknown): Promise<pl.DataFrame> {
    return Promise.resolve().then(() => {
      const { pathArgs, query } = symbolCall(name, dataEndpoint(dataset), first, second);
      return this.get(dataset, pathArgs, query);
    });
  }

  /**
   * 1-minute TAQ bars (GET /api/v1/data/us-equity/eq-taq-1min/{ticker}) of one ticker or a
   * universe, one request per ticker, fetched concurrently, as one frame in the order asked.
   *
   * @example
   * ```ts
   * const bars = await wb.data.eqTaq1Min(["SPY", "QQQ"], { start: "2023-11-20", end: "2023-11-24" });
   * const day = await wb.data.eqTaq1Min("AAPL", { date: "2023-11-21", aggregation: "no_finra_trf" });
   * ```
   */
  eqTaq1Min(tickers: Symbols | SymbolQuery, query?: SymbolQuery): Promise<pl.DataFrame> {
    return this.#symbolCall("eqTaq1Min", "eq-taq-1min", tickers, query);
  }

  /**
   * Daily OHLC bars (GET /api/v1/data/us-equity/eq-daily-ohlc), of every ticker or of those given.
   *
   * @example
   * ```ts
   * const odfl = await wb.data.eqDailyOhlc("ODFL", { start: "2023-11-01", end: "2023-11-30" });
   * const all = await wb.data.eqDailyOhlc({ date: "2023-11-21" });
   * ```
   */
  eqDailyOhlc(tickers?: Symbols | SymbolQuery, query?: SymbolQuery): Promise<pl.DataFrame> {
    return this.#symbolCall("eqDailyOhlc", "eq-daily-ohlc", tickers, query);
  }

  /**
   * Ticks (GET /api/v1/data/us-equity/eq-taq/{trade_date}/{ticker}) of one ticker or a list, on
   * one day (`date`) or every trading day from `start` to `end`: one request per ticker and day.
   * The REST order, `eqTaq(date, ticker, query)`, is still taken.
   *
   * @example
   * ```ts
   * const ticks = await wb.data.eqTaq("AAPL", { date: "2023-11-21", filters: { EventType: "TRADE" } });
   * const week = await wb.data.eqTaq(["AAPL", "MSFT"], { start: "2023-11-20", end: "2023-11-24" });
   * ```
   */
  eqTaq(
    tickers: Symbols | SymbolQuery | DateLike | readonly DateLike[] | null,
    query?: SymbolQuery | Symbols,
    rest?: DataQuery,
  ): Promise<pl.DataFrame> {
    if (isRestOrder(tickers, query)) return this.get("eq-taq", [tickers as PathArg, query as Symbols], rest ?? {});
    if (rest !== undefined) {
      return Promise.reject(new QueryError(`eqTaq takes (tickers, options): call ${callForm("eqTaq", dataEndpoint("eq-taq"))}`));
    }
    return this.#symbolCall("eqTaq", "eq-taq", tickers, query);
  }

  /**
   * End-of-day option analytics (GET /api/v1/data/us-equity-opt/opt-greeks-daily) of the option
   * roots given, or of every root.
   *
   * @example
   * ```ts
   * const greeks = await wb.data.optGreeksDaily("AAPL", { date: "2023-11-21" });
   * ```
   */
  optGreeksDaily(roots?: Symbols | SymbolQuery, query?: SymbolQuery): Promise<pl.DataFrame> {
    return this.#symbolCall("optGreeksDaily", "opt-greeks-daily", roots, query);
  }

  /**
   * Daily open interest per contract (GET /api/v1/data/us-equity-opt/opt-open-interest) of the
   * option roots given, or of every root.
   *
   * @example
   * ```ts
   * const oi = await wb.data.optOpenInterest(["SPY", "QQQ"], { date: "2023-11-21" });
   * ```
   */
  optOpenInterest(roots?: Symbols | SymbolQuery, query?: SymbolQuery): Promise<pl.DataFrame> {
    return this.#symbolCall("optOpenInterest", "opt-open-interest", roots, query);
  }

  /**
   * Option roots, listed and delisted (GET /api/v1/data/us-equity-opt-ref/opt-sec-master): the
   * roots given (`OptionTicker`), or every root.
   *
   * @example
   * ```ts
   * const odfl = await wb.data.optSecMaster({ filters: { UnderTicker: "ODFL" } });
   * const one = await wb.data.optSecMaster("ODFL1");
   * ```
   */
  optSecMaster(roots?: Symbols | SymbolQuery, query?: SymbolQuery): Promise<pl.DataFrame> {
    return this.#symbolCall("optSecMaster", "opt-sec-master", roots, query);
  }

  /**
   * Adjusted option contracts' deliverables (GET /api/v1/data/us-equity-opt-ref/occ-eq-spec-settl)
   * of the adjusted roots given (`OptionTicker`), or of every one.
   *
   * @example
   * ```ts
   * const settl = await wb.data.occEqSpecSettl("ODFL1");
   * ```
   */
  occEqSpecSettl(roots?: Symbols | SymbolQuery, query?: SymbolQuery): Promise<pl.DataFrame> {
    return this.#symbolCall("occEqSpecSettl", "occ-eq-spec-settl", roots, query);
  }

  /**
   * Ticker to security id with end dates (GET /api/v1/data/us-equity-ref/eq-lookup-files), of the
   * tickers given or of every one.
   *
   * @example
   * ```ts
   * const ids = await wb.data.eqLookupFiles(["SQ", "XYZ"]);
   * ```
   */
  eqLookupFiles(tickers?: Symbols | SymbolQuery, query?: SymbolQuery): Promise<pl.DataFrame> {
    return this.#symbolCall("eqLookupFiles", "eq-lookup-files", tickers, query);
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
      listeners: onProgress ? [progressListener(plan.endpoint.dataset, onProgress, plan.units.length, unitTickers(plan))] : [],
      upfront: plan.units.length > 1,
    }, frameSink(this.#facts, plan));
  }

  /**
   * `String(wb.data)` and template literals: the object has no Object.prototype (see below), so
   * it converts itself.
   */
  [Symbol.toPrimitive](): string {
    return "wb.data";
  }

  /** How `wb.data` shows as a cell's value or in `console.log`: its functions. */
  [Symbol.for("Deno.customInspect")](): string {
    return `wb.data { ${DATA_FUNCTIONS.join(", ")} }`;
  }
}

/** The public functions of `wb.data`, in the order completion lists them. */
const DATA_FUNCTIONS = [
  "eqTaq1Min",
  "eqDailyOhlc",
  "eqTaq",
  "optGreeksDaily",
  "optOpenInterest",
  "optSecMaster",
  "occEqSpecSettl",
  "eqLookupFiles",
  "get",
];

// Completion on `wb.data.` in the Deno kernel lists the object's properties down its prototype
// chain, constructor and Object.prototype's members included: without them it lists the
// dataset functions (in the class's order: they come before get) and nothing else.
delete (DataApi.prototype as { constructor?: unknown }).constructor;
Object.setPrototypeOf(DataApi.prototype, null);

/**
 * `eqTaq(date, ticker, ...)`: the REST order. A symbol (text or a list) second can only be that
 * order (the one form takes options second), so the first is then the trade date, and a
 * malformed one is refused by name.
 */
function isRestOrder(first: unknown, second: unknown): boolean {
  const symbols = typeof second === "string" || Array.isArray(second);
  return symbols && (first === null || typeof first === "string" || first instanceof Date || Array.isArray(first));
}
