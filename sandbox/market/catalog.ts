/**
 * The market's catalog: for each dataset, where its files are, how they are partitioned, its
 * key (a total order, used for paging) and its column schema. The generator writes through it
 * and the service reads through it, so a dataset is described in exactly one place.
 */
import type { Column } from "./schema.ts";
import { EQ_DAILY_OHLC_COLUMNS, EQ_TAQ_1MIN_COLUMNS, EQ_TAQ_COLUMNS } from "./columns/equities.ts";
import {
  OCC_EQ_SPEC_SETTL_COLUMNS,
  OPT_GREEKS_DAILY_COLUMNS,
  OPT_OPEN_INTEREST_COLUMNS,
  OPT_SEC_MASTER_COLUMNS,
} from "./columns/options.ts";
import { EQ_LOOKUP_FILES_COLUMNS } from "./columns/reference.ts";

/** Values a dataset's files are split by, in folder order (hive style `name=value`). */
interface Partitioning {
  /** Partition names, outermost first; the last one names the file itself. */
  keys: string[];
}

/** One dataset as the service exposes it. */
export interface Dataset {
  /** Path segment and text identifier, e.g. `eq-taq-1min`. */
  textId: string;
  /** Short identifier used in access rules. */
  id: string;
  name: string;
  dataGroup: string;
  vendor: string;
  /** Asset-class path segment, e.g. `us-equity`. */
  assetClass: string;
  /** Path parameters after the dataset segment, each bound to a column. */
  pathParams: { name: string; column: string; type: "string" | "date" }[];
  /** Extra query parameter choosing a stored variant, with its allowed values (first is the default). */
  variant?: { param: string; values: string[] };
  /** Columns whose ascending order is the default (and total) order of the rows. */
  key: string[];
  /** Column holding the trading date used by date entitlements, when there is one. */
  dateColumn?: string;
  /** Column holding the ticker used by universe entitlements, when there is one. */
  tickerColumn?: string;
  partitioning: Partitioning;
  /**
   * A column that every query pins to one value (a path parameter) and by which each file is
   * written in row groups, one per value in key order: a query then decodes only its value's
   * rows of a file (Parquet statistics), about as cheap as reading them decoded from memory.
   */
  rowGroupColumn?: string;
  columns: Column[];
}

const VENDOR = "Synthetic Market (sandbox)";

/**
 * Reference datasets are one consolidated file, as of the market's last trading day
 * (`<textId>/AsOf=<date>.parquet`). They carry no date or ticker column for entitlements: an
 * access rule's date window and ticker universe apply to market data, and an identity entitled
 * to a reference dataset sees all of it (the workbench's endpoint table says the same).
 */
const SNAPSHOT: Partitioning = { keys: ["AsOf"] };

