/**
 * The manifest of a data-lake folder: the dataset, its partition layout, the query the folder
 * holds (minus the tickers and dates its partitions carry), the column schema, how each
 * date-time column is stored, every file with its bytes, rows and SHA-256, and every partition
 * fetched with its rows (0: fetched, no rows) and file. Its layout is published as a JSON
 * Schema shipped beside this module (`lake-manifest.schema.json`, named by the manifest's
 * `$schema`). It lives in the folder's bookkeeping (lakeFolder.ts); each write is journalled
 * (`partitions.jsonl`, a unit's files and partitions in one append: cheap however many a folder
 * holds) and folded into the manifest (written atomically) when a download ends, so an
 * interrupted download resumes from both. Neither holds the API key.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { QueryError } from "../errors/base.ts";
import { LakeManifestError } from "../errors/storage.ts";
import type { ColumnInfo } from "../frames/frames.ts";
import { appendLine, writeAtomically } from "../runtime/files.ts";
import type { FileRecord, PartitionRecordOnDisk, TimeUnit } from "./lakeRecords.ts";
import { lakeFolder } from "./lakeFolder.ts";
import { writerVersion } from "./writerVersion.ts";

/** Format 3: bookkeeping beside the table, files recorded with their SHA-256, times stored as `timeUnits` says. */
export const FORMAT = "market-workbench-lake/3";
/** Formats 1 (a file a partition) and 2 (files of several days) kept their manifest inside the table; read as they are, upgraded by a download. */
const LEGACY_FORMATS = ["market-workbench-lake/1", "market-workbench-lake/2"];
/** The manifest's JSON Schema, as a path inside the package (`workbench/store/lake-manifest.schema.json`). */
const MANIFEST_SCHEMA = "market-workbench/workbench/store/lake-manifest.schema.json";

export type { FileRecord, PartitionRecordOnDisk, TimeUnit } from "./lakeRecords.ts";

/** The folder's manifest (`_manifest.json`): what the folder holds and how it was written. */
export interface Manifest {
  /** The JSON Schema of this manifest (format 3 on). */
  $schema?: string;
  /** The manifest's format: `3` today; 1 and 2 are still read. */
  format: string;
  /** The workbench that last wrote the folder (format 3 on). */
  writer?: { name: string; version: string };
  /** The dataset the folder holds, e.g. `eq-daily-ohlc`. */
  dataset: string;
  /** Partition columns, outermost first (e.g. Ticker, TradeDate); [] for one file. */
  layout: string[];
  /** The partition columns the files' paths carry (lakePlan.ts `fileColumns`); absent in format 1, where every partition is its own file. */
  fileColumns?: string[];
  /** What the folder holds besides tickers and dates: filters, columns, variant (sorted). */
  query: [string, string][];
  /** The columns of the dataset, as `/columns` gave them. */
  columns: ColumnInfo[];
  /** The unit each date-time column is stored in (format 3 on; before, the dataset's own). */
  timeUnits?: Record<string, TimeUnit>;
  /** The zone the files' Arrow metadata names for date-time columns; their values are UTC instants. */
  timeZone?: string;
  /** Each data file (path relative to the folder) with its bytes, rows and SHA-256 (format 3 on). */
  files?: Record<string, FileRecord>;
  /** Partition path (e.g. `Ticker=AAPL/TradeDate=2023-11-21`) to its rows and file. */
  partitions: Record<string, PartitionRecordOnDisk>;
}

/**
 * The partition columns the paths of a folder's files carry: its `fileColumns`, else (format 1,
 * a file a partition) its layout.
 *
 * @example
 * ```ts
 * filePathColumns(readManifest("lake/bars")!); // ["Ticker"]: files of several days, the trade date inside
 * ```
 */
export function filePathColumns(manifest: Pick<Manifest, "layout" | "fileColumns">): string[] {
  return manifest.fileColumns ?? manifest.layout;
}

/**
 * The partition column a folder's files hold inside, when each holds several partitions (a
 * request's days: the trade date), else undefined: the layout's column their paths do not carry.
 *
 * @example
 * ```ts
 * dateInsideFiles(readManifest("lake/bars")!); // "TradeDate" for eq-taq-1min, undefined for ticks
 * ```
 */
