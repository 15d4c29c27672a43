/**
 * One partition of a data-lake folder read back as the frame the download fetched: its rows
 * of the file that holds it (a file of several days holds the trade date as a column), with
 * the partition columns the file's path carries (Ticker, TradeDate) put back, typed and in the
 * dataset's column order. A re-run that reuses a partition hashes this frame,
 * so its record says what the folder holds now, comparable with the hash of the fetch that
 * wrote it.
 */
import pl from "nodejs-polars";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { dtypeOf, emptyFrame } from "../frames/frames.ts";
import { splitByDate } from "./lakeSplit.ts";
import { partitionFile } from "./lakePlan.ts";
import { dateInsideFiles, type Manifest } from "./manifest.ts";
import { datasetColumns } from "./lakeScan.ts";

/** The partition column values a path carries: `Ticker=AAPL/TradeDate=2023-11-21` gives AAPL and 2023-11-21. */
function pathValues(path: string): Map<string, string> {
  return new Map(
    path.split("/").filter((segment) => segment.includes("=")).map((segment) => {
      const at = segment.indexOf("=");
      return [segment.slice(0, at), decodeURIComponent(segment.slice(at + 1))];
    }),
  );
}

/** The files a caller read, by path relative to the folder: each file's partitions by their date (`""` for a file of one partition). */
export type LakeFilesRead = Map<string, Map<string, pl.DataFrame>>;

/**
 * The rows of partition `path` as fetched (partition columns included), or `undefined` when
 * the folder records it as empty (no file). Throws when a partition recorded with rows has no
 * file (deleted since). `files` holds the last file read, cut into its partitions, for a
 * caller reading the partitions of one file in turn.
 *
 * @example
 * ```ts
 * import { readManifest } from "./workbench/store/manifest.ts";
 * const day = readLakePartition("lake/bars", readManifest("lake/bars")!, "Ticker=AAPL/TradeDate=2023-11-21");
 * day?.height; // 960
 * ```
 */
export function readLakePartition(
  dir: string,
  manifest: Manifest,
  path: string,
  files: LakeFilesRead = new Map(),
): pl.DataFrame | undefined {
  const record = manifest.partitions[path];
  if ((record?.rows ?? 0) === 0) return undefined;
  const relative = partitionFile(path, record);
  let parts = files.get(relative);
  if (!parts) {
    const file = join(dir, relative);
    if (!existsSync(file)) throw new Error(`Partition '${path}' of '${dir}' is recorded with ${record.rows} rows but its file is missing`);
    files.clear();
    files.set(relative, parts = readLakeFile(file, relative, manifest));
  }
  // A file of several days holds the trade date: the partition is its date's rows.
  const date = dateInsideFiles(manifest);
  return parts.get(date === undefined ? "" : pathValues(path).get(date) ?? "") ?? emptyFrame(manifest.columns);
}

/** A lake file as fetched (the partition columns its path carries put back, in column order), cut by date when it holds several. */
function readLakeFile(file: string, relative: string, manifest: Manifest): Map<string, pl.DataFrame> {
  const rows = pl.readParquet(file);
  const inFile = new Set(rows.columns);
  const fromPath = [...pathValues(dirname(relative))].filter(([name]) => !inFile.has(name));
  const partitionColumns = fromPath.map(([name, value]) => {
    const column = manifest.columns.find((c) => c.name === name);
    const typed = column?.data_type === "date"
      ? pl.lit(value).str.strptime(pl.Date, "%Y-%m-%d")
      : pl.lit(value).cast(column ? dtypeOf(column) : pl.String);
    return typed.alias(name);
  });
  // Columns added, then all put in order by name: about half the time of one expression a column.
  const frame = rows.withColumns(...partitionColumns).select(...datasetColumns(manifest));
  const date = dateInsideFiles(manifest);
  return date === undefined ? new Map([["", frame]]) : splitByDate(frame, date).byDate;
}
