/**
 * Decoded market files kept in memory, least recently used out first, within a byte budget.
 * The market does not change while the service runs, so a file decoded once serves every
 * later page of it: a client walking a day of option Greeks in 100-row pages pays for one
 * decode, not one per page. Two kinds of query use it: one that touches a few files, in any
 * order (see `CACHED_FILES_PER_QUERY`), and a page in the default order, which reads exactly the
 * window of files holding its rows (see rowCounts.ts; `CACHED_FILES_PER_WINDOW`), so a client
 * fetching a long history page by page, or fetching it again, meets decoded files. Other long scans read
 * from disk, where Polars' predicate and slice pushdown skip what they do not need. Loads of
 * one file in flight are shared. The cache changes no answer, only how fast it comes.
 *
 * Minute bars do not come here: a query of them names one ticker, whose row group of each file
 * is read from disk (see readsOneRowGroup in execute.ts).
 *
 * A window larger than the cache (a month of option chains, more than a worker's share holds)
 * is not decoded whole into it: least recently used out first, each page would evict the files
 * the next page reads first and decode every file again, and decoding a whole file costs about
 * twice what reading only the page's rows from it does (predicate pushdown). Such a window
 * takes the files held, decodes as many more as fit beside them, and leaves the rest to be read
 * from disk (see `windowFrames`).
 */
import pl from "nodejs-polars";
import { cacheBudgetMb, environment } from "./cacheBudget.ts";
import { fileScan } from "./fileScans.ts";
import { letGo } from "./frameCollector.ts";
import type { MarketFile } from "./marketFiles.ts";

/** Of a worker's share of the cache memory, the decoded files get this part; its whole results and written results a tenth each. */
const FRAME_PART = 0.8;

/**
 * Memory this worker's decoded files may hold. One budget counts every cache of every worker:
 * SANDBOX_FRAME_CACHE_MB (128 MB by default; 0 turns the caches off) is what the whole
 * sandbox's caches may hold, and the service gives each worker its share
 * (SANDBOX_WORKER_CACHE_MB, set by server.ts); a process serving alone (tests) takes it all.
 * Of a share, the decoded files get eight tenths, the whole results (resultCache.ts) and the
 * written results (writtenResults.ts) an eighth of that each, so the three add up to the share.
 */
export const FRAME_CACHE_BYTES = workerShareBytes() * FRAME_PART;

function workerShareBytes(): number {
  const share = environment("SANDBOX_WORKER_CACHE_MB");
  return (share === undefined || share === "" ? cacheBudgetMb() : Number(share)) * 2 ** 20;
}

/** A query in any order that prunes to more files than this reads them from disk. */
export const CACHED_FILES_PER_QUERY = 4;

/**
 * A default-order page whose rows lie in more files than this reads them from disk: a
 * 100,000-row page of minute bars spans about 105 files, one of option chains thousands.
 */
export const CACHED_FILES_PER_WINDOW = 512;

/** A file's key: its path and size (a regenerated file is another entry). */
const entryKey = (file: MarketFile) => `${file.path}\u0000${file.bytes}`;

interface Entry {
  frame: Promise<pl.DataFrame>;
  /** Estimated size once loaded; 0 while loading. */
  bytes: number;
}

/**
 * Frames by key, least recently used out first, within a byte budget; loads of one key in
 * flight are shared, and a failed load is forgotten.
 */
export class FrameLru {
  readonly #entries = new Map<string, Entry>();
  #used = 0;

  constructor(readonly budgetBytes: number) {}

