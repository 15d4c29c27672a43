/**
 * The partition layout of a data-lake folder and the plan of what a download still has to
 * fetch. A partition is one ticker's trading day (`Ticker=AAPL/TradeDate=2023-11-21`) for
 * per-ticker datasets, one trading day (`TradeDate=2023-11-21`) for other dated ones, and the
 * whole dataset for undated ones: what the manifest records, resumes and checks.
 *
 * Files are larger than partitions where a request spans several days: such a request's rows
 * are one file, `Ticker=AAPL/part-2023-11-01_2023-11-29.parquet` (the trade date stays in the
 * file), since a Parquet file has a fixed cost that dwarfs a day of minute bars. Where the trade
 * date is in the request's path (ticks), each partition is its own file,
 * `Ticker=AAPL/TradeDate=2023-11-21/part.parquet`; an undated dataset is one `part.parquet`.
 * Missing partitions are grouped into chunks of consecutive trading days per ticker, so a
 * chunk is one paged request of the service, not one request per day.
 */
import type { DataEndpoint } from "../query/endpoints.ts";

/** Partition columns of a dataset, outermost first. */
export function lakeLayout(endpoint: DataEndpoint): string[] {
  const perTicker = endpoint.pathParams.includes("ticker");
  if (!endpoint.dateColumn) return [];
  return perTicker ? [endpoint.tickerColumn ?? "Ticker", endpoint.dateColumn] : [endpoint.dateColumn];
}

/**
 * The partition columns that files' paths carry (Hive style), outermost first: the layout
 * without the trade date when a request spans several days (its rows are one file).
 *
 * @example
 * ```ts
 * fileColumns(dataEndpoint("eq-taq-1min")); // ["Ticker"]
 * fileColumns(dataEndpoint("eq-taq"));      // ["Ticker", "TradeDate"]
 * ```
 */
export function fileColumns(endpoint: DataEndpoint): string[] {
  const layout = lakeLayout(endpoint);
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
  return layout.map((column, i) => `${column}=${encodeURIComponent((layout.length === 2 && i === 0 ? values.ticker : values.date) ?? "")}`).join("/");
}

/**
 * Every partition a download of `tickers` over `days` covers, in plan order (tickers, then days).
 *
 * @example
 * ```ts
 * wantedPartitions(["TradeDate"], [], ["2023-11-20", "2023-11-21"]); // ["TradeDate=2023-11-20", "TradeDate=2023-11-21"]
 * ```
 */
export function wantedPartitions(layout: readonly string[], tickers: readonly string[], days: readonly string[]): string[] {
  if (layout.length === 0) return [""];
  return (layout.length === 2 ? tickers : [undefined]).flatMap((ticker) => days.map((date) => partitionPath(layout, { ticker, date })));
}

/** A piece of work: one ticker (or none) over consecutive trading days, fetched as one request. */
export interface LakeChunk {
  ticker?: string;
  /** Trading days, consecutive in the calendar, ascending; [] for an undated dataset. */
  dates: string[];
}

/**
 * The chunks covering every wanted partition not yet recorded, at most `chunkDays` days each.
 *
 * @example
 * ```ts
 * planChunks(["Ticker", "TradeDate"], ["AAPL"], ["2023-11-20", "2023-11-21", "2023-11-22"], new Set(["Ticker=AAPL/TradeDate=2023-11-21"]), 20);
 * // [{ ticker: "AAPL", dates: ["2023-11-20"] }, { ticker: "AAPL", dates: ["2023-11-22"] }]
 * ```
 */
export function planChunks(layout: readonly string[], tickers: readonly string[], days: readonly string[], recorded: ReadonlySet<string>, chunkDays: number): LakeChunk[] {
  if (layout.length === 0) return recorded.has("") ? [] : [{ dates: [] }];
  const chunks: LakeChunk[] = [];
  for (const ticker of layout.length === 2 ? tickers : [undefined]) {
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
