/**
 * One lazy scan per market file, kept and reused by every query of that file. A scan reads its
 * file's Parquet footer (schema, row groups and their statistics) the first time it runs and
 * keeps it, so a query planned on a kept scan skips that read; the market does not change while
 * the service runs. Kept least recently used first out, up to a bound: a kept scan holds its
 * footer only, not the file's data.
 */
import pl from "nodejs-polars";
import type { MarketFile } from "./marketFiles.ts";

/** Scans kept per worker: more than the files a month of every dataset's queries touch. */
export const SCANS_KEPT = 512;

const scans = new Map<string, pl.LazyDataFrame>();

/**
 * The kept lazy scan of `file` (made on first use).
 *
 * @example
 * ```ts
 * const rows = fileScan(file).filter(pl.col("Ticker").eq(pl.lit("AAPL"))).collectSync();
 * ```
 */
export function fileScan(file: MarketFile): pl.LazyDataFrame {
  const key = `${file.path}\u0000${file.bytes}`;
  let scan = scans.get(key);
  if (scan !== undefined) {
    scans.delete(key);
  } else {
    scan = pl.scanParquet(file.path);
    if (scans.size >= SCANS_KEPT) scans.delete(scans.keys().next().value!);
  }
  scans.set(key, scan);
  return scan;
}
