/**
 * `wb.scan(dir)`: a LazyFrame over a data-lake folder, every file checked against the manifest
 * before Polars reads it (a damaged file is refused, never served and never handed to a
 * reader that could panic), with the partition columns typed, the date-time columns in the
 * dataset's own unit and zone, and the columns in the dataset's order.
 */
import pl from "nodejs-polars";
import { join } from "node:path";
import { QueryError } from "../errors/base.ts";
import { LakeDamagedError } from "../errors/storage.ts";
import { dtypeOf, emptyFrame } from "../frames/frames.ts";
import { damageChecker, filesUnder, unrecordedFiles } from "./lakeCheck.ts";
import { lakeFolder } from "./lakeFolder.ts";
import { partitionFile } from "./lakePlan.ts";
import { filePathColumns, type Manifest, manifestError, readManifest } from "./manifest.ts";

/**
 * The columns of a lake file as the dataset types them: date-time columns stored in another
 * unit (format 3 keeps microseconds where the data allows) cast back to the dataset's.
 *
 * @example
 * ```ts
 * lf.select(...datasetColumns(manifest));
 * ```
 */
export function datasetColumns(manifest: Pick<Manifest, "columns" | "timeUnits">): pl.Expr[] {
  return manifest.columns.map((c) => (manifest.timeUnits?.[c.name] ? pl.col(c.name).cast(dtypeOf(c)) : pl.col(c.name)));
}

/**
 * A LazyFrame over a data-lake folder, with its partition columns typed and in the dataset's
 * column order. Throws a LakeDamagedError naming a file that is not what was written, or one no
 * partition records, and a LakeManifestError when the manifest is damaged or missing.
 *
 * @example
 * ```ts
 * const lf = scanLake("lake/bars");
 * const daily = lf.groupBy("Ticker", "TradeDate").agg(pl.col("Volume").sum()).collectSync();
 * ```
 */
export function scanLake(dir: string): pl.LazyDataFrame {
  const manifest = readManifest(dir);
  if (!manifest) {
    const files = filesUnder(dir, (name) => name.endsWith(".parquet") && !name.startsWith("."));
    if (files.length > 0) {
      throw manifestError(dir, lakeFolder(dir).manifest, `is missing while the folder holds ${files.length} Parquet file(s)`);
    }
    throw new QueryError(`Folder '${dir}' holds no download (no manifest at '${lakeFolder(dir).manifest}')`);
  }
  const partitions = Object.entries(manifest.partitions).filter(([, p]) => p.rows > 0);
  const damage = damageChecker(dir, manifest);
  for (const [path, record] of partitions) {
    const why = damage(path, record);
    if (why === undefined) continue;
    const file = join(dir, partitionFile(path, record));
    throw new LakeDamagedError(
      `Partition ${
        path || "(the one file)"
      } of '${dir}' is damaged: ${why} (${file}); it is not read. Run the same wb.download again: it fetches damaged partitions again`,
      file,
      why,
    );
  }
  const unrecorded = unrecordedFiles(dir, manifest.partitions);
  if (unrecorded.length > 0) {
    const file = join(dir, unrecorded[0]);
    throw new LakeDamagedError(
      `Folder '${dir}' holds ${unrecorded.length} Parquet file(s) no partition records (${unrecorded.slice(0, 3).join(", ")}${
        unrecorded.length > 3 ? ", ..." : ""
      }): left by an interrupted download, their rows would be read twice. Run the same wb.download again: it removes them and fetches what is missing`,
      file,
      "recorded by no partition",
    );
  }
  if (partitions.length === 0) return emptyFrame(manifest.columns).lazy();
  const columns = datasetColumns(manifest);
  if (manifest.layout.length === 0) return pl.scanParquet(join(dir, "part.parquet")).select(...columns);
  const pathColumns = filePathColumns(manifest);
  if (pathColumns.length === 0) return pl.scanParquet(join(dir, "*.parquet")).select(...columns);
  const hiveSchema = Object.fromEntries(
    pathColumns.map((c) => [c, manifest.columns.find((k) => k.name === c)?.data_type === "date" ? pl.Date : pl.String]),
  );
  return pl.scanParquet(join(dir, "**", "*.parquet"), { hivePartitioning: true, hiveSchema } as never).select(...columns);
}