export function dateInsideFiles(manifest: Pick<Manifest, "layout" | "fileColumns">): string | undefined {
  const onPaths = filePathColumns(manifest);
  return manifest.layout.find((column) => !onPaths.includes(column));
}

/** Whether a manifest is of format 1 or 2 (kept inside the table, files without hashes). */
export function isLegacy(manifest: Pick<Manifest, "format">): boolean {
  return manifest.format !== FORMAT;
}

const REPAIR =
  `Repair it with the download that wrote the folder, given { repair: "rebuild" } as its fourth argument (the manifest is rebuilt from the files, which are trusted as they are) or { repair: "refetch" } (the files are removed and fetched again), e.g. wb.download("eq-taq-1min", { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-24" }, dir, { repair: "rebuild" })`;

/**
 * The typed error of a folder whose manifest is missing or damaged, saying how to repair it.
 *
 * @example
 * ```ts
 * throw manifestError("lake/bars", "lake/.bars.workbench/manifest.json", "it is not JSON");
 * ```
 */
export function manifestError(dir: string, path: string, why: string): LakeManifestError {
  return new LakeManifestError(
    `Folder '${dir}' cannot be read: its manifest '${path}' ${why}, so nothing says what its files hold and none is served. ${REPAIR}`,
    path,
    why,
  );
}

/** What is wrong with a parsed manifest's shape, or undefined. */
function shapeProblem(m: unknown): string | undefined {
  const o = m as Partial<Manifest> | null;
  if (o === null || typeof o !== "object" || Array.isArray(o)) return "is not a JSON object";
  if (typeof o.format !== "string" || typeof o.dataset !== "string") return "lacks its format or dataset";
  if (!Array.isArray(o.layout) || !Array.isArray(o.query) || !Array.isArray(o.columns)) return "lacks its layout, query or columns";
  if (o.partitions === null || typeof o.partitions !== "object") return "lacks its partitions";
  if (Object.values(o.partitions).some((p) => typeof p?.rows !== "number")) return "holds a partition without its row count";
  if (
    o.format === FORMAT &&
    (o.files === null || typeof o.files !== "object" ||
      Object.values(o.files).some((f) => typeof f?.sha256 !== "string" || typeof f.bytes !== "number"))
  ) return "lacks its files' sizes and hashes";
  return undefined;
}

/** Folds the journal's lines (partitions and files) into the manifest; a torn last line is skipped (its partitions are fetched again). */
function foldJournal(m: Manifest, journal: string): void {
  if (!existsSync(journal)) return;
  for (const line of readFileSync(journal, "utf8").split("\n")) {
    if (line === "") continue;
    try {
      const entry = JSON.parse(line) as { path?: string; file?: string } & Partial<FileRecord> & PartitionRecordOnDisk;
      if (typeof entry.path === "string") {
        const { path, ...record } = entry;
        m.partitions[path] = record as PartitionRecordOnDisk;
      } else if (typeof entry.file === "string" && typeof entry.sha256 === "string") {
        (m.files ??= {})[entry.file] = { bytes: entry.bytes!, rows: entry.rows, sha256: entry.sha256 };
      }
    } catch {
      // an empty or torn last line: that partition is fetched again
    }
  }
}

/**
 * The manifest of a lake folder with its journal folded in; undefined when the folder holds
 * none (neither beside the table nor, formats 1 and 2, inside it). A manifest that cannot be
 * read, or is not one, is a LakeManifestError saying how to repair it.
 *
 * @example
 * ```ts
 * const m = readManifest("lake/bars");
 * Object.keys(m?.partitions ?? {}).length;
 * ```
 */
