/**
 * Checks that a lake file still holds what the folder recorded when it was written, before any
 * engine reads it: a Parquet reader given damaged bytes may return wrong values or panic (a Rust
 * panic aborts the process: in a notebook, the kernel dies). Format 3 records each file's size
 * and SHA-256: the size is checked at every use, the hash the first time this process uses the
 * file, and again whenever its size, modification time or inode changed since. Formats 1 and 2
 * recorded sizes only: their files are checked by size and Parquet's magic bytes (and, before
 * sizes were recorded, the row count in the footer).
 */
import pl from "nodejs-polars";
import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { partitionFile } from "./lakePlan.ts";
import type { FileRecord, PartitionRecordOnDisk } from "./lakeRecords.ts";

export type { PartitionRecordOnDisk } from "./lakeRecords.ts";

const MAGIC = "PAR1";

/** The 4 bytes of `file` at `position`, as text. */
function fourBytes(fd: number, position: number): string {
  const buffer = new Uint8Array(4);
  readSync(fd, buffer, 0, 4, position);
  return new TextDecoder().decode(buffer);
}

/**
 * The SHA-256 (hex) of a file's bytes, read in 1 MiB blocks.
 *
 * @example
 * ```ts
 * sha256OfFile("lake/bars/Ticker=AAPL/part-2023-11-20_2023-11-24.parquet"); // "9f2c…"
 * ```
 */
export function sha256OfFile(file: string): string {
  const hash = createHash("sha256");
  const buffer = new Uint8Array(1 << 20);
  const fd = openSync(file, "r");
  try {
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/** Files this process has hashed and found whole: absolute path to the hash and the stat it was checked at. */
const verified = new Map<string, { sha256: string; size: number; mtimeMs: number; ino: number }>();

/**
 * Why file `relative` of `dir` does not hold what `record` says (missing, another size, other
 * bytes), or undefined when it does. The hash is computed once per file and process: again only
 * when the file's size, modification time or inode changed since.
 *
 * @example
 * ```ts
 * fileDamage("lake/bars", "Ticker=AAPL/part-2023-11-20_2023-11-24.parquet", { bytes: 683_404, rows: 4_800, sha256: "9f2c…" });
 * // "its bytes are not those written (SHA-256 …, not 9f2c…)" after a byte changed
 * ```
 */
export function fileDamage(dir: string, relative: string, record: FileRecord): string | undefined {
  const file = resolve(dir, relative);
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return "its file is missing";
  }
  if (stat.size !== record.bytes) {
    return `its file is ${stat.size.toLocaleString("en-US")} bytes where ${record.bytes.toLocaleString("en-US")} were written`;
  }
  const known = verified.get(file);
  if (known && known.sha256 === record.sha256 && known.size === stat.size && known.mtimeMs === stat.mtimeMs && known.ino === stat.ino) {
    return undefined;
  }
  const sha256 = sha256OfFile(file);
  if (sha256 !== record.sha256) {
    verified.delete(file);
    return `its bytes are not those written (SHA-256 ${sha256.slice(0, 12)}…, not ${record.sha256.slice(0, 12)}…)`;
  }
  verified.set(file, { sha256, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
  return undefined;
}

/**
 * Forgets which files this process has checked, so the next check hashes each again (what a
 * new process does).
 *
 * @internal for benchmarks and tests
 */
export function forgetCheckedFiles(): void {
  verified.clear();
}

/**
 * Marks a file this process just wrote, with the hash of its bytes, as checked: its first read
 * need not hash it again.
 *
 * @example
 * ```ts
 * trustWritten("lake/bars/Ticker=AAPL/part-2023-11-20_2023-11-24.parquet", "9f2c…");
 * ```
 */
export function trustWritten(file: string, sha256: string): void {
  const stat = statSync(file);
  verified.set(resolve(file), { sha256, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
}

/**
 * Why partition `path` of a format 1 or 2 folder does not hold what `record` says, or undefined
 * when it does (a partition recorded with no rows has no file): its size, the magic bytes at
 * both ends and, where no size was recorded, the footer's row count.
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
  if (record.bytes !== undefined && size !== record.bytes) {
    return `its file is ${size.toLocaleString("en-US")} bytes where ${record.bytes.toLocaleString("en-US")} were written`;
  }
  if (size < 12) return `its file is ${size} bytes: not a Parquet file`;
  const fd = openSync(file, "r");
  try {
    if (fourBytes(fd, 0) !== MAGIC || fourBytes(fd, size - 4) !== MAGIC) {
      return "its file is not a whole Parquet file (no magic bytes at its start or end)";
    }
  } finally {
    closeSync(fd);
  }
  if (record.bytes === undefined) {
    try {
      const rows = Number(pl.scanParquet(file).select(pl.len().alias("n")).collectSync().getColumn("n").get(0));
      if (rows !== record.rows) {
        return `its file holds ${rows.toLocaleString("en-US")} rows where ${record.rows.toLocaleString("en-US")} were written`;
      }
    } catch (error) {
      return `its footer cannot be read (${(error as Error).message.split("\n")[0]})`;
    }
  }
  return undefined;
}

/**
 * The check of a folder's partitions, each file checked once however many partitions it holds
 * (a file of a request's days holds up to twenty): by its recorded size and SHA-256 (format 3),
 * else as `partitionDamage` says.
 *
 * @example
 * ```ts
 * const damage = damageChecker("lake/bars", readManifest("lake/bars")!);
 * damage("Ticker=AAPL/TradeDate=2023-11-21", { rows: 960, file: "Ticker=AAPL/part-2023-11-01_2023-11-29.parquet" });
 * ```
 */
export function damageChecker(
  dir: string,
  manifest: { files?: Readonly<Record<string, FileRecord>> },
): (path: string, record: PartitionRecordOnDisk) => string | undefined {
  const seen = new Map<string, string | undefined>();
  return (path, record) => {
    if (record.rows === 0) return undefined;
    const file = partitionFile(path, record);
    if (manifest.files) {
      if (!seen.has(file)) {
        const written = manifest.files[file];
        seen.set(file, written ? fileDamage(dir, file, written) : "its file is recorded without its size and hash");
      }
      return seen.get(file);
    }
    // Records without a size are checked by their own rows: each on its own.
    if (record.bytes === undefined) return partitionDamage(dir, path, record);
    const key = `${file}\u0000${record.bytes}`;
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
  return filesUnder(dir, (name) => name.endsWith(".parquet") && !name.startsWith(".")).filter((path) => !named.has(path));
}

/**
 * Files under `dir` (relative paths, sorted) whose name passes `keep`.
 *
 * @example
 * ```ts
 * filesUnder("lake/bars", (name) => name.endsWith(".tmp")); // [".part-2023-11-20_2023-11-24.parquet.4242.tmp"]
 * ```
 */
export function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (keep(entry.name)) found.push(path);
    }
  };
  if (existsSync(dir)) walk("");
  return found.sort();
}
