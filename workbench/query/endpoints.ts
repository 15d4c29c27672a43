/**
 * The one place that knows the service's URLs: account, metadata and the eight data
 * endpoints with their asset class and path parameters.
 */
import { QueryError } from "../errors/base.ts";
import { UnknownDatasetError } from "../errors/unknown.ts";
import { didYouMean } from "../errors/nearest.ts";

/** The account endpoints' paths. */
export const ACCOUNT = {
  identity: "/api/v1/account/my",
  quotas: "/api/v1/account/my/quotas",
  dataAccessRules: "/api/v1/account/my/data-access-rules",
} as const;

/** The metadata endpoints' paths. */
export const META = {
  datasets: "/api/v1/meta/datasets",
  status: (id: string) => `/api/v1/meta/datasets/${encodeURIComponent(id)}/status`,
  columns: (id: string) => `/api/v1/meta/datasets/${encodeURIComponent(id)}/columns`,
} as const;

/** A data endpoint: its dataset, path parameters, variant, and the columns that carry dates and tickers. */
export interface DataEndpoint {
  /** The dataset's text id, e.g. `eq-taq-1min`. */
  dataset: string;
  /** Its asset class in the URL: `us-equity` or `us-option`. */
  assetClass: string;
  /** Path parameters in URL order. */
  pathParams: readonly string[];
  /** Query parameter choosing a variant, with its values (first is the default). */
  variant?: { param: string; values: readonly string[] };
  /** Column the access rule's date window applies to. */
  dateColumn?: string;
  /** Column the access rule's ticker universe applies to. */
  tickerColumn?: string;
  /**
   * The dataset's symbol, as its function's first argument (or `tickers:`) takes it: a ticker,
   * an option root. `path` when it is the `ticker` path value, else the column filtered.
   */
  symbol: { column: string; path: boolean; what: string };
}

/** Every data endpoint of the service, by dataset id: its URL's shape and its columns of date and ticker. */
export const DATA_ENDPOINTS = {
  "eq-taq-1min": {
    dataset: "eq-taq-1min",
    assetClass: "us-equity",
    pathParams: ["ticker"],
    variant: { param: "aggregation_logic", values: ["core", "no_finra_trf"] },
    dateColumn: "TradeDate",
    tickerColumn: "Ticker",
    symbol: { column: "Ticker", path: true, what: "ticker" },
  },
  "eq-daily-ohlc": {
    dataset: "eq-daily-ohlc",
    assetClass: "us-equity",
    pathParams: [],
    dateColumn: "TradeDate",
    tickerColumn: "Ticker",
    symbol: { column: "Ticker", path: false, what: "ticker" },
  },
  "eq-taq": {
    dataset: "eq-taq",
    assetClass: "us-equity",
    pathParams: ["trade_date", "ticker"],
    dateColumn: "TradeDate",
    tickerColumn: "Ticker",
    symbol: { column: "Ticker", path: true, what: "ticker" },
  },
  "opt-greeks-daily": {
    dataset: "opt-greeks-daily",
    assetClass: "us-equity-opt",
    pathParams: [],
    dateColumn: "TradeDate",
    tickerColumn: "Ticker",
    symbol: { column: "Ticker", path: false, what: "option root" },
  },
  "opt-open-interest": {
    dataset: "opt-open-interest",
    assetClass: "us-equity-opt",
    pathParams: [],
    dateColumn: "TradeDate",
    tickerColumn: "Ticker",
    symbol: { column: "Ticker", path: false, what: "option root" },
  },
  "opt-sec-master": {
    dataset: "opt-sec-master",
    assetClass: "us-equity-opt-ref",
    pathParams: [],
    symbol: { column: "OptionTicker", path: false, what: "option root" },
  },
  "occ-eq-spec-settl": {
    dataset: "occ-eq-spec-settl",
    assetClass: "us-equity-opt-ref",
    pathParams: [],
    symbol: { column: "OptionTicker", path: false, what: "adjusted option root" },
  },
  "eq-lookup-files": {
    dataset: "eq-lookup-files",
    assetClass: "us-equity-ref",
    pathParams: [],
    symbol: { column: "Ticker", path: false, what: "ticker" },
  },
} as const satisfies Record<string, DataEndpoint>;

/** A dataset id the workbench knows, e.g. `eq-taq-1min`. */
export type DatasetId = keyof typeof DATA_ENDPOINTS;

/**
 * The endpoint of a dataset id; throws an UnknownDatasetError naming the id, the nearest
 * known ones and all of them.
 *
 * @example
 * ```ts
 * dataEndpoint("eq-taq-1min").pathParams; // ["ticker"]
 * ```
 */
export function dataEndpoint(dataset: unknown): DataEndpoint {
  const known = Object.keys(DATA_ENDPOINTS);
  const e = typeof dataset === "string" && Object.hasOwn(DATA_ENDPOINTS, dataset)
    ? (DATA_ENDPOINTS as Record<string, DataEndpoint>)[dataset]
    : undefined;
  if (!e) {
    const shown = typeof dataset === "string" ? `'${dataset}'` : `${String(dataset)} (${typeof dataset})`;
    const near = typeof dataset === "string" ? didYouMean(dataset, known) : "";
    throw new UnknownDatasetError(`Unknown dataset ${shown}${near}: known datasets are ${known.join(", ")}`, {
      dataset: String(dataset),
      known,
    });
  }
  return e;
}

/** The column a path parameter stands for (`ticker` is Ticker, `trade_date` TradeDate). */
export const PATH_PARAM_COLUMNS: Record<string, string> = { ticker: "Ticker", trade_date: "TradeDate" };

/** The URL path of a data request, path parameters percent-encoded. */
export function dataPath(endpoint: DataEndpoint, pathValues: readonly string[]): string {
  if (pathValues.length !== endpoint.pathParams.length) {
    throw new QueryError(
      `Dataset '${endpoint.dataset}' takes ${endpoint.pathParams.length} path parameter(s) (${
        endpoint.pathParams.join(", ")
      }), got ${pathValues.length}`,
    );
  }
  return `/api/v1/data/${endpoint.assetClass}/${endpoint.dataset}${pathValues.map((v) => `/${encodeURIComponent(v)}`).join("")}`;
}