export function readManifest(dir: string): Manifest | undefined {
  const folder = lakeFolder(dir);
  const path = existsSync(folder.manifest) ? folder.manifest : existsSync(folder.legacyManifest) ? folder.legacyManifest : undefined;
  if (!path) return undefined;
  let m: Manifest;
  try {
    m = JSON.parse(readFileSync(path, "utf8")) as Manifest;
  } catch (error) {
    throw manifestError(dir, path, `is not readable JSON (${(error as Error).message.split("\n")[0]})`);
  }
  const why = shapeProblem(m);
  if (why) throw manifestError(dir, path, why);
  if (m.format !== FORMAT && !LEGACY_FORMATS.includes(m.format)) {
    throw new LakeManifestError(
      `Folder '${dir}' holds a manifest of format ${m.format}, which this workbench (${writerVersion()}) does not know: it reads ${
        [...LEGACY_FORMATS, FORMAT].join(", ")
      }. Written by a newer workbench? Upgrade the workbench, or choose another folder`,
      path,
      "unknown format",
    );
  }
  foldJournal(m, path === folder.manifest ? folder.journal : folder.legacyJournal);
  return m;
}

/**
 * Journals written files and partitions, one line each, in one append (a unit's together: each
 * file is already in place, and its line comes before the partitions that name it).
 *
 * @example
 * ```ts
 * recordWrites("lake/bars", [["Ticker=AAPL/part-2023-11-21_2023-11-21.parquet", { bytes: 61_234, rows: 960, sha256: "9f2c…" }]], [["Ticker=AAPL/TradeDate=2023-11-21", { rows: 960, file: "Ticker=AAPL/part-2023-11-21_2023-11-21.parquet" }]]);
 * ```
 */
export function recordWrites(
  dir: string,
  files: readonly (readonly [string, FileRecord])[],
  partitions: readonly (readonly [string, PartitionRecordOnDisk])[],
): void {
  if (files.length === 0 && partitions.length === 0) return;
  const lines = [
    ...files.map(([file, record]) => JSON.stringify({ file, ...record })),
    ...partitions.map(([path, record]) => JSON.stringify({ path, ...record })),
  ];
  appendLine(lakeFolder(dir).journal, `${lines.join("\n")}\n`);
}

/**
 * Writes the whole manifest atomically beside the table, as format 3 with this writer's
 * version; the journal it folds in is then removed (and a format 1 or 2 folder's bookkeeping
 * inside the table, which it replaces).
 *
 * @example
 * ```ts
 * writeManifest("lake/bars", manifest);
 * ```
 */
export function writeManifest(dir: string, manifest: Manifest): void {
  const folder = lakeFolder(dir);
  mkdirSync(folder.books, { recursive: true });
  // The schema, format and writer first, as a reader of the file meets them.
  const ordered = { ...manifest, $schema: MANIFEST_SCHEMA, format: FORMAT, writer: { name: "market-workbench", version: writerVersion() } };
  Object.assign(manifest, ordered);
  const heading = { $schema: ordered.$schema, format: ordered.format, writer: ordered.writer };
  writeAtomically(folder.manifest, (tmp) => writeFileSync(tmp, JSON.stringify({ ...heading, ...ordered }, null, 1)));
  rmSync(folder.journal, { force: true });
  rmSync(folder.legacyManifest, { force: true });
  rmSync(folder.legacyJournal, { force: true });
}

/**
 * A new manifest (format 3), or the folder's own after checking it holds the same dataset,
 * layout and query.
 *
 * @example
 * ```ts
 * const m = openManifest("lake/bars", { dataset: "eq-taq-1min", layout: ["Ticker", "TradeDate"], fileColumns: ["Ticker"], query: [], columns, timeUnits: { BarDateTime: "us" } });
 * ```
 */
export function openManifest(dir: string, fresh: Omit<Manifest, "format" | "partitions" | "files">, found = readManifest(dir)): Manifest {
  if (!found) return { format: FORMAT, ...fresh, timeZone: "America/New_York", files: {}, partitions: {} };
  const same = found.dataset === fresh.dataset && JSON.stringify(found.layout) === JSON.stringify(fresh.layout) &&
    JSON.stringify(found.query) === JSON.stringify(fresh.query);
  if (!same) {
    const describe = (m: { dataset: string; layout: string[]; query: [string, string][] }) =>
      `${m.dataset}${m.query.length ? ` ${m.query.map(([k, v]) => `${k}=${v}`).join("&")}` : ""} by ${m.layout.join("/") || "one file"}`;
    throw new QueryError(
      `Folder '${dir}' holds a download of a different query (${describe(found)}, not ${describe(fresh)}); choose another folder`,
    );
  }
  return found;
}
