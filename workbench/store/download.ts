/**
 * Downloads a universe over a date range into a hive-partitioned Parquet folder (a data lake
 * Polars, pyarrow, DuckDB and Spark read in place). Chunks of partitions are pulled
 * concurrently within the per-minute quota; each file (a request's days of one ticker, or one
 * partition: lakePlan.ts) is written atomically (a temporary file in the bookkeeping folder,
 * renamed into the table), hashed, and recorded in the manifest (manifest.ts), so a killed
 * download resumes at the granularity of its requests, a wider range or another set of
 * tickers fetches only the partitions it lacks, and every reuse is checked by content.
 */
import pl from "nodejs-polars";
import { accessSync, constants, mkdirSync } from "node:fs";
import { tradingDays } from "../../calendar/calendar.ts";
import type { CallEvent, CallInfo } from "../events/callEvents.ts";
import { progressListener } from "../events/progressListener.ts";
import { dataEndpoint } from "../query/endpoints.ts";
import { QueryError } from "../errors/base.ts";
import { dateRange } from "../query/dates.ts";
import type { DataQuery } from "../query/plan.ts";
import { requestParams } from "../query/prepare.ts";
import type { Pipeline } from "../pipeline/pipeline.ts";
import { EQUITY_TICKER_DATASETS, type ServiceFacts } from "../service/facts.ts";
import { tickerBook } from "../guard/tickers.ts";
import { cutWarning, daysWithin, tickerCut } from "../guard/tickerSpans.ts";
import {
  chunkFile,
  fileColumns,
  lakeLayout,
  lakeTimeUnits,
  lakeUnits,
  type LakeUniverse,
  partitionFile,
  partitionPath,
  planChunks,
  universeOf,
  wantedPartitions,
} from "./lakePlan.ts";
import { type LakeFilesRead, readLakePartition } from "./lakePartition.ts";
import { checkFolder, removeDeadWrites } from "./lakeRepair.ts";
import type { PartitionRecordOnDisk } from "./lakeCheck.ts";
import { splitByDate } from "./lakeSplit.ts";
import { lockFolder } from "../runtime/files.ts";
import { LakeManifestError, StorageError } from "../errors/storage.ts";
import { filePathColumns, type FileRecord, type Manifest, openManifest, readManifest, recordWrites, writeManifest } from "./manifest.ts";
import { lakeFolder } from "./lakeFolder.ts";
import { repairFolder } from "./lakeRebuild.ts";
import { checkFreeSpace } from "./lakeSpace.ts";
import { withPartitionColumns } from "./lakeColumns.ts";

export { scanLake } from "./lakeScan.ts";
import { writeLakeFile } from "./lakeWrite.ts";

/** A download: the query, plus the universe (`tickers`) and range (`start`, `end`) it covers. */
export interface LakeQuery extends DataQuery {
  /** One ticker or a list: the universe (a path value of per-ticker datasets, else a Ticker filter). */
  tickers?: string | readonly string[];
}

/** How a download runs: its chunk size, and the repair of a folder whose manifest is damaged or missing. */
export interface DownloadOptions {
  /** Trading days per request (default 20). */
  chunkDays?: number;
  /**
   * A folder whose manifest is damaged or missing: `"rebuild"` rebuilds it from the folder's
   * files (trusted as they are: their rows become the partitions, their bytes the hashes),
   * `"refetch"` removes the files and fetches the range again. Without it such a folder is a
   * LakeManifestError.
   */
  repair?: "rebuild" | "refetch";
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
  /**
   * What the call found and did that the user should know: partitions found damaged or missing
   * and fetched again, tickers fetched for part of the range only (delisted, renamed), a folder
   * repaired or upgraded; empty when none.
   */
  warnings: string[];
}

/** Tickers of one request where tickers are a filter: a service's `in` list stays short. */
const TICKERS_PER_REQUEST = 100;

/**
 * Downloads `dataset` into `dir` through the pipeline, with the lake as its sink: each unit's
 * frame is cut into partitions and written as it arrives.
 *
 * @example
 * ```ts
 * const result = await downloadLake(pipeline, facts, "eq-taq-1min", { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-24" }, "lake/bars");
 * ```
 */
