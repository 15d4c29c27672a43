/**
 * Where a lake folder's bookkeeping lives. The table folder (`lake/bars`) holds only the data's
 * Parquet files, so every engine reads it as it is: Polars' `scan_parquet(folder)` refuses a
 * folder holding any other file, hidden ones and hidden sub-folders included. The manifest, its
 * journal, the lock and the temporary files of writes in progress are in a hidden sibling
 * folder, `lake/.bars.workbench/`, which readers of the table never see. Folders of manifest
 * formats 1 and 2 kept theirs inside the table (`_manifest.json`, `_partitions.jsonl`).
 */
import { basename, dirname, join, resolve } from "node:path";
import process from "node:process";
import { QueryError } from "../errors/base.ts";

/** The paths of one lake folder: the table and its bookkeeping. */
export interface LakeFolder {
  /** The table folder, as given. */
  dir: string;
  /** The bookkeeping folder beside it (`.<name>.workbench`). */
  books: string;
  /** The manifest (in `books`). */
  manifest: string;
  /** The journal of partitions written since the manifest was last written (in `books`). */
  journal: string;
  /** Temporary files of writes in progress, renamed into the table when whole (in `books`). */
  tmp: string;
  /** Where formats 1 and 2 kept the manifest and the journal: inside the table. */
  legacyManifest: string;
  /** Where formats 1 and 2 kept the journal: inside the table. */
  legacyJournal: string;
}

/**
 * The paths of lake folder `dir`.
 *
 * @example
 * ```ts
 * lakeFolder("lake/bars").books; // "/home/me/project/lake/.bars.workbench"
 * ```
 */
export function lakeFolder(dir: string): LakeFolder {
  const absolute = resolve(dir);
  const name = basename(absolute);
  if (dirname(absolute) === absolute || name === "") {
    throw new QueryError(
      `A lake folder needs a parent folder for its bookkeeping; '${dir}' is the root: choose a folder inside it, e.g. '${
        join(absolute, "lake")
      }'`,
    );
  }
  // From the absolute path: a folder given as "." or "lake/" has its bookkeeping beside it too.
  const books = join(dirname(absolute), `.${name}.workbench`);
  return {
    dir,
    books,
    manifest: join(books, "manifest.json"),
    journal: join(books, "partitions.jsonl"),
    tmp: join(books, "tmp"),
    legacyManifest: join(dir, "_manifest.json"),
    legacyJournal: join(dir, "_partitions.jsonl"),
  };
}

/**
 * The temporary path a lake file is written to before it is renamed into the table: in the
 * bookkeeping folder, named after the file's path (files of several tickers share a name) and
 * the writing process.
 *
 * @example
 * ```ts
 * temporaryFile(lakeFolder("lake/bars"), "Ticker=AAPL/part-2023-11-20_2023-11-24.parquet");
 * // "lake/.bars.workbench/tmp/Ticker=AAPL%2Fpart-2023-11-20_2023-11-24.parquet.4242.tmp"
 * ```
 */
export function temporaryFile(folder: LakeFolder, relative: string): string {
  return join(folder.tmp, `${encodeURIComponent(relative)}.${process.pid}.tmp`);
}
