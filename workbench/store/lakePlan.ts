/**
 * The partition layout of a data-lake folder and the plan of what a download still has to
 * fetch. A partition is one ticker's trading day (`Ticker=AAPL/TradeDate=2023-11-21`) for
 * datasets asked by ticker (in the path, or as a Ticker filter: a dataset's folder then takes
 * any set of tickers or option roots over any number of downloads), one trading day
 * (`TradeDate=2023-11-21`) for dated ones asked without tickers (the whole market), and the
 * whole dataset for undated ones: what the manifest records, resumes and checks.
 *
 * Files are larger than partitions where a request spans several days: such a request's rows
 * of one ticker are one file, `Ticker=AAPL/part-2023-11-01_2023-11-29.parquet` (the trade date
 * stays in the file), since a Parquet file has a fixed cost that dwarfs a day of minute bars.
 * Where the trade date is in the request's path (ticks), each partition is its own file,
 * `Ticker=AAPL/TradeDate=2023-11-21/part.parquet`; an undated dataset is one `part.parquet`.
 * Missing partitions are grouped into chunks of consecutive trading days per ticker, so a
 * chunk is one paged request of the service, not one request per day; where tickers are a
 * filter, the chunks of tickers missing the same days are one request.
 */
import type { ColumnInfo } from "../frames/frames.ts";
import type { DataEndpoint } from "../query/endpoints.ts";
import type { TimeUnit } from "./lakeRecords.ts";

/**
 * Partition columns of a dataset's folder, outermost first: by ticker and trade date when the
 * dataset is asked by ticker (in its path, or `withTickers`: a Ticker filter), else by trade
 * date, or none for an undated dataset.
 *
 * @example
 * ```ts
 * lakeLayout(dataEndpoint("eq-daily-ohlc"), true);  // ["Ticker", "TradeDate"]
 * lakeLayout(dataEndpoint("eq-daily-ohlc"), false); // ["TradeDate"]: the whole market
 * ```
 */
export function lakeLayout(endpoint: DataEndpoint, withTickers = false): string[] {
  const perTicker = endpoint.pathParams.includes("ticker") || (withTickers && endpoint.tickerColumn !== undefined);
  if (!endpoint.dateColumn) return [];
  return perTicker ? [endpoint.tickerColumn ?? "Ticker", endpoint.dateColumn] : [endpoint.dateColumn];
}

/**
 * The unit each date-time column is stored in: microseconds for columns of nanosecond type
 * whose values are whole microseconds (bar starts, option analytics' underlying times: a
 * unit Spark, Trino and Athena read), nanoseconds where the dataset is ticks (the trade date in
 * the request's path: event times need them), milliseconds for millisecond columns.
 *
 * @example
 * ```ts
 * lakeTimeUnits(dataEndpoint("eq-taq-1min"), [{ name: "BarDateTime", data_type: "datetime_ns" }]); // { BarDateTime: "us" }
 * lakeTimeUnits(dataEndpoint("eq-taq"), [{ name: "EventDateTime", data_type: "datetime_ns" }]);     // { EventDateTime: "ns" }
 * ```
 */
export function lakeTimeUnits(endpoint: DataEndpoint, columns: readonly ColumnInfo[]): Record<string, TimeUnit> {
  const ticks = endpoint.pathParams.includes("trade_date");
  return Object.fromEntries(columns.flatMap((c): [string, TimeUnit][] => {
    if (c.data_type === "datetime_ms") return [[c.name, "ms"]];
    if (c.data_type === "datetime_ns") return [[c.name, ticks ? "ns" : "us"]];
    return [];
  }));
}

/**
 * The partition columns that files' paths carry (Hive style), outermost first: the layout
 * without the trade date when a request spans several days (its rows are one file).
 *
 * @example
 * ```ts
 * fileColumns(dataEndpoint("eq-taq-1min")); // ["Ticker"]
 * fileColumns(dataEndpoint("eq-daily-ohlc"), ["Ticker", "TradeDate"]); // ["Ticker"]
 * fileColumns(dataEndpoint("eq-taq"));      // ["Ticker", "TradeDate"]
 * ```
 */
export function fileColumns(endpoint: DataEndpoint, layout = lakeLayout(endpoint)): string[] {
  return endpoint.pathParams.includes("trade_date") ? layout : layout.filter((c) => c !== endpoint.dateColumn);
}

/**
 * The file of a request's rows spanning `dates` (ascending), relative to the folder, for a
 * folder whose files' paths carry `columns` (no trade date).
 *
 * @example
 * ```ts
 * chunkFile(["Ticker"], "AAPL", ["2023-11-20", "2023-11-21"]); // "Ticker=AAPL/part-2023-11-20_2023-11-21.parquet"
 * ```
 */
export function chunkFile(columns: readonly string[], ticker: string | undefined, dates: readonly string[]): string {
  const folder = columns.map((column) => `${column}=${encodeURIComponent(ticker ?? "")}`);
  return [...folder, `part-${dates[0]}_${dates.at(-1)}.parquet`].join("/");
}

/**
 * The file holding partition `path`, relative to the folder: the one its record names, else
 * the partition's own `part.parquet`.
 *
 * @example
 * ```ts
 * partitionFile("Ticker=AAPL/TradeDate=2023-11-21", {}); // "Ticker=AAPL/TradeDate=2023-11-21/part.parquet"
 * ```
 */