export async function downloadLake(
  pipeline: Pipeline,
  facts: ServiceFacts,
  dataset: string,
  query: LakeQuery,
  dir: string,
  options: DownloadOptions = {},
): Promise<DownloadResult> {
  // The result's warnings, shared with the call's observers (provenance adds to them).
  const info = { kind: "download" as const, dataset, pathValues: [], query, dir, warnings: [] as string[] };
  let planned: { run: () => Promise<DownloadResult>; release: () => void };
  try {
    planned = await planDownload(pipeline, facts, dataset, query, dir, options, info);
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

/** The folder's manifest as found before the lock is taken (to choose the layout), or undefined when it is to be repaired. */
function peekManifest(dir: string, repair: DownloadOptions["repair"]): Manifest | undefined {
  try {
    return readManifest(dir);
  } catch (error) {
    if (error instanceof LakeManifestError && repair) return undefined;
    throw error;
  }
}

/**
 * The days each ticker is fetched for: the lookup files cut a ticker that stops trading or
 * changes its name inside the range (its days up to then, with a warning naming it, the date
 * and the reason); a ticker with no day in the range keeps them all, and is refused before
 * any request as a data call refuses it.
 */
async function universeFor(
  facts: ServiceFacts,
  dataset: string,
  tickers: readonly string[],
  days: readonly string[],
  warnings: string[],
): Promise<LakeUniverse> {
  if (tickers.length === 0 || days.length === 0 || !EQUITY_TICKER_DATASETS.includes(dataset)) return universeOf(tickers, days);
  const book = await tickerBook(facts);
  if (!book) return universeOf(tickers, days);
  return tickers.map((ticker) => {
    const cut = tickerCut(book, ticker, days[0], days.at(-1));
    const within = cut ? daysWithin(cut, days) : days;
    if (!cut || within.length === 0) return { ticker, days };
    warnings.push(`${cutWarning(dataset, cut, days[0], days.at(-1))}: downloaded for ${within[0]} to ${within.at(-1)}`);
    return { ticker, days: within };
  });
}

/** Checks a download and opens its folder; returns the run through the pipeline. */
async function planDownload(
  pipeline: Pipeline,
  facts: ServiceFacts,
  dataset: string,
  query: LakeQuery,
  dir: string,
  options: DownloadOptions,
  info: CallInfo,
): Promise<{ run: () => Promise<DownloadResult>; release: () => void }> {
  const endpoint = dataEndpoint(dataset);
  const { tickers: asked, start, end, force, onProgress, maxRows, ...rest } = query;
  if (maxRows !== undefined) {
    throw new QueryError("A download takes every row of its partitions: maxRows does not apply (narrow tickers, start/end or filters)");
  }
  if (options.repair !== undefined && options.repair !== "rebuild" && options.repair !== "refetch") {
    throw new QueryError(
      `repair is ${
        JSON.stringify(options.repair)
      }: give "rebuild" (the manifest rebuilt from the files) or "refetch" (the files fetched again)`,
    );
  }
  for (const column of [endpoint.dateColumn, endpoint.tickerColumn]) {
    if (column && rest.filters?.[column] !== undefined) {
      throw new QueryError(
        `A download takes its ${column} from ${column === endpoint.dateColumn ? "start/end" : "tickers"}, not from filters.${column}`,
      );
    }
  }
  const tickers = asked === undefined ? [] : [...new Set(typeof asked === "string" ? [asked] : asked)];
  const tickerInPath = endpoint.pathParams.includes("ticker");
  if (tickerInPath && tickers.length === 0) {
    throw new QueryError(`${dataset} is fetched per ticker: give the universe as { tickers: ["AAPL", ...] }`);
  }
  if (!endpoint.tickerColumn && tickers.length > 0) throw new QueryError(`${dataset} has no ticker column: tickers do not apply`);
  const folder = lakeFolder(dir);
  let days: string[] = [];
  if (endpoint.dateColumn) {
    const range = dateRange(start, end);
    const status = await facts.status(dataset);
    const first = [range.start, status.first_available_date].filter(Boolean).sort().at(-1)!;
    const last = [range.end, status.last_available_date].filter(Boolean).sort()[0]!;
    days = first && last && first <= last ? tradingDays(first, last).map((d) => d.date) : [];
  } else if (start !== undefined || end !== undefined) throw new QueryError(`${dataset} has no trade-date column: start/end do not apply`);

  // The layout: by ticker and date where tickers are given, so a folder takes any set of them;
  // a format-2 folder of one ticker set by date keeps its layout, for that set.
  const found = peekManifest(dir, options.repair);
  const byDateWithTickers = found !== undefined && !tickerInPath && tickers.length > 0 && found.layout.length === 1;
  const layout = byDateWithTickers ? found.layout : lakeLayout(endpoint, tickers.length > 0);
  // The folder's identity: the query without its dates and tickers (but a folder by date holds one ticker set).
  const tickerFilter = layout.length < 2 && tickers.length ? { [endpoint.tickerColumn!]: tickers } : {};
  const completed = withPartitionColumns(dataset, rest.columns, layout);
  const base = { ...rest, ...(completed.columns ? { columns: completed.columns } : {}), filters: { ...rest.filters, ...tickerFilter } };
  const sample = await pipeline.prepare(
    dataset,
    endpoint.pathParams.map((p) => (p === "ticker" ? tickers[0] : days[0] ?? "2000-01-03")),
    base,
  );
  const fingerprint = [...requestParams(sample)].filter(([k]) => layout.length < 2 || !k.startsWith(`${endpoint.tickerColumn}.`)).sort((
    [a],
    [b],
  ) => (a < b ? -1 : a > b ? 1 : 0));
  try {
    mkdirSync(dir, { recursive: true, mode: 0o755 }); // others may read a lake, never change it
    mkdirSync(folder.books, { recursive: true, mode: 0o755 });
    accessSync(folder.books, constants.W_OK); // a folder complete on a read-only disk is named as the lake, not its bookkeeping
  } catch (error) {
    throw StorageError.of(error, "create the folder", dir);
  }
  const release = lockFolder(folder.books); // one download at a time in a folder, across processes
  try {
    const warnings = info.warnings ?? [];
    if (completed.warning) warnings.push(completed.warning);
    const universe = await universeFor(facts, dataset, layout.length === 2 ? tickers : [], days, warnings);
    return { run: openFolder(universe, warnings), release };
  } catch (error) {
    release();
    throw error;
  }

  function openFolder(universe: LakeUniverse, warnings: string[]): () => Promise<DownloadResult> {
    const fresh = {
      dataset,
      layout,
      fileColumns: fileColumns(endpoint, layout),
      query: fingerprint,
      columns: sample.columns,
      timeUnits: lakeTimeUnits(endpoint, sample.columns),
    };
    const dead = removeDeadWrites(dir);
    if (dead.length) {
      warnings.push(
        `Removed ${dead.length} temporary file(s) of downloads that died in '${dir}' (${dead.slice(0, 3).join(", ")}${
          dead.length > 3 ? ", ..." : ""
        })`,
      );
    }
    const repaired = repairFolder(dir, fresh, options.repair);
    if (repaired.warning) warnings.push(repaired.warning);
    const manifest: Manifest = openManifest(dir, fresh, repaired.manifest);
    const wanted = wantedPartitions(layout, universe);
    warnings.push(...checkFolder(dir, manifest, wanted));
    // A folder written before sizes and hashes were kept (formats 1 and 2) keeps its files' units.
    const timeUnits = manifest.timeUnits ?? {};
    for (const w of warnings) console.warn(`Warning: ${w}`);
    // A file a partition (ticks, format 1) or a request's days of one ticker (the trade date a column).
    const pathColumns = filePathColumns(manifest);
    const chunked = layout.some((c) => !pathColumns.includes(c));
    const held = Object.keys(manifest.partitions).length;
    const units = lakeUnits(
      planChunks(layout, universe, new Set(Object.keys(manifest.partitions)), options.chunkDays ?? 20),
      tickerInPath,
      TICKERS_PER_REQUEST,
    )
      .flatMap((u) => (endpoint.pathParams.includes("trade_date") ? u.dates.map((d) => ({ ...u, dates: [d] })) : [u]));
    const partitionsOf = (u: (typeof units)[number]) => Math.max(1, u.dates.length) * Math.max(1, u.tickers.length);
    checkFreeSpace(dir, manifest, units[0] ? partitionsOf(units[0]) : 0); // before the folder's manifest is rewritten
    // Partitions of units sent and not yet written: counted as taken when the next unit is judged.
    let pending = 0;
    const beforeUnit = (i: number) => {
      checkFreeSpace(dir, manifest, partitionsOf(units[i]), pending);
      pending += partitionsOf(units[i]);
    };
    writeManifest(dir, manifest);

    const unitQuery = (u: (typeof units)[number]) => {
      const filters = { ...base.filters };
      if (u.dates.length && !endpoint.pathParams.includes("trade_date")) {
        filters[endpoint.dateColumn!] = { ge: u.dates[0], le: u.dates.at(-1)! };
      }
      if (!tickerInPath && layout.length === 2) filters[endpoint.tickerColumn!] = u.tickers.length === 1 ? u.tickers[0] : u.tickers;
      return { ...base, filters };
    };
    const pathValues = units.map((u) => endpoint.pathParams.map((p) => (p === "ticker" ? u.tickers[0] : u.dates[0])));
    let rows = 0;
    type Written = PromiseSettledResult<{ file: string; record: FileRecord } | undefined>[];

    /** One ticker's (or the date folder's) rows of a unit: written, then journalled, then told to the record. */
    const writeTicker = async (
      ticker: string | undefined,
      dates: readonly string[],
      frame: pl.DataFrame,
      unit: number,
      emit: (event: CallEvent) => void,
    ) => {
      const { byDate, contiguous } = splitByDate(frame, endpoint.dateColumn!);
      const pathOf = (date: string) => partitionPath(layout, { ticker, date });
      const written = chunked ? await writeChunk(ticker, dates, frame, byDate) : await writeDays(ticker, dates, byDate);
      const files = new Map<string, FileRecord>();
      const records = dates.flatMap((date, k) => {
        const w = written[k];
        if (w.status === "rejected") return [];
        const record: PartitionRecordOnDisk = w.value === undefined ? { rows: 0 } : { rows: byDate.get(date)!.height, file: w.value.file };
        if (w.value) files.set(w.value.file, w.value.record);
        manifest.partitions[pathOf(date)] = record;
        return [[pathOf(date), record] as const];
      });
      for (const [file, record] of files) manifest.files![file] = record;
      recordWrites(dir, [...files], records);
      const failed = written.find((w) => w.status === "rejected");
      if (failed) throw (failed as PromiseRejectedResult).reason;
      // For the record, in the rows' order (the parts' own; a date not asked, never written, is
      // not recorded), then the asked dates with no row.
      const parts = [...byDate].map(([date, part]) => ({ path: dates.includes(date) ? pathOf(date) : undefined, frame: part }));
      emit({
        type: "partitions",
        unit,
        frame,
        parts: [...parts, ...dates.filter((d) => !byDate.has(d)).map((d) => ({ path: pathOf(d) }))],
        contiguous,
      });
    };
    const write = async (i: number, frame: pl.DataFrame, emit: (event: CallEvent) => void) => {
      try {
        return await writeUnit(i, frame, emit);
      } finally {
        pending -= partitionsOf(units[i]);
      }
    };
    const writeUnit = async (i: number, frame: pl.DataFrame, emit: (event: CallEvent) => void) => {
      const u = units[i];
      if (layout.length === 0) {
        const file = partitionFile("", {});
        const record = await writeLakeFile(folder, file, frame, pathColumns, timeUnits);
        manifest.files![file] = record;
        manifest.partitions[""] = { rows: frame.height, file };
        recordWrites(dir, [[file, record]], [["", manifest.partitions[""]]]);
        emit({ type: "partitions", unit: i, frame, parts: [{ path: "", frame }], contiguous: true });
      } else if (layout.length === 1 || tickerInPath) {
        await writeTicker(u.tickers[0], u.dates, frame, i, emit);
      } else {
        // Tickers as a filter: the unit's rows of each ticker are that ticker's files.
        const column = endpoint.tickerColumn!;
        const parts = new Map(
          frame.height ? frame.partitionBy([column], true, true).map((part) => [String(part.getColumn(column).get(0)), part] as const) : [],
        );
        const failures: unknown[] = [];
        for (const ticker of u.tickers) {
          await writeTicker(ticker, u.dates, parts.get(ticker) ?? frame.head(0), i, emit).catch((error) => void failures.push(error));
        }
        if (failures.length) throw failures[0];
      }
      rows += frame.height;
      return undefined; // the rows are on disk: the call keeps none of them
    };
    // A file a partition: the unit's partitions are written together, then recorded in date order
    // (the folder's order does not depend on which write ends first) in one append, each only once
    // its file is in place. All settle before a failure is thrown: no write is left running into
    // a resumed call.
    const writeDays = (ticker: string | undefined, dates: readonly string[], byDate: Map<string, pl.DataFrame>): Promise<Written> =>
      Promise.allSettled(dates.map(async (date) => {
        const part = byDate.get(date);
        if (!part) return undefined;
        const file = partitionFile(partitionPath(layout, { ticker, date }), {});
        return { file, record: await writeLakeFile(folder, file, part, pathColumns, timeUnits) };
      }));
    // One file for the unit's days (the trade date a column of it), recorded for each day with rows.
    const writeChunk = async (
      ticker: string | undefined,
      dates: readonly string[],
      frame: pl.DataFrame,
      byDate: Map<string, pl.DataFrame>,
    ): Promise<Written> => {
      const asked = new Set(dates);
      const arrived = [...byDate.keys()];
      if (!arrived.some((d) => asked.has(d))) return dates.map(() => ({ status: "fulfilled", value: undefined }));
      // Rows of a date not asked (a service answering past the range) are not written, as with a file a day.
      const rows = arrived.every((d) => asked.has(d))
        ? frame
        : pl.concat([...byDate].filter(([d]) => asked.has(d)).map(([, part]) => part));
      const file = chunkFile(pathColumns, ticker, dates);
      let record: FileRecord;
      try {
        record = await writeLakeFile(folder, file, rows, pathColumns, timeUnits);
      } catch (reason) {
        return dates.map(() => ({ status: "rejected", reason }));
      }
      return dates.map((date) => ({ status: "fulfilled", value: byDate.has(date) ? { file, record } : undefined }));
    };
    const plan = { endpoint, units: pathValues, base, range: {}, force: force ?? false, unitQueries: units.map(unitQuery) };
    const reusing = (emit: (event: CallEvent) => void) => {
      emit({ type: "reusing", partitions: held });
      // What the run's range finds in the folder (checked above), read back and hashed, so a
      // re-run that reuses it still compares (--verify). Partitions are read in path order, so
      // the days of one file follow one another: the last file read is kept for the next.
      const lastFile: LakeFilesRead = new Map();
      for (const path of wanted.filter((p) => p in manifest.partitions)) {
        emit({
          type: "reused-partition",
          path,
          rows: manifest.partitions[path].rows,
          read: () => readLakePartition(dir, manifest, path, lastFile),
        });
      }
    };
    return () =>
      pipeline.run({
        plan,
        info,
        listeners: onProgress ? [progressListener(dataset, onProgress)] : [],
        upfront: true,
      }, {
        start: reusing,
        beforeUnit,
        unit: write,
        result: () => {
          writeManifest(dir, manifest);
          const fetched = units.reduce((n, u) => n + Math.max(1, u.dates.length) * Math.max(1, u.tickers.length), 0);
          return Promise.resolve({
            dir,
            dataset,
            layout,
            partitions: Object.keys(manifest.partitions).length,
            fetched,
            rows,
            resumed: held > 0,
            warnings,
          });
        },
      });
  }
}
