/**
 * What a query should return, computed without the service: the dataset read straight from
 * the market's Parquet files with Polars, in the service's order (the files' partition order,
 * which is the dataset key's order), then filtered, sorted and narrowed by the test.
 *
 * @example
 * ```ts
 * const bars = marketFrame(dir, "eq-taq-1min", "aggregation_logic=core").filter(pl.col("Ticker").eq(pl.lit("AAPL")));
 * ```
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import pl from "nodejs-polars";

/** The key a requested sort is completed by (sandbox/market/catalog.ts). */
export const DATASET_KEYS = {
  "eq-taq-1min": ["TradeDate", "Ticker", "BarDateTime"],
  "eq-daily-ohlc": ["TradeDate", "Ticker"],
  "eq-taq": ["TradeDate", "Ticker", "EventDateTime"],
} as const;

function parquetFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => parquetFiles(join(path, name))).filter((p) => p.endsWith(".parquet"));
}

/** The datasets the market holds: its folders, by text id. */
export function marketDatasets(marketDir: string): string[] {
  return readdirSync(marketDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

/** Every row of a dataset (or of the partition folder or file `under` it), in file order. */
export function marketFrame(marketDir: string, dataset: string, under = ""): pl.DataFrame {
  const files = parquetFiles(join(marketDir, dataset, under));
  if (files.length === 0) throw new Error(`No Parquet files for ${dataset} under '${under}' in ${marketDir}`);
  return pl.concat(files.map((f) => pl.readParquet(f)), { how: "vertical" });
}

/** The frame sorted as the service sorts: the requested columns, then the rest of the key ascending. */
export function serviceSort(frame: pl.DataFrame, dataset: keyof typeof DATASET_KEYS, sort: string[]): pl.DataFrame {
  const columns = sort.map((s) => s.replace(/^[+-]/, ""));
  const tieBreak = DATASET_KEYS[dataset].filter((k) => !columns.includes(k));
  return frame.sort([...columns, ...tieBreak], [...sort.map((s) => s.startsWith("-")), ...tieBreak.map(() => false)]);
}