/** Every dataset the market holds, in the order `/meta/datasets` lists them. */
export const DATASETS: readonly Dataset[] = [
  {
    textId: "eq-taq-1min",
    id: "EQT1M",
    name: "US Equity TAQ 1-Minute Bars",
    dataGroup: "equity",
    vendor: VENDOR,
    assetClass: "us-equity",
    pathParams: [{ name: "ticker", column: "Ticker", type: "string" }],
    variant: { param: "aggregation_logic", values: ["core", "no_finra_trf"] },
    key: ["TradeDate", "Ticker", "BarDateTime"],
    dateColumn: "TradeDate",
    tickerColumn: "Ticker",
    partitioning: { keys: ["aggregation_logic", "TradeDate"] },
    rowGroupColumn: "Ticker",
    columns: EQ_TAQ_1MIN_COLUMNS,
  },
  {
    textId: "eq-daily-ohlc",
    id: "EQDLY",
    name: "US Equity Daily OHLC",
    dataGroup: "equity",
    vendor: VENDOR,
    assetClass: "us-equity",
    pathParams: [],
    key: ["TradeDate", "Ticker"],
    dateColumn: "TradeDate",
    tickerColumn: "Ticker",
    partitioning: { keys: ["TradeDate"] },
    columns: EQ_DAILY_OHLC_COLUMNS,
  },
  {
    textId: "eq-taq",
    id: "EQTAQ",
    name: "US Equity Trades and Quotes (ticks)",
    dataGroup: "equity",
    vendor: VENDOR,
    assetClass: "us-equity",
    pathParams: [
      { name: "trade_date", column: "TradeDate", type: "date" },
      { name: "ticker", column: "Ticker", type: "string" },
    ],
    key: ["TradeDate", "Ticker", "EventDateTime"],
    dateColumn: "TradeDate",
    tickerColumn: "Ticker",
    partitioning: { keys: ["TradeDate", "Ticker"] },
    columns: EQ_TAQ_COLUMNS,
  },
  {
    textId: "opt-greeks-daily",
    id: "OPTGK",
    name: "US Equity Options Daily Analytics (implied vol and Greeks)",
    dataGroup: "option",
    vendor: VENDOR,
    assetClass: "us-equity-opt",
    pathParams: [],
    key: ["TradeDate", "Ticker", "ExpirationDate", "Strike", "CallPut"],
    dateColumn: "TradeDate",
    // The option root: a universe of ["AAPL"] reaches the AAPL root, not adjusted roots such as ODFL1.
    tickerColumn: "Ticker",
    partitioning: { keys: ["TradeDate"] },
    columns: OPT_GREEKS_DAILY_COLUMNS,
  },
  {
    textId: "opt-open-interest",
    id: "OPTOI",
    name: "US Equity Options Open Interest",
    dataGroup: "option",
    vendor: VENDOR,
    assetClass: "us-equity-opt",
    pathParams: [],
    key: ["TradeDate", "Ticker", "ExpirationDate", "Strike", "CallPut"],
    dateColumn: "TradeDate",
    tickerColumn: "Ticker",
    partitioning: { keys: ["TradeDate"] },
    columns: OPT_OPEN_INTEREST_COLUMNS,
  },
  {
    textId: "opt-sec-master",
    id: "OPTSM",
    name: "US Equity Options Security Master",
    dataGroup: "option-reference",
    vendor: VENDOR,
    assetClass: "us-equity-opt-ref",
    pathParams: [],
    key: ["ASID"],
    partitioning: SNAPSHOT,
    columns: OPT_SEC_MASTER_COLUMNS,
  },
  {
    textId: "occ-eq-spec-settl",
    id: "OCCSS",
    name: "OCC Equity Options Special Settlements",
    dataGroup: "option-reference",
    vendor: VENDOR,
    assetClass: "us-equity-opt-ref",
    pathParams: [],
    key: ["ProcessDate", "OptionTicker", "DeliveryComponents"],
    partitioning: SNAPSHOT,
    columns: OCC_EQ_SPEC_SETTL_COLUMNS,
  },
  {
    textId: "eq-lookup-files",
    id: "EQLKP",
    name: "US Equity Ticker Lookup",
    dataGroup: "equity-reference",
    vendor: VENDOR,
    assetClass: "us-equity-ref",
    pathParams: [],
    key: ["Ticker", "EndDate"],
    partitioning: SNAPSHOT,
    columns: EQ_LOOKUP_FILES_COLUMNS,
  },
];

/** The dataset with this text id; throws naming the id and the known ones. */
export function datasetByTextId(textId: string): Dataset {
  const found = DATASETS.find((d) => d.textId === textId);
  if (!found) {
    throw new Error(`Unknown dataset '${textId}': known datasets are ${DATASETS.map((d) => d.textId).join(", ")}`);
  }
  return found;
}

/**
 * Relative path of one partition file: `<textId>/<key>=<value>/.../<lastKey>=<value>.parquet`.
 *
 * @example
 * ```ts
 * partitionPath(datasetByTextId("eq-taq"), { TradeDate: "2023-11-21", Ticker: "AAPL" });
 * // "eq-taq/TradeDate=2023-11-21/Ticker=AAPL.parquet"
 * ```
 */
export function partitionPath(dataset: Dataset, values: Record<string, string>): string {
  const parts = dataset.partitioning.keys.map((k) => {
    const v = values[k];
    if (v === undefined) throw new Error(`Partition value for '${k}' missing for dataset '${dataset.textId}'`);
    return `${k}=${v}`;
  });
  return `${dataset.textId}/${parts.join("/")}.parquet`;
}
