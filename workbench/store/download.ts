/**
 * Downloads a universe over a date range into a hive-partitioned Parquet folder (a data lake
 * DuckDB, Spark and Polars read in place). Chunks of partitions are pulled concurrently within
 * the per-minute quota; each file (a request's days, or one partition: lakePlan.ts) is written
 * atomically (a temporary file renamed) and its partitions recorded in `_manifest.json`, so a
 * killed download resumes at the granularity of its requests and a wider range fetches only
 * the partitions it lacks.
 */
import pl from "nodejs-polars";
import { mkdirSync, readdirSync } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { tradingDays } from "../../calendar/calendar.ts";
import type { CallEvent, CallInfo } from "../events/callEvents.ts";
import { progressListener } from "../events/progressListener.ts";
import { dataEndpoint } from "../query/endpoints.ts";
import { QueryError } from "../errors/base.ts";
import { dateRange } from "../query/dates.ts";
import type { DataQuery } from "../query/plan.ts";
import { requestParams } from "../query/prepare.ts";
import { emptyFrame } from "../frames/frames.ts";
import type { Pipeline } from "../pipeline/pipeline.ts";
import type { ServiceFacts } from "../service/facts.ts";
import { chunkFile, fileColumns, lakeLayout, type LakeChunk, partitionFile, partitionPath, planChunks, wantedPartitions } from "./lakePlan.ts";
import { type LakeFilesRead, readLakePartition } from "./lakePartition.ts";
import { checkFolder } from "./lakeRepair.ts";
import { damageChecker, type PartitionRecordOnDisk, unrecordedFiles } from "./lakeCheck.ts";
import { splitByDate } from "./lakeSplit.ts";
import { lockFolder, writeAtomicallyAsync } from "../runtime/files.ts";
import { LakeDamagedError, StorageError } from "../errors/storage.ts";
import { dateInsideFiles, filePathColumns, MANIFEST, type Manifest, openManifest, readManifest, recordPartitions, writeManifest } from "./manifest.ts";

/** A download: the query, plus the universe (`tickers`) and range (`start`, `end`) it covers. */
export interface LakeQuery extends DataQuery {
  /** One ticker or a list: the universe (a path value of per-ticker datasets, else a Ticker filter). */
  tickers?: string | readonly string[];
}

/** What a download did: the folder, its layout, and the partitions it holds and fetched. */
export interface DownloadResult {
  /** The folder the partitions are in. */
  dir: string;
  /** The dataset's id, e.g. `eq-taq-1min`. */
  dataset: string;
  /** Partition columns, outermost first. */
  layout: string[];
  /** Partitions recorded in the folder (with rows or known empty). */
  partitions: number;
  /** Partitions this call fetched; 0 when the folder was already complete. */
  fetched: number;
  /** Rows written by this call. */
  rows: number;
  /** Whether this call continued or widened an earlier download. */
  resumed: boolean;
  /** Partitions of the range found damaged or missing (each with why) and fetched again; empty when none. */
  warnings: string[];
}

function hasParquet(dir: string): boolean {
  return readdirSync(dir, { withFileTypes: true }).some((e) => (e.isDirectory() ? hasParquet(join(dir, e.name)) : e.name.endsWith(".parquet")));
}

/**
 * Writes a lake file's rows (without the partition columns its path carries) atomically;
 * resolves to the size of the file, recorded to check the file when it is reused. Polars
 * writes on its own threads (a sink collected asynchronously), so the event loop keeps
 * receiving the pages of other units while a unit's file is written.
 */
async function writeLakeFile(dir: string, relative: string, frame: pl.DataFrame, pathColumns: readonly string[]): Promise<number> {
  const file = join(dir, relative);
  // The folder, the rename and the size are asked off the event loop too (Deno's file-system
  // threads): a unit's partitions are written together, and pages keep arriving meanwhile.
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o755 }); // others may read a lake, never change it
  } catch (error) {
    throw StorageError.of(error, "create the folder of", file);
  }
  // Snappy, as Spark writes by default: half the bytes of uncompressed at the same write time
  // (zstd is a third smaller again but writes at half the speed). The partition columns are
  // dropped in the lazy plan: an eager drop builds a frame more on the event loop.
  const rows = pathColumns.length ? frame.lazy().drop([...pathColumns]) : frame.lazy();
  await writeAtomicallyAsync(file, async (tmp) => {
    await rows.sinkParquet(tmp, { compression: "snappy" }).collect();
  });
  return (await stat(file)).size;
}

