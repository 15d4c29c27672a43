/**
 * Streams a query page by page into Parquet part files in a folder, with bounded memory (one
 * page at a time), and resumes after an interruption: `_download.json` records the request
 * and the pages written, so running the same download again continues where it stopped.
 */
import pl from "nodejs-polars";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { QueryError } from "../errors/base.ts";
import { Pager } from "../fetch/pager.ts";
import { type ProgressListener, ProgressTracker } from "../fetch/progress.ts";
import type { Transport } from "../http/transport.ts";
import type { PreparedRequest } from "../query/prepare.ts";

interface DownloadState {
  dataset: string;
  path: string;
  params: [string, string][];
  /** Offset of the first row not yet written. */
  nextOffset: number;
  rows: number;
  parts: number;
  done: boolean;
}

export interface DownloadResult {
  dir: string;
  rows: number;
  parts: number;
  /** Whether this call continued an earlier, interrupted download. */
  resumed: boolean;
}

const STATE_FILE = "_download.json";
const partName = (n: number) => `part-${String(n).padStart(6, "0")}.parquet`;

function writeState(dir: string, state: DownloadState): void {
  writeFileSync(join(dir, `${STATE_FILE}.tmp`), JSON.stringify(state, null, 2));
  renameSync(join(dir, `${STATE_FILE}.tmp`), join(dir, STATE_FILE));
}

export async function downloadToParquet(transport: Transport, request: PreparedRequest, dir: string, onProgress?: ProgressListener): Promise<DownloadResult> {
  mkdirSync(dir, { recursive: true });
  const params = [...request.params];
  const statePath = join(dir, STATE_FILE);
  let state: DownloadState = { dataset: request.dataset, path: request.path, params, nextOffset: 0, rows: 0, parts: 0, done: false };
  let resumed = false;
  if (existsSync(statePath)) {
    const previous: DownloadState = JSON.parse(readFileSync(statePath, "utf8"));
    if (previous.path !== request.path || JSON.stringify(previous.params) !== JSON.stringify(params)) {
      throw new QueryError(`Folder '${dir}' holds a download of a different query (${previous.path}); choose another folder`);
    }
    state = previous;
    resumed = state.parts > 0 && !state.done;
    if (state.done) return { dir, rows: state.rows, parts: state.parts, resumed: false };
  } else if (readdirSync(dir).some((f) => f.endsWith(".parquet"))) {
    throw new QueryError(`Folder '${dir}' already holds Parquet files that no download of this workbench wrote; choose an empty folder`);
  }
  const pager = new Pager(transport, { ...request, maxRows: Number.POSITIVE_INFINITY });
  const tracker = new ProgressTracker(request.dataset, onProgress);
  while (!state.done && state.rows < request.maxRows) {
    const size = Math.min(pager.size, request.maxRows - state.rows);
    const page = await pager.page(state.nextOffset, size, tracker);
    if (page.frame.height > 0) {
      const file = join(dir, partName(state.parts));
      page.frame.writeParquet(`${file}.tmp`);
      renameSync(`${file}.tmp`, file);
      state = { ...state, parts: state.parts + 1, rows: state.rows + page.frame.height, nextOffset: state.nextOffset + page.frame.height };
    }
    state.done = page.next === null || page.frame.height === 0 || state.rows >= request.maxRows;
    writeState(dir, state);
  }
  tracker.finish();
  return { dir, rows: state.rows, parts: state.parts, resumed };
}

/**
 * A LazyFrame over a downloaded folder.
 *
 * @example
 * ```ts
 * const lf = scanDownload("downloads/aapl-bars");
 * const daily = lf.groupBy("TradeDate").agg(pl.col("Volume").sum()).collectSync();
 * ```
 */
export function scanDownload(dir: string): pl.LazyDataFrame {
  if (!existsSync(join(dir, STATE_FILE))) throw new QueryError(`Folder '${dir}' holds no download (no ${STATE_FILE})`);
  return pl.scanParquet(join(dir, "part-*.parquet"));
}
