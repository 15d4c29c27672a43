/**
 * The manifest of a data-lake folder (`_manifest.json`): the dataset, its partition layout,
 * the query the folder holds (minus tickers and dates, which the partitions carry), the column
 * schema, and every partition fetched with its row count (0: fetched, no rows). Each written
 * partition is appended to a journal (`_partitions.jsonl`, one line each, a unit's partitions in
 * one append: cheap however many partitions a folder holds), folded into the manifest (written atomically) when a
 * download ends, so an interrupted download resumes from both. Neither holds the API key.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { QueryError } from "../errors/base.ts";
import type { ColumnInfo } from "../frames/frames.ts";
import { appendLine, writeAtomically } from "../runtime/files.ts";
import type { PartitionRecordOnDisk } from "./lakeCheck.ts";

export const MANIFEST = "_manifest.json";
const JOURNAL = "_partitions.jsonl";
/** Format 2 records the file of each partition; folders of format 1 (a file a partition) are read and extended as they are. */
const FORMAT = "market-workbench-lake/2";
const FORMATS = ["market-workbench-lake/1", FORMAT];

export interface Manifest {
  format: string;
  dataset: string;
  /** Partition columns, outermost first (e.g. Ticker, TradeDate); [] for one file. */
  layout: string[];
  /** The partition columns the files' paths carry (lakePlan.ts `fileColumns`); absent in format 1, where every partition is its own file. */
  fileColumns?: string[];
  /** What the folder holds besides tickers and dates: filters, columns, variant (sorted). */
  query: [string, string][];
  columns: ColumnInfo[];
  /** Partition path (e.g. `Ticker=AAPL/TradeDate=2023-11-21`) to its rows and the size of its file. */
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

/**
 * The manifest of a lake folder with its journal folded in, or undefined when the folder holds none.
 *
 * @example
 * ```ts
 * const m = readManifest("lake/bars");
 * Object.keys(m?.partitions ?? {}).length;
 * ```
 */
export function readManifest(dir: string): Manifest | undefined {
  const path = join(dir, MANIFEST);
  if (!existsSync(path)) return undefined;
  const m = JSON.parse(readFileSync(path, "utf8")) as Manifest;
  if (!FORMATS.includes(m.format)) throw new QueryError(`Folder '${dir}' holds a ${MANIFEST} of another format (${m.format}); choose another folder`);
  const journal = join(dir, JOURNAL);
  if (existsSync(journal)) {
    for (const line of readFileSync(journal, "utf8").split("\n")) {
      try {
        const { path, ...record } = JSON.parse(line) as { path: string } & PartitionRecordOnDisk;
        m.partitions[path] = record;
      } catch {
        // an empty or torn last line: that partition is fetched again
      }
    }
  }
  return m;
}

/**
 * Records written partitions in the journal, one line each, in one append (a unit's partitions
 * together: each file is already in place).
 *
 * @example
 * ```ts
 * recordPartitions("lake/bars", [["Ticker=AAPL/TradeDate=2023-11-21", { rows: 390, bytes: 61_234 }]]);
 * ```
 */
export function recordPartitions(dir: string, records: readonly (readonly [string, PartitionRecordOnDisk])[]): void {
  if (records.length === 0) return;
  appendLine(join(dir, JOURNAL), records.map(([path, record]) => `${JSON.stringify({ path, ...record })}\n`).join(""));
}

/** Writes the whole manifest atomically; the journal it folds in is then removed. */
export function writeManifest(dir: string, manifest: Manifest): void {
  writeAtomically(join(dir, MANIFEST), (tmp) => writeFileSync(tmp, JSON.stringify(manifest, null, 1)));
  rmSync(join(dir, JOURNAL), { force: true });
}

/**
 * A new manifest, or the folder's own after checking it holds the same query.
 *
 * @example
 * ```ts
 * const m = openManifest("lake/bars", { dataset: "eq-taq-1min", layout: ["Ticker", "TradeDate"], query: [], columns });
 * ```
 */
export function openManifest(dir: string, fresh: Omit<Manifest, "format" | "partitions">): Manifest {
  const found = readManifest(dir);
  if (!found) return { format: FORMAT, ...fresh, partitions: {} };
  const same = found.dataset === fresh.dataset && JSON.stringify(found.layout) === JSON.stringify(fresh.layout) && JSON.stringify(found.query) === JSON.stringify(fresh.query);
  if (!same) {
    const describe = (m: { dataset: string; query: [string, string][] }) => `${m.dataset}${m.query.length ? ` ${m.query.map(([k, v]) => `${k}=${v}`).join("&")}` : ""}`;
    throw new QueryError(`Folder '${dir}' holds a download of a different query (${describe(found)}, not ${describe(fresh)}); choose another folder`);
  }
  return found;
}
