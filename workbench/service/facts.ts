/**
 * What the service says about itself, loaded lazily into one object that every stage of a data
 * call is given: the identity's data access rules, each dataset's column schema and
 * availability (read once per session), the quotas (read afresh), and the ticker facts (the
 * lookup files, one request per session, and a one-row probe). No stage calls back into the
 * public API for them.
 *
 * Two transports: what a call's own checks read (rules, schemas, availability, lookup files,
 * probes) counts in the workbench's `transport.requestsSent`; the quota guard's free reads
 * (status, quotas) go through a transport of their own, so that count stays what a call sends.
 */
import type pl from "nodejs-polars";
import * as contract from "../../contract/mod.ts";
import { NotEntitledError } from "../errors/http.ts";
import type { Transport } from "../http/transport.ts";
import { ACCOUNT, DATA_ENDPOINTS, dataEndpoint, META } from "../query/endpoints.ts";
import { type PreparedRequest, prepareRequest } from "../query/prepare.ts";

/** The columns of `opt-sec-master` the option-root checks read (guard/optionRoots.ts builds its book from them). */
export const ROOT_COLUMNS = [
  "OptionTicker",
  "UnderTicker",
  "UnderSecId",
  "OptionTradeDates",
  "OptionListStatus",
  "GreeksCoverage",
] as const;
import type { Query } from "../query/query.ts";

/**
 * How the facts read data (the lookup files, a probe, a row count): every row of a prepared
 * request, paged through the workbench's one send chain (fetch/sendChain.ts, which the
 * workbench hands in), on `transport` when given; `onPage` hears each page's bytes.
 */
export type DataReader = (
  request: PreparedRequest,
  options: { transport?: Transport; onPage?: (offset: number, frame: pl.DataFrame, bytes: number) => void },
) => Promise<pl.DataFrame>;

/** A data access rule, as the contract describes it. */
/** One access rule of the identity, as the service states it. */
export type AccessRule = contract.MetaDatasetAccessRuleOut;

/** Datasets whose tickers are equity tickers (the lookup files' tickers); option datasets use roots. */
export const EQUITY_TICKER_DATASETS: readonly string[] = ["eq-taq-1min", "eq-daily-ohlc", "eq-taq"];

/** Where ticker checks resolve tickers: the identity's rules, the lookup files, a one-row probe. */
export interface TickerSource {
  /** The identity's access rules. */
  rules(): Promise<readonly AccessRule[]>;
  /** Every row of `eq-lookup-files` (spends one request). */
  lookup(): Promise<pl.DataFrame>;
  /** Every option root of `opt-sec-master`, the columns the root checks read (spends one request). */
  optionRoots?(): Promise<pl.DataFrame>;
  /**
   * Whether the service has any row of a ticker at any date (one request): the judge without
   * the lookup files; undefined when no dataset the identity may read can say.
   */
  probe?(dataset: string, ticker: string): Promise<boolean | undefined>;
}

/** A promise kept until it fails (a failed read is asked again next time). */
function remembered<T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (!value) {
    value = read();
    value.catch(() => cache.delete(key));
    cache.set(key, value);
  }
  return value;
}

/**
 * The service's facts for one workbench session.
 *
 * @example
 * ```ts
 * const chain = new SendChain(transport, new RateWindow());
 * const facts = new ServiceFacts(transport, transport.twin(), (request, options) => chain.read(request, options));
 * const schema = await facts.schema("eq-daily-ohlc"); // once per session
 * ```
 */
export class ServiceFacts implements TickerSource {
  #rules?: Promise<contract.MetaDatasetAccessRuleOut[]>;
  readonly #schemas = new Map<string, Promise<contract.ColumnRecord[]>>();
  readonly #availability = new Map<string, Promise<contract.DatasetStatus>>();
  readonly #guardStatus = new Map<string, Promise<contract.DatasetStatus>>();
  #datasets?: Promise<contract.DatasetRecord[]>;

  /**
   * The facts of one workbench's service.
   *
   * @param transport what a call's own reads go through (counted in `requestsSent`)
   * @param freeTransport the quota guard's reads of status and quotas
   * @param readData how the lookup, probe and count reads page a request (the workbench's send chain)
   */
  constructor(readonly transport: Transport, readonly freeTransport: Transport, private readonly readData: DataReader) {}

