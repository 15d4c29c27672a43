/**
 * `wb.data`: one function per data endpoint, each returning every matching row as a typed
 * Polars DataFrame (paging, types, checks, retries and throttling included).
 */
import type pl from "nodejs-polars";
import { dataEndpoint, type DatasetId } from "../endpoints.ts";
import { Pager } from "../fetch/pager.ts";
import type { Transport } from "../http/transport.ts";
import { checkPathValues, checkQuery } from "../query/checkInput.ts";
import { prepareRequest, type PreparedRequest } from "../query/prepare.ts";
import { checkWithService } from "../query/serviceChecks.ts";
import { explainAbsentTickers, type TickerSource } from "../query/tickers.ts";
import type { Query } from "../query/query.ts";
import type { FrameCache } from "../store/cache.ts";
import type { AccountApi } from "./account.ts";
import type { MetaApi } from "./meta.ts";

export class DataApi {
  constructor(
    private readonly transport: Transport,
    private readonly meta: MetaApi,
    private readonly account: AccountApi,
    private readonly cache?: FrameCache,
  ) {}

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

  /** Where ticker checks resolve tickers: the rules, and the lookup files (one request per session). */
  readonly tickers: TickerSource = {
    rules: () => this.account.rules(),
    lookup: () => this.get("eq-lookup-files"),
    probe: async (dataset, ticker) => {
      const params = dataEndpoint(dataset).pathParams;
      if (params.includes("trade_date")) return true; // no row at any date cannot be asked without a date: left unjudged
      const path = params.includes("ticker") ? [ticker] : [];
      const filters = path.length ? undefined : { Ticker: ticker };
      return (await this.get(dataset, path, { filters, maxRows: 1 })).height > 0;
    },
  };

  /**
   * Any dataset by id: `wb.data.get("eq-daily-ohlc", [], { filters: { Ticker: "AAPL" } })`.
   *
   * @example
   * ```ts
   * const df = await wb.data.get("eq-taq", ["2023-11-21", "AAPL"], { maxRows: 1000 });
   * ```
   */
  async get(dataset: DatasetId | string, pathValues: readonly (string | Date)[] = [], query: Query = {}): Promise<pl.DataFrame> {
    const request = await this.prepare(dataset, pathValues, query);
    const fetch = () => new Pager(this.transport, request).fetchAll(query?.onProgress);
    const frame = await (this.cache ? this.cache.getOrFetch(request, fetch) : fetch());
    if (request.tickers) await explainAbsentTickers(this.tickers, dataset, request.tickers, frame, request.maxRows);
    return frame;
  }

  /**
   * 1-minute TAQ bars of one ticker (GET /api/v1/data/us-equity/eq-taq-1min/{ticker}).
   *
   * @example
   * ```ts
   * const bars = await wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: { ge: "2023-11-21", le: "2023-11-22" } }, aggregation: "no_finra_trf" });
   * ```
   */
  eqTaq1Min(ticker: string, query: Query = {}): Promise<pl.DataFrame> {
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
  eqDailyOhlc(query: Query = {}): Promise<pl.DataFrame> {
    return this.get("eq-daily-ohlc", [], query);
  }

  /**
   * Ticks of one ticker on one day (GET /api/v1/data/us-equity/eq-taq/{trade_date}/{ticker}).
   *
   * @example
   * ```ts
   * const ticks = await wb.data.eqTaq("2023-11-21", "AAPL", { filters: { EventType: "TRADE" } });
   * ```
   */
  eqTaq(tradeDate: string | Date, ticker: string, query: Query = {}): Promise<pl.DataFrame> {
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
  optGreeksDaily(query: Query = {}): Promise<pl.DataFrame> {
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
  optOpenInterest(query: Query = {}): Promise<pl.DataFrame> {
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
  optSecMaster(query: Query = {}): Promise<pl.DataFrame> {
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
  occEqSpecSettl(query: Query = {}): Promise<pl.DataFrame> {
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
  eqLookupFiles(query: Query = {}): Promise<pl.DataFrame> {
    return this.get("eq-lookup-files", [], query);
  }
}