export function partitionFile(path: string, record: { file?: string }): string {
  return record.file ?? (path ? `${path}/part.parquet` : "part.parquet");
}

/** The folder of one partition, values percent-encoded as Hive does (`""` for the single file). */
export function partitionPath(layout: readonly string[], values: { ticker?: string; date?: string }): string {
  return layout.map((column, i) => `${column}=${encodeURIComponent((layout.length === 2 && i === 0 ? values.ticker : values.date) ?? "")}`)
    .join("/");
}

/** The days each ticker of a download is fetched for (one entry without a ticker for a folder by trade date). */
export type LakeUniverse = readonly { ticker?: string; days: readonly string[] }[];

/**
 * The universe of `tickers` over `days` (every ticker every day; `[]` tickers: one entry without
 * a ticker, for a folder by trade date or an undated one).
 *
 * @example
 * ```ts
 * universeOf(["AAPL"], ["2023-11-20", "2023-11-21"]); // [{ ticker: "AAPL", days: ["2023-11-20", "2023-11-21"] }]
 * ```
 */
export function universeOf(tickers: readonly string[], days: readonly string[]): { ticker?: string; days: readonly string[] }[] {
  return tickers.length ? tickers.map((ticker) => ({ ticker, days })) : [{ days }];
}

/**
 * Every partition a download of `universe` covers, in plan order (tickers, then days).
 *
 * @example
 * ```ts
 * wantedPartitions(["TradeDate"], [{ days: ["2023-11-20", "2023-11-21"] }]); // ["TradeDate=2023-11-20", "TradeDate=2023-11-21"]
 * ```
 */
export function wantedPartitions(layout: readonly string[], universe: LakeUniverse): string[] {
  if (layout.length === 0) return [""];
  const entries = layout.length === 2 ? universe : [{ days: universe[0]?.days ?? [] }];
  return entries.flatMap(({ ticker, days }) => days.map((date) => partitionPath(layout, { ticker, date })));
}

/** A piece of work: one ticker (or none) over consecutive trading days, fetched as one request. */
export interface LakeChunk {
  /** The ticker in the request's path, absent for a dataset fetched by date. */
  ticker?: string;
  /** Trading days, consecutive in the calendar, ascending; [] for an undated dataset. */
  dates: string[];
}

/**
 * The chunks covering every wanted partition not yet recorded, at most `chunkDays` days each.
 *
 * @example
 * ```ts
 * planChunks(["Ticker", "TradeDate"], [{ ticker: "AAPL", days: ["2023-11-20", "2023-11-21", "2023-11-22"] }], new Set(["Ticker=AAPL/TradeDate=2023-11-21"]), 20);
 * // [{ ticker: "AAPL", dates: ["2023-11-20"] }, { ticker: "AAPL", dates: ["2023-11-22"] }]
 * ```
 */
export function planChunks(
  layout: readonly string[],
  universe: LakeUniverse,
  recorded: ReadonlySet<string>,
  chunkDays: number,
): LakeChunk[] {
  if (layout.length === 0) return recorded.has("") ? [] : [{ dates: [] }];
  const chunks: LakeChunk[] = [];
  for (const { ticker, days } of layout.length === 2 ? universe : [{ days: universe[0]?.days ?? [] }]) {
    let run: string[] = [];
    const flush = () => {
      if (run.length) chunks.push({ ticker, dates: run });
      run = [];
    };
    for (const date of days) {
      if (recorded.has(partitionPath(layout, { ticker, date }))) flush();
      else {
        run.push(date);
        if (run.length >= chunkDays) flush();
      }
    }
    flush();
  }
  return chunks;
}

/** One request of a download: its tickers (one in the path, or several as a filter; none by trade date) over its days. */
export interface LakeUnit {
  /** Its tickers: one in the path, several as a filter, none for the whole market. */
  tickers: string[];
  /** Its trading days, ascending; [] for an undated dataset. */
  dates: string[];
}

/**
 * The requests of a download: a chunk each where the ticker is in the request's path; where
 * tickers are a filter, the chunks of the same days as one request (up to `maxTickers`).
 *
 * @example
 * ```ts
 * lakeUnits([{ ticker: "AAPL", dates: ["2023-11-20"] }, { ticker: "MSFT", dates: ["2023-11-20"] }], false, 100);
 * // [{ tickers: ["AAPL", "MSFT"], dates: ["2023-11-20"] }]
 * ```
 */
export function lakeUnits(chunks: readonly LakeChunk[], tickerInPath: boolean, maxTickers: number): LakeUnit[] {
  if (tickerInPath) return chunks.map((c) => ({ tickers: c.ticker === undefined ? [] : [c.ticker], dates: c.dates }));
  const byDates = new Map<string, LakeUnit[]>();
  for (const c of chunks) {
    const key = c.dates.join(",");
    const units = byDates.get(key) ?? [];
    const last = units.at(-1);
    if (last && c.ticker !== undefined && last.tickers.length < maxTickers) last.tickers.push(c.ticker);
    else units.push({ tickers: c.ticker === undefined ? [] : [c.ticker], dates: c.dates });
    byDates.set(key, units);
  }
  return [...byDates.values()].flat();
}
