/**
 * How a lake file is written: its rows as stored (partition columns dropped, date-time columns
 * in the folder's units, never rounded), atomically through the bookkeeping folder (a
 * temporary file there, renamed into the table when whole), and hashed, so the manifest records
 * its bytes, rows and SHA-256 and its first read in this process need not hash it again.
 */
import pl from "nodejs-polars";
import { createHash } from "node:crypto";
import { mkdir, readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { QueryError } from "../errors/base.ts";
import { StorageError } from "../errors/storage.ts";
import { NEW_YORK } from "../frames/frames.ts";
import { SHARED_FILE, writeAtomicallyAsync } from "../runtime/files.ts";
import { trustWritten } from "./lakeCheck.ts";
import { type LakeFolder, temporaryFile } from "./lakeFolder.ts";
import type { FileRecord, TimeUnit } from "./lakeRecords.ts";

/** Nanoseconds per unit, to check a date-time column stored in a coarser unit loses nothing. */
const NANOS: Record<TimeUnit, number> = { ns: 1, us: 1_000, ms: 1_000_000 };

/**
 * The frame as stored: partition columns dropped (their path carries them) and date-time
 * columns in their stored unit, after checking the values are whole in that unit (the lake
 * never rounds a time).
 */
function storedRows(
  frame: pl.DataFrame,
  pathColumns: readonly string[],
  timeUnits: Readonly<Record<string, TimeUnit>>,
  file: string,
): pl.LazyDataFrame {
  const casts: pl.Expr[] = [];
  for (const [name, unit] of Object.entries(timeUnits)) {
    const dtype = frame.schema[name] as unknown as { timeUnit?: string } | undefined;
    if (!dtype || dtype.timeUnit === unit) continue;
    const from = (dtype.timeUnit ?? "ns") as TimeUnit;
    if (NANOS[unit] > NANOS[from]) {
      const inexact =
        frame.select(pl.col(name).cast(pl.Int64).modulo(NANOS[unit] / NANOS[from]).neq(0).any().alias("x")).getColumn("x").toArray()[0];
      if (inexact) {
        throw new QueryError(
          `${name} holds times finer than the folder stores it (${unit}) in ${file}: the lake never rounds a time; download into a new folder (ticks keep nanoseconds)`,
        );
      }
    }
    casts.push(pl.col(name).cast(pl.Datetime(unit, NEW_YORK)));
  }
  // Dropped in the lazy plan: an eager drop builds a frame more on the event loop.
  const lazy = pathColumns.length ? frame.lazy().drop([...pathColumns]) : frame.lazy();
  return casts.length ? lazy.withColumns(...casts) : lazy;
}

/**
 * Writes a lake file's rows atomically through the bookkeeping folder; resolves to the file's
 * record (bytes, rows and SHA-256). Polars writes on its own threads (a sink collected
 * asynchronously), so the event loop keeps receiving the pages of other units meanwhile.
 *
 * @example
 * ```ts
 * const record = await writeLakeFile(lakeFolder("lake/bars"), "Ticker=AAPL/part-2023-11-20_2023-11-24.parquet", frame, ["Ticker"], { BarDateTime: "us" });
 * ```
 */
export async function writeLakeFile(
  folder: LakeFolder,
  relative: string,
  frame: pl.DataFrame,
  pathColumns: readonly string[],
  timeUnits: Readonly<Record<string, TimeUnit>>,
): Promise<FileRecord> {
  const file = join(folder.dir, relative);
  // The folders, the rename and the size are asked off the event loop too (Deno's file-system
  // threads): a unit's files are written together, and pages keep arriving meanwhile.
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o755 }); // others may read a lake, never change it
    await mkdir(folder.tmp, { recursive: true, mode: 0o755 });
  } catch (error) {
    throw StorageError.of(error, "create the folder of", file);
  }
  // Snappy, as Spark writes by default: half the bytes of uncompressed at the same write time
  // (zstd is a third smaller again but writes at half the speed).
  const rows = storedRows(frame, pathColumns, timeUnits, relative);
  let sha256 = "";
  await writeAtomicallyAsync(
    file,
    async (tmp) => {
      await rows.sinkParquet(tmp, { compression: "snappy" }).collect();
      sha256 = createHash("sha256").update(await readFile(tmp)).digest("hex");
    },
    SHARED_FILE,
    temporaryFile(folder, relative),
  );
  trustWritten(file, sha256);
  return { bytes: (await stat(file)).size, rows: frame.height, sha256 };
}
