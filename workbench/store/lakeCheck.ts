/**
 * Checks that a lake partition's file still holds what the folder recorded when it was written:
 * its size (recorded with each partition), Parquet's magic bytes at both ends (a truncated or
 * overwritten file fails one of them) and, for partitions recorded before sizes were, the row
 * count in its footer. Cheap: one stat and two 4-byte reads a file.
 */
import pl from "nodejs-polars";
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { partitionFile } from "./lakePlan.ts";

/**
 * What the folder records of a partition: its rows, the size of its file (absent before sizes
 * were recorded) and the file, relative to the folder, when it is not the partition's own
 * `part.parquet` (a file holding several days).
 */
export interface PartitionRecordOnDisk {
  rows: number;
  bytes?: number;
  file?: string;
}

const MAGIC = "PAR1";

/** The 4 bytes of `file` at `position`, as text. */
function fourBytes(fd: number, position: number): string {
  const buffer = new Uint8Array(4);
  readSync(fd, buffer, 0, 4, position);
  return new TextDecoder().decode(buffer);
}

/**
 * Why partition `path` of `dir` does not hold what `record` says, or undefined when it does (a
 * partition recorded with no rows has no file).
 *
 * @example
 * ```ts
 * partitionDamage("lake/bars", "Ticker=AAPL/TradeDate=2023-11-21", { rows: 390, bytes: 61_234 });
 * // "its file is 3,000 bytes where 61,234 were written" after a truncation
 * ```
 */
export function partitionDamage(dir: string, path: string, record: PartitionRecordOnDisk): string | undefined {
  if (record.rows === 0) return undefined;
  const file = join(dir, partitionFile(path, record));
  if (!existsSync(file)) return "its file is missing";
  const size = statSync(file).size;
  if (record.bytes !== undefined && size !== record.bytes) return `its file is ${size.toLocaleString("en-US")} bytes where ${record.bytes.toLocaleString("en-US")} were written`;
  if (size < 12) return `its file is ${size} bytes: not a Parquet file`;
  const fd = openSync(file, "r");
  try {
    if (fourBytes(fd, 0) !== MAGIC || fourBytes(fd, size - 4) !== MAGIC) return "its file is not a whole Parquet file (no magic bytes at its start or end)";
  } finally {
    closeSync(fd);
  }
  if (record.bytes === undefined) {
    try {
      const rows = Number(pl.scanParquet(file).select(pl.len().alias("n")).collectSync().getColumn("n").get(0));
      if (rows !== record.rows) return `its file holds ${rows.toLocaleString("en-US")} rows where ${record.rows.toLocaleString("en-US")} were written`;
    } catch (error) {
      return `its footer cannot be read (${(error as Error).message.split("\n")[0]})`;
    }
  }
  return undefined;
}

/**
 * `partitionDamage` for the partitions of one folder, each file checked once however many
 * partitions it holds (a file of a request's days holds up to twenty).
 *
 * @example
 * ```ts
 * const damage = damageChecker("lake/bars");
 * damage("Ticker=AAPL/TradeDate=2023-11-21", { rows: 960, bytes: 1_234_567, file: "Ticker=AAPL/part-2023-11-01_2023-11-29.parquet" });
 * ```
 */
export function damageChecker(dir: string): (path: string, record: PartitionRecordOnDisk) => string | undefined {
  const seen = new Map<string, string | undefined>();
  return (path, record) => {
    // Records without a size are checked by their own rows: each on its own.
    if (record.rows === 0 || record.bytes === undefined) return partitionDamage(dir, path, record);
    const key = `${partitionFile(path, record)}\u0000${record.bytes}`;
    if (!seen.has(key)) seen.set(key, partitionDamage(dir, path, record));
    return seen.get(key);
  };
}

/**
 * Parquet files of the folder (relative paths) that no partition record names: left by a
 * download killed between writing a file and recording it. Engines reading the folder by a
 * glob would read their rows twice once the partitions are fetched again.
 *
 * @example
 * ```ts
 * unrecordedFiles("lake/bars", readManifest("lake/bars")!.partitions); // ["Ticker=AAPL/part-2023-11-20_2023-11-24.parquet"]
 * ```
 */
export function unrecordedFiles(dir: string, partitions: Readonly<Record<string, PartitionRecordOnDisk>>): string[] {
  const named = new Set(Object.entries(partitions).filter(([, r]) => r.rows > 0).map(([path, r]) => partitionFile(path, r)));
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".parquet") && !entry.name.startsWith(".") && !named.has(path)) found.push(path);
    }
  };
  walk("");
  return found.sort();
}