  /** Estimated bytes held now (within the budget once loads settle). */
  get usedBytes(): number {
    return this.#used;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** Bytes of the frame under `key` once loaded; 0 while it loads or when it is not held. */
  bytesOf(key: string): number {
    return this.#entries.get(key)?.bytes ?? 0;
  }

  /** The frame under `key`, made by `load` on first use. */
  get(key: string, load: () => Promise<pl.DataFrame>): Promise<pl.DataFrame> {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.frame;
    }
    const entry: Entry = { frame: load(), bytes: 0 };
    this.#entries.set(key, entry);
    entry.frame.then(
      (frame) => {
        if (this.#entries.get(key) !== entry) return;
        entry.bytes = estimatedBytes(frame);
        this.#used += entry.bytes;
        this.#evict();
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return entry.frame;
  }

  #evict(): void {
    for (const [key, entry] of this.#entries) {
      if (this.#used <= this.budgetBytes) return;
      if (entry.bytes === 0) continue;
      this.#entries.delete(key);
      this.#used -= entry.bytes;
      letGo(entry.bytes);
    }
  }
}

export class FrameCache {
  readonly #lru: FrameLru;
  /** Per dataset, the most memory a decoded file took per byte of its Parquet file (see `estimatedBytes`). */
  readonly #perFileByte = new Map<string, number>();

  constructor(readonly budgetBytes: number) {
    this.#lru = new FrameLru(budgetBytes);
  }

  /**
   * Memory `file` takes decoded: its size when held, else its bytes times the most any decoded
   * file of `dataset` took per byte; 0 before a file of the dataset was decoded (it is then
   * taken to fit).
   */
  estimatedBytes(file: MarketFile, dataset: string): number {
    return this.#lru.bytesOf(entryKey(file)) || Math.ceil(file.bytes * (this.#perFileByte.get(dataset) ?? 0));
  }

  /**
   * Of a window of files to read in full, those to decode into the cache: every file when
   * they fit in the budget together; else the files held (so none is evicted by its own
   * window) and, in order, as many others as fit beside them. The rest are for reading from
   * disk.
   *
   * @example
   * ```ts
   * const decoded = cache.admit(window, "eq-taq-1min"); // window.filter((f) => cache.holds(f)) and more
   * ```
   */
  admit(files: readonly MarketFile[], dataset: string): MarketFile[] {
    const sizes = files.map((f) => this.estimatedBytes(f, dataset));
    if (sizes.reduce((a, b) => a + b, 0) <= this.budgetBytes) return [...files];
    let room = this.budgetBytes - files.reduce((sum, f, i) => sum + (this.holds(f) ? sizes[i] : 0), 0);
    return files.filter((f, i) => {
      if (this.holds(f)) return true;
      if (sizes[i] > room) return false;
      room -= sizes[i];
      return true;
    });
  }

  /** Estimated bytes of the decoded files held now (within the budget once loads settle). */
  get usedBytes(): number {
    return this.#lru.usedBytes;
  }

  /** Whether `file` is held (loaded or loading). */
  holds(file: MarketFile): boolean {
    return this.#lru.has(entryKey(file));
  }

  /** The whole file as a frame, decoded on first use; `dataset` learns how much memory its files take decoded. */
  get(file: MarketFile, dataset?: string): Promise<pl.DataFrame> {
    return this.#lru.get(entryKey(file), async () => {
      const frame = await fileScan(file).collect();
      if (dataset !== undefined && file.bytes > 0) {
        const perByte = estimatedBytes(frame) / file.bytes;
        if (perByte > (this.#perFileByte.get(dataset) ?? 0)) this.#perFileByte.set(dataset, perByte);
      }
      return frame;
    });
  }
}

/**
 * Memory a frame holds, roughly: 8 bytes a value, 16 for text (the market's strings are short codes, stored inline).
 *
 * @example
 * ```ts
 * estimatedBytes(pl.DataFrame({ a: [1, 2], b: ["x", "y"] })); // 48
 * ```
 */
export function estimatedBytes(frame: pl.DataFrame): number {
  let bytes = estimates.get(frame);
  if (bytes === undefined) {
    // A native call a column: remembered, since a cached frame is weighed again at each use.
    const rowBytes = frame.dtypes.reduce((sum, dtype) => sum + (dtype.equals(pl.String) ? 16 : 8), 0);
    estimates.set(frame, bytes = Math.max(1, frame.height * rowBytes));
  }
  return bytes;
}
const estimates = new WeakMap<pl.DataFrame, number>();

const shared = new FrameCache(FRAME_CACHE_BYTES);

/**
 * Decoded frames by path for a query's files, or none when there are more than `maxFiles` or
 * the cache is off.
 *
 * @example
 * ```ts
 * const frames = await cachedFrames(pruned, CACHED_FILES_PER_QUERY); // Map or undefined
 * ```
 */
export async function cachedFrames(
  files: readonly MarketFile[],
  maxFiles: number,
  cache = shared,
): Promise<Map<string, pl.DataFrame> | undefined> {
  return cacheable(files, maxFiles, cache) ? await framesByPath(files, cache) : undefined;
}

/**
 * Decoded frames by path for the window of files of a default-order page of `dataset`: all of
 * them when they fit in the cache, else those the cache holds and as many more as fit beside
 * them (`FrameCache.admit`); a file left out is for the caller to read from disk. None when
 * there are more than `maxFiles` or the cache is off.
 *
 * @example
 * ```ts
 * const frames = await windowFrames(window, CACHED_FILES_PER_WINDOW, "eq-taq-1min");
 * const source = (f: MarketFile) => frames?.get(f.path)?.lazy() ?? pl.scanParquet(f.path);
 * ```
 */
export async function windowFrames(
  files: readonly MarketFile[],
  maxFiles: number,
  dataset: string,
  cache = shared,
): Promise<Map<string, pl.DataFrame> | undefined> {
  return cacheable(files, maxFiles, cache) ? await framesByPath(cache.admit(files, dataset), cache, dataset) : undefined;
}

/** Whether the cache may serve these files: some, at most `maxFiles`, and the cache on. */
function cacheable(files: readonly MarketFile[], maxFiles: number, cache: FrameCache): boolean {
  return files.length > 0 && files.length <= maxFiles && cache.budgetBytes > 0;
}

/** The files decoded through the cache, by path. */
async function framesByPath(files: readonly MarketFile[], cache: FrameCache, dataset?: string): Promise<Map<string, pl.DataFrame>> {
  const frames = await Promise.all(files.map((f) => cache.get(f, dataset)));
  return new Map(files.map((f, i) => [f.path, frames[i]]));
}