/**
 * Downloads `dataset` into `dir` through the pipeline, with the lake as its sink: each unit's
 * frame is cut into partitions and written as it arrives.
 *
 * @example
 * ```ts
 * const result = await downloadLake(pipeline, facts, "eq-taq-1min", { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-24" }, "lake/bars");
 * ```
 */
export async function downloadLake(pipeline: Pipeline, facts: ServiceFacts, dataset: string, query: LakeQuery, dir: string, chunkDays = 20): Promise<DownloadResult> {
  const info = { kind: "download" as const, dataset, pathValues: [], query, dir };
  let planned: { run: () => Promise<DownloadResult>; release: () => void };
  try {
    planned = await planDownload(pipeline, facts, dataset, query, dir, chunkDays, info);
  } catch (error) {
    await pipeline.refused(info, error); // refused before any request: recorded all the same
    throw error;
  }
  try {
    return await planned.run();
  } finally {
    planned.release();
  }
}

/** Checks a download and opens its folder; returns the run through the pipeline. */
async function planDownload(pipeline: Pipeline, facts: ServiceFacts, dataset: string, query: LakeQuery, dir: string, chunkDays: number, info: CallInfo): Promise<{ run: () => Promise<DownloadResult>; release: () => void }> {
  const endpoint = dataEndpoint(dataset);
  const layout = lakeLayout(endpoint);
  const { tickers: asked, start, end, force, onProgress, maxRows, ...rest } = query;
  if (maxRows !== undefined) throw new QueryError("A download takes every row of its partitions: maxRows does not apply (narrow tickers, start/end or filters)");
  for (const column of [endpoint.dateColumn, endpoint.tickerColumn]) {
    if (column && rest.filters?.[column] !== undefined) throw new QueryError(`A download takes its ${column} from ${column === endpoint.dateColumn ? "start/end" : "tickers"}, not from filters.${column}`);
  }
  const tickers = asked === undefined ? [] : [...new Set(typeof asked === "string" ? [asked] : asked)];
  if (layout.length === 2 && tickers.length === 0) throw new QueryError(`${dataset} is fetched per ticker: give the universe as { tickers: ["AAPL", ...] }`);
  if (!endpoint.tickerColumn && tickers.length > 0) throw new QueryError(`${dataset} has no ticker column: tickers do not apply`);
  let days: string[] = [];
  if (endpoint.dateColumn) {
    const range = dateRange(start, end);
    const status = await facts.status(dataset);
    const first = [range.start, status.first_available_date].filter(Boolean).sort().at(-1)!;
    const last = [range.end, status.last_available_date].filter(Boolean).sort()[0]!;
    days = first && last && first <= last ? tradingDays(first, last).map((d) => d.date) : [];
  } else if (start !== undefined || end !== undefined) throw new QueryError(`${dataset} has no trade-date column: start/end do not apply`);

  // The folder's identity: the query without its dates and per-ticker path values.
  const tickerFilter = layout.length < 2 && tickers.length ? { [endpoint.tickerColumn!]: tickers } : {};
  const base = { ...rest, filters: { ...rest.filters, ...tickerFilter } };
  const sample = await pipeline.prepare(dataset, endpoint.pathParams.map((p) => (p === "ticker" ? tickers[0] : days[0] ?? "2000-01-03")), base);
  const fingerprint = [...requestParams(sample)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  try {
    mkdirSync(dir, { recursive: true, mode: 0o755 }); // others may read a lake, never change it
  } catch (error) {
    throw StorageError.of(error, "create the folder", dir);
  }
  const release = lockFolder(dir); // one download at a time in a folder, across processes
  try {
    return { run: openFolder(), release };
  } catch (error) {
    release();
    throw error;
  }

  function openFolder(): () => Promise<DownloadResult> {
  if (!readManifest(dir) && hasParquet(dir)) throw new QueryError(`Folder '${dir}' already holds Parquet files that no download of this workbench wrote; choose an empty folder`);
  const manifest: Manifest = openManifest(dir, { dataset, layout, fileColumns: fileColumns(endpoint), query: fingerprint, columns: sample.columns });
  // A folder of format 1 keeps a file a partition; the paths of files of several days carry no trade date.
  const pathColumns = filePathColumns(manifest);
  const chunked = dateInsideFiles(manifest) !== undefined;
  const warnings = checkFolder(dir, manifest, wantedPartitions(layout, tickers, days));
  for (const w of warnings) console.warn(`Warning: ${w}`);
  const held = Object.keys(manifest.partitions).length;
  const chunks = planChunks(layout, tickers, days, new Set(Object.keys(manifest.partitions)), chunkDays);
  writeManifest(dir, manifest);

  const chunkQuery = (c: LakeChunk) => (c.dates.length && !endpoint.pathParams.includes("trade_date") ? { ...base, filters: { ...base.filters, [endpoint.dateColumn!]: { ge: c.dates[0], le: c.dates.at(-1)! } } } : base);
  const units = chunks.flatMap((c) => (endpoint.pathParams.includes("trade_date") ? c.dates.map((d) => ({ ...c, dates: [d] })) : [c]));
  const pathValues = units.map((c) => endpoint.pathParams.map((p) => (p === "ticker" ? c.ticker! : c.dates[0])));
  let rows = 0;
  const write = async (i: number, frame: pl.DataFrame, emit: (event: CallEvent) => void) => {
    const c = units[i];
    if (layout.length === 0) {
      const bytes = await writeLakeFile(dir, partitionFile("", {}), frame, pathColumns);
      manifest.partitions[""] = { rows: frame.height, bytes };
      recordPartitions(dir, [["", manifest.partitions[""]]]);
      emit({ type: "partitions", unit: i, frame, parts: [{ path: "", frame }], contiguous: true });
    } else {
      const { byDate, contiguous } = splitByDate(frame, endpoint.dateColumn!);
      const pathOf = (date: string) => partitionPath(layout, { ticker: c.ticker, date });
      const written = chunked ? await writeChunk(c, frame, byDate) : await writeDays(c, byDate);
      const records = c.dates.flatMap((date, k) => {
        const w = written[k];
        if (w.status === "rejected") return [];
        const record: PartitionRecordOnDisk = w.value === undefined ? { rows: 0 } : { rows: byDate.get(date)!.height, ...w.value };
        manifest.partitions[pathOf(date)] = record;
        return [[pathOf(date), record] as const];
      });
      recordPartitions(dir, records);
      const failed = written.find((w) => w.status === "rejected");
      if (failed) throw (failed as PromiseRejectedResult).reason;
      // For the record, in the unit's row order (the parts' own; a date not asked, never
      // written, is not recorded), then the asked dates with no row.
      const parts = [...byDate].map(([date, part]) => ({ path: c.dates.includes(date) ? pathOf(date) : undefined, frame: part }));
      emit({ type: "partitions", unit: i, frame, parts: [...parts, ...c.dates.filter((d) => !byDate.has(d)).map((d) => ({ path: pathOf(d) }))], contiguous });
    }
    rows += frame.height;
    return undefined; // the rows are on disk: the call keeps none of them
  };
  type Written = PromiseSettledResult<{ bytes: number; file?: string } | undefined>[];
  // A file a partition: the unit's partitions are written together, then recorded in date order
  // (the folder's order does not depend on which write ends first) in one append, each only once
  // its file is in place. All settle before a failure is thrown: no write is left running into
  // a resumed call.
  const writeDays = (c: LakeChunk, byDate: Map<string, pl.DataFrame>): Promise<Written> => Promise.allSettled(c.dates.map(async (date) => {
    const part = byDate.get(date);
    return part ? { bytes: await writeLakeFile(dir, partitionFile(partitionPath(layout, { ticker: c.ticker, date }), {}), part, pathColumns) } : undefined;
  }));
  // One file for the unit's days (the trade date a column of it), recorded for each day with rows.
  const writeChunk = async (c: LakeChunk, frame: pl.DataFrame, byDate: Map<string, pl.DataFrame>): Promise<Written> => {
    const asked = new Set(c.dates);
    const arrived = [...byDate.keys()];
    if (!arrived.some((d) => asked.has(d))) return c.dates.map(() => ({ status: "fulfilled", value: undefined }));
    // Rows of a date not asked (a service answering past the range) are not written, as with a file a day.
    const rows = arrived.every((d) => asked.has(d)) ? frame : pl.concat([...byDate].filter(([d]) => asked.has(d)).map(([, part]) => part));
    const file = chunkFile(pathColumns, c.ticker, c.dates);
    let bytes: number;
    try {
      bytes = await writeLakeFile(dir, file, rows, pathColumns);
    } catch (reason) {
      return c.dates.map(() => ({ status: "rejected", reason }));
    }
    return c.dates.map((date) => ({ status: "fulfilled", value: byDate.has(date) ? { bytes, file } : undefined }));
  };
  const plan = { endpoint, units: pathValues, base, range: {}, force: force ?? false, unitQueries: units.map(chunkQuery) };
  const reusing = (emit: (event: CallEvent) => void) => {
    emit({ type: "reusing", partitions: held });
    // What the run's range finds in the folder, read back and hashed, so a re-run that reuses it
    // still compares (--verify). Partitions are read in path order, so the days of one file
    // follow one another: the last file read is kept for the next.
    const lastFile: LakeFilesRead = new Map();
    for (const path of wantedPartitions(layout, tickers, days).filter((p) => p in manifest.partitions)) {
      emit({ type: "reused-partition", path, rows: manifest.partitions[path].rows, read: () => readLakePartition(dir, manifest, path, lastFile) });
    }
  };
  return () => pipeline.run({
    plan,
    info,
    listeners: onProgress ? [progressListener(dataset, onProgress)] : [],
    upfront: true,
  }, {
    start: reusing,
    unit: write,
    result: async () => {
      writeManifest(dir, manifest);
      const fetched = units.reduce((n, c) => n + Math.max(1, c.dates.length), 0);
      return { dir, dataset, layout, partitions: Object.keys(manifest.partitions).length, fetched, rows, resumed: held > 0, warnings };
    },
  });
  }
}

/**
 * A LazyFrame over a data-lake folder, with its partition columns typed and in the dataset's
 * column order.
 *
 * @example
 * ```ts
 * const lf = scanLake("lake/bars");
 * const daily = lf.groupBy("Ticker", "TradeDate").agg(pl.col("Volume").sum()).collectSync();
 * ```
 */
export function scanLake(dir: string): pl.LazyDataFrame {
  const manifest = readManifest(dir);
  if (!manifest) throw new QueryError(`Folder '${dir}' holds no download (no ${MANIFEST})`);
  const files = Object.entries(manifest.partitions).filter(([, p]) => p.rows > 0);
  const damage = damageChecker(dir);
  for (const [path, record] of files) {
    const why = damage(path, record);
    if (why === undefined) continue;
    const file = join(dir, partitionFile(path, record));
    throw new LakeDamagedError(`Partition ${path || "(the one file)"} of '${dir}' is damaged: ${why} (${file}). Run the same wb.download again: it fetches damaged partitions again`, file, why);
  }
  const unrecorded = unrecordedFiles(dir, manifest.partitions);
  if (unrecorded.length > 0) {
    const file = join(dir, unrecorded[0]);
    throw new LakeDamagedError(`Folder '${dir}' holds ${unrecorded.length} Parquet file(s) no partition records (${unrecorded.slice(0, 3).join(", ")}${unrecorded.length > 3 ? ", ..." : ""}): left by an interrupted download, their rows would be read twice. Run the same wb.download again: it removes them and fetches what is missing`, file, "recorded by no partition");
  }
  if (files.length === 0) return emptyFrame(manifest.columns).lazy();
  if (manifest.layout.length === 0) return pl.scanParquet(join(dir, "part.parquet"));
  const pathColumns = filePathColumns(manifest);
  if (pathColumns.length === 0) return pl.scanParquet(join(dir, "*.parquet")).select(...manifest.columns.map((c) => pl.col(c.name)));
  const hiveSchema = Object.fromEntries(pathColumns.map((c) => [c, manifest.columns.find((k) => k.name === c)?.data_type === "date" ? pl.Date : pl.String]));
  const lf = pl.scanParquet(join(dir, "**", "*.parquet"), { hivePartitioning: true, hiveSchema } as never);
  return lf.select(...manifest.columns.map((c) => pl.col(c.name)));
}

