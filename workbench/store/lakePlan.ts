/**
 * The partition layout of a data-lake folder and the plan of what a download still has to
 * fetch. Per-ticker datasets are laid out `Ticker=AAPL/TradeDate=2023-11-21/part.parquet`,
 * other dated datasets `TradeDate=2023-11-21/part.parquet`, undated ones one `part.parquet`.
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