  /** The identity's data access rules, read once per session unless `refresh`. */
  rules(refresh = false): Promise<contract.MetaDatasetAccessRuleOut[]> {
    if (refresh || !this.#rules) {
      const rules = this.transport.getJson(ACCOUNT.dataAccessRules, contract.AccessRules);
      rules.catch(() => (this.#rules = undefined));
      this.#rules = rules;
    }
    return this.#rules;
  }

  /**
   * The text id of a dataset given by its text id or its short id (`EQDLY`, as
   * `/meta/datasets` lists them; asked once per session, and only for an id that is not a
   * known text id). Anything else is returned as given, for the caller to refuse by name.
   */
  async textId(id: unknown): Promise<unknown> {
    if (typeof id !== "string" || Object.hasOwn(DATA_ENDPOINTS, id) || !/^[A-Za-z0-9]{3,12}$/.test(id)) return id;
    // A free read on the guard's transport: refusing an unknown id still sends none of the call's own requests.
    this.#datasets ??= this.freeTransport.getJson(META.datasets, contract.DatasetList);
    this.#datasets.catch(() => (this.#datasets = undefined));
    const match = (await this.#datasets.catch(() => [])).find((d) => d.dataset_id.toUpperCase() === id.toUpperCase());
    return match ? match.dataset_text_id : id;
  }

  /** The identity (GET /account/my), read afresh. */
  identity(): Promise<contract.Identity> {
    return this.transport.getJson(ACCOUNT.identity, contract.Identity);
  }

  /** The quotas as the service sends them, read afresh (on the main transport: `wb.account`'s reads). */
  quotas(): Promise<contract.Quotas> {
    return this.transport.getJson(ACCOUNT.quotas, contract.Quotas);
  }

  /** The quotas for the quota guard, read afresh on the guard's own transport. */
  guardQuotas(): Promise<contract.Quotas> {
    return this.freeTransport.getJson(ACCOUNT.quotas, contract.Quotas);
  }

  /** A dataset's column schema, read once per session. */
  schema(dataset: string): Promise<contract.ColumnRecord[]> {
    return remembered(this.#schemas, dataset, () => this.transport.getJson(META.columns(dataset), contract.ColumnList));
  }

  /** A dataset's status, read afresh. */
  status(dataset: string): Promise<contract.DatasetStatus> {
    return this.transport.getJson(META.status(dataset), contract.DatasetStatus);
  }

  /** A dataset's status as first read this session: what the checks before a call compare dates with. */
  availability(dataset: string): Promise<contract.DatasetStatus> {
    return remembered(this.#availability, dataset, () => this.status(dataset));
  }

  /**
   * A dataset's status for the quota guard and the provenance record, read once per session on
   * the guard's transport (afresh with `fresh`: the cache's verify()).
   */
  guardStatus(dataset: string, fresh = false): Promise<contract.DatasetStatus> {
    const read = () => this.freeTransport.getJson(META.status(dataset), contract.DatasetStatus);
    return fresh ? read() : remembered(this.#guardStatus, dataset, read);
  }

  /** Every row of `eq-lookup-files` (one request; the ticker checks keep the book it makes). */
  lookup(): Promise<pl.DataFrame> {
    return this.#read("eq-lookup-files", [], {});
  }

  /** Every option root of `opt-sec-master`, with the columns the root checks read (one request; the checks keep the book it makes). */
  optionRoots(): Promise<pl.DataFrame> {
    return this.#read("opt-sec-master", [], { columns: [...ROOT_COLUMNS] });
  }

  /**
   * Whether the service has any row of `ticker` at any date: the dataset itself, or, for one
   * asked per trade date (eq-taq), an equity dataset of the same tickers the identity may read
   * (the next one when the ticker is outside its universe there); undefined when there is none.
   */
  async probe(dataset: string, ticker: string): Promise<boolean | undefined> {
    const readable = new Set((await this.rules()).map((r) => r.dataset_text_id));
    const candidates = EQUITY_TICKER_DATASETS.includes(dataset) ? [dataset, "eq-daily-ohlc", "eq-taq-1min"] : [dataset];
    for (const target of candidates.filter((id) => readable.has(id) && !dataEndpoint(id).pathParams.includes("trade_date"))) {
      const path = dataEndpoint(target).pathParams.includes("ticker") ? [ticker] : [];
      const filters = path.length ? undefined : { Ticker: ticker };
      try {
        return (await this.#read(target, path, { filters, maxRows: 1 })).height > 0;
      } catch (error) {
        if (!(error instanceof NotEntitledError)) throw error; // outside the identity's universe there: try the next
      }
    }
    return undefined;
  }

  /**
   * A read for `wb.estimate`'s row counts (guard/rowCount.ts): like the ticker probe, checked by
   * the rules and schema and paged. `spent` hears the requests it sent (retries included) and
   * the bytes it received, failed or not: the estimate reports them as its own cost. It goes
   * through a transport of its own, so what it sent is counted exactly whatever else runs.
   */
  async countRead(dataset: string, pathValues: string[], query: Query, spent: { requests: number; bytes: number }): Promise<pl.DataFrame> {
    const transport = this.transport.twin();
    try {
      return await this.#read(dataset, pathValues, query, transport, (_offset, _frame, bytes) => void (spent.bytes += bytes));
    } finally {
      spent.requests += transport.requestsSent;
    }
  }

  /** A read of the workbench's own (not a notebook's call): checked by the rules and schema, paged, not recorded. */
  async #read(
    dataset: string,
    pathValues: string[],
    query: Query,
    transport?: Transport,
    onPage?: (offset: number, frame: pl.DataFrame, bytes: number) => void,
  ): Promise<pl.DataFrame> {
    const [rules, schema] = await Promise.all([this.rules(), this.schema(dataset)]);
    const request = prepareRequest(dataEndpoint(dataset), pathValues, query, schema, rules);
    return this.readData(request, { transport, onPage });
  }
}
