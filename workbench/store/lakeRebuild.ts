/**
 * A lake folder's manifest repaired or upgraded before a download runs. A manifest that is
 * damaged (truncated, garbled) or missing while the table holds files is a LakeManifestError
 * unless the download asks for a repair: `"rebuild"` makes the manifest again from the files
 * (their rows become the partitions, their bytes the hashes: the files are trusted as they
 * are), `"refetch"` sets the manifest aside and removes the files, so the range is fetched
 * again. A folder of format 1 or 2 (bookkeeping inside the table, no hashes) is upgraded: its
 * manifest moves beside the table and each file still whole is hashed as it is.
 */
import pl from "nodejs-polars";
import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { LakeManifestError } from "../errors/storage.ts";
import { filesUnder, partitionDamage, sha256OfFile } from "./lakeCheck.ts";
import { lakeFolder } from "./lakeFolder.ts";
import { partitionFile, partitionPath } from "./lakePlan.ts";
import { type FileRecord, FORMAT, isLegacy, type Manifest, manifestError, readManifest, type TimeUnit } from "./manifest.ts";

/** What a download knows of the folder it writes: the manifest it would start. */
export type Fresh = Omit<Manifest, "format" | "partitions" | "files">;

/** The Parquet data files of a table (relative paths): what an engine reading the folder reads. */
const dataFiles = (dir: string) => filesUnder(dir, (name) => name.endsWith(".parquet") && !name.startsWith("."));

/**
 * The folder's manifest, repaired as `repair` says when it is damaged or missing while the
 * table holds files; a warning says what was done.
 *
 * @example
 * ```ts
 * const { manifest, warning } = repairFolder("lake/bars", fresh, "rebuild");
 * ```
 */
export function repairFolder(
  dir: string,
  fresh: Fresh,
  repair: "rebuild" | "refetch" | undefined,
): { manifest?: Manifest; warning?: string } {
  const folder = lakeFolder(dir);
  let damage: LakeManifestError | undefined;
  try {
    const found = readManifest(dir);
    if (found) return { manifest: found, warning: isLegacy(found) ? upgradeLegacy(dir, found) : undefined };
  } catch (error) {
    // A manifest of a format this workbench does not know is not damaged: never repaired over.
    if (!(error instanceof LakeManifestError) || error.cause === "unknown format") throw error;
    damage = error;
  }
  const files = dataFiles(dir);
  if (!damage && files.length === 0) return {};
  if (!repair) throw damage ?? manifestError(dir, folder.manifest, `is missing while the folder holds ${files.length} Parquet file(s)`);
  const what = damage ? `its manifest was damaged (${damage.cause})` : `it held ${files.length} Parquet file(s) and no manifest`;
  for (const path of [folder.manifest, folder.legacyManifest]) if (existsSync(path)) renameSync(path, `${path}.damaged`);
  rmSync(folder.journal, { force: true });
  rmSync(folder.legacyJournal, { force: true });
  if (repair === "refetch") {
    for (const file of files) rmSync(join(dir, file), { force: true });
    return {
      warning: `Folder '${dir}': ${what}; set aside as '.damaged', its ${files.length} file(s) removed and the range fetched again`,
    };
  }
  const manifest = rebuild(dir, fresh, files);
  return {
    manifest,
    warning: `Folder '${dir}': ${what}; rebuilt from its ${files.length} file(s) (${
      Object.keys(manifest.partitions).length
    } partitions), which are trusted as they are`,
  };
}

/** The partition column values a relative path's folders carry (`Ticker=AAPL/...`). */
function pathValues(relative: string): Map<string, string> {
  return new Map(
    dirname(relative).split("/").filter((s) => s.includes("=")).map((
      s,
    ) => [s.slice(0, s.indexOf("=")), decodeURIComponent(s.slice(s.indexOf("=") + 1))]),
  );
}

/** The unit each date-time column of a file is stored in. */
function storedUnits(file: string, fresh: Fresh): Record<string, TimeUnit> {
  const schema = pl.scanParquet(file).head(0).collectSync().schema as Record<string, { timeUnit?: string }>;
  return Object.fromEntries(
    fresh.columns.filter((c) => c.data_type.startsWith("datetime") && schema[c.name]?.timeUnit).map((
      c,
    ) => [c.name, schema[c.name].timeUnit as TimeUnit]),
  );
}

/** A manifest made from the table's files: each file's rows by trade date (or whole), hashed as it is. */
function rebuild(dir: string, fresh: Fresh, files: readonly string[]): Manifest {
  const date = fresh.layout.at(-1); // the trade date: the layout's innermost column
  const manifest: Manifest = { format: FORMAT, ...fresh, timeZone: "America/New_York", files: {}, partitions: {} };
  for (const relative of files) {
    const file = join(dir, relative);
    const values = pathValues(relative);
    const record: FileRecord = { bytes: statSync(file).size, rows: 0, sha256: sha256OfFile(file) };
    if (fresh.layout.length === 0 || (date && values.has(date))) {
      record.rows = Number(pl.scanParquet(file).select(pl.len().alias("n")).collectSync().getColumn("n").get(0));
      manifest.partitions[fresh.layout.length === 0 ? "" : dirname(relative)] = { rows: record.rows, file: relative };
      if (date) manifest.fileColumns = fresh.layout;
    } else if (date) {
      const counts = pl.scanParquet(file).groupBy(date).agg(pl.len().alias("n")).collectSync();
      const dates = counts.getColumn(date).cast(pl.String).toArray() as string[];
      const rows = counts.getColumn("n").toArray() as number[];
      dates.forEach((d, k) => {
        const ticker = fresh.layout.length === 2 ? values.get(fresh.layout[0]) : undefined;
        manifest.partitions[partitionPath(fresh.layout, { ticker, date: d })] = { rows: Number(rows[k]), file: relative };
        record.rows += Number(rows[k]);
      });
    }
    manifest.files![relative] = record;
    manifest.timeUnits = storedUnits(file, fresh);
  }
  return manifest;
}

/**
 * Upgrades a manifest of format 1 or 2 in memory (the download writes it beside the table):
 * every partition names its file, each file still whole is recorded with its size, rows and
 * hash as it is, and its date-time columns keep the unit they were written in (the dataset's).
 * Returns the warning that says so.
 */
function upgradeLegacy(dir: string, manifest: Manifest): string {
  const from = manifest.format;
  manifest.fileColumns ??= manifest.layout;
  manifest.timeUnits = Object.fromEntries(
    manifest.columns.filter((c) => c.data_type.startsWith("datetime")).map((c) => [c.name, c.data_type === "datetime_ms" ? "ms" : "ns"]),
  );
  manifest.timeZone = "America/New_York";
  manifest.files = {};
  for (const [path, record] of Object.entries(manifest.partitions)) {
    if (record.rows === 0) continue;
    const relative = partitionFile(path, record);
    const file = join(dir, relative);
    const damaged = partitionDamage(dir, path, record) !== undefined; // as formats 1 and 2 were checked
    delete record.bytes;
    record.file = relative;
    if (damaged) continue; // recorded without a hash: checkFolder finds it and fetches it again
    const known = manifest.files[relative];
    if (known) known.rows += record.rows;
    else manifest.files[relative] = { bytes: statSync(file).size, rows: record.rows, sha256: sha256OfFile(file) };
  }
  return `Folder '${dir}' was of format ${from.split("/").at(-1)}: upgraded to ${
    FORMAT.split("/").at(-1)
  }, its manifest moved beside the table to '${lakeFolder(dir).manifest}' (the table now holds only Parquet files) and its ${
    Object.keys(manifest.files).length
  } file(s) hashed as they are`;
}
