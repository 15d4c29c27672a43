/**
 * An opt-in on-disk cache of whole results, as Parquet files keyed by the request (service,
 * identity, path, filters, columns, sort, variant, maxRows). A hit sends no request and costs
 * no quota. Each cached frame keeps its provenance beside it (`<file>.provenance.json`: the
 * service, the request, the dataset's status when it was fetched, the time, rows and the
 * frame's hash), so `verify()` can tell which cached frames the service has updated since. A
 * folder that cannot be written is read from but never written to (the first refusal is
 * reported once through `warn`).
 */
import pl from "nodejs-polars";
import { createHash } from "node:crypto";
import { accessSync, constants, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { StorageError } from "../errors/storage.ts";
import { PRIVATE_FILE, writeAtomically } from "../runtime/files.ts";
import { type PreparedRequest, requestParams } from "../query/prepare.ts";
import { requestRecord } from "../provenance/callTap.ts";
import { frameHash, hashScheme } from "../provenance/frameHash.ts";
import { publicBaseUrl, type StatusAtCall, statusAtCall } from "../provenance/manifest.ts";
import {
  type CacheCheck,
  type CacheEntry,
  type CacheOrigin,
  ENTRY_SUFFIX,
  readCachedFrame,
  readEntry,
  verifyCache,
} from "./cacheEntries.ts";
import { removeUnkeyedEntries } from "./cacheScope.ts";
import { sha256OfFile } from "./lakeCheck.ts";
import { processAlive } from "./lakeRepair.ts";

export type { CacheCheck, CacheEntry, CacheOrigin } from "./cacheEntries.ts";
export { NoCache } from "./noCache.ts";

/**
 * The on-disk cache of whole results (`connect({ cache: dir })`).
 *
 * @example
 * ```ts
 * const wb = await connect({ cache: ".cache/frames" });
 * await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } }); // fetched, then cached
 * wb.cache.hits; // 0, then 1 after the same call again
 * ```
 */
export class FrameCache {
  /** True: frames are cached in `dir` (`wb.cache` of a workbench without a cache is a `NoCache`). */
  readonly enabled = true as const;
  private writable: boolean | undefined;
  /** Calls answered from the cache so far. */
  hits = 0;
  /** Calls that missed the cache (and were fetched) so far. */
  misses = 0;

  /** Keeps services and keys apart (`Transport.keyedScope`: an HMAC under the user's local secret). */
  readonly #scope: string;
  /** Whether entries keyed by an older workbench were looked for (once). */
  #swept = false;

  /**
   * `scope` separates services and identities (an HMAC of base URL and key under the user's
   * local secret, never the key); `origin` says where frames come from (the service's address
   * and the dataset's status, read free), written with each cached frame.
   */
  constructor(
    readonly dir: string,
    scope: string,
    private readonly origin?: CacheOrigin,
    private readonly warn: (message: string) => void = console.warn,
  ) {
    this.#scope = scope;
  }

  /**
   * The cache file of a request.
   *
   * @internal the workbench's own pipeline calls it; a notebook has no prepared request to give.
   */
  pathFor(request: PreparedRequest): string {
    const params = [...requestParams(request)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const key = JSON.stringify({
      scope: this.#scope,
      path: request.path,
      params,
      maxRows: request.maxRows,
      columns: request.columns.map((c) => c.name),
    });
    return join(this.dir, `${request.dataset}-${createHash("sha256").update(key).digest("hex").slice(0, 32)}.parquet`);
  }

  /** Whether the folder can be written (checked once; a read-only folder warns and caches nothing). */
  private canWrite(): boolean {
    if (this.writable === undefined) {
      try {
        mkdirSync(this.dir, { recursive: true, mode: 0o700 });
        accessSync(this.dir, constants.W_OK);
        this.writable = true;
        removeDeadPartials(this.dir);
      } catch (e) {
        this.writable = false;
        this.warn(`Cache folder '${this.dir}' is not writable (${(e as Error).message}); results will not be cached`);
      }
    }
    return this.writable;
  }

  /** The cached frame of `request`, or `fetch()`'s (then cached); `onHit` hears a hit. */
  async getOrFetch(request: PreparedRequest, fetch: () => Promise<pl.DataFrame>, onHit?: () => void): Promise<pl.DataFrame> {
    this.#sweep();
    const path = this.pathFor(request);
    if (existsSync(path)) {
      const entryPath = path.replace(/\.parquet$/, ENTRY_SUFFIX);
      const entry = readEntry(entryPath);
      // A frame without readable provenance cannot be checked: never served, fetched again.
      const read = entry
        ? readCachedFrame(path, entry)
        : { damage: existsSync(entryPath) ? "its provenance beside it is unreadable" : "its provenance beside it is missing" };
      if ("frame" in read) {
        this.hits++;
        onHit?.();
        return read.frame;
      }
      // Never served: removed, fetched again below, and said.
      this.warn(`Warning: the cached ${request.dataset} frame '${path}' was damaged (${read.damage}): removed and fetched again`);
      rmSync(path, { force: true });
      rmSync(entryPath, { force: true });
    }
    this.misses++;
    const fetchedAt = new Date().toISOString();
    const status = this.origin ? statusAtCall(this.origin.statusAtFetch, request.dataset) : undefined;
    const frame = await fetch();
    if (this.canWrite()) {
      const entry = await this.entryOf(request, frame, fetchedAt, status);
      const entryPath = path.replace(/\.parquet$/, ENTRY_SUFFIX);
      try {
        // The frame's file is written and hashed first; the entry with its size and hash is put in
        // place before the frame: a cached frame never lacks its provenance (an entry alone is
        // ignored), and its bytes are checked before Polars reads them. Both private (0600): what
        // the user's key fetched is theirs to read.
        writeAtomically(path, (tmp) => {
          frame.writeParquet(tmp);
          entry.file = { bytes: statSync(tmp).size, sha256: sha256OfFile(tmp) };
          writeAtomically(entryPath, (entryTmp) => writeFileSync(entryTmp, JSON.stringify(entry, null, 1)), PRIVATE_FILE);
        }, PRIVATE_FILE);
      } catch (error) {
        // The cache is optional: the call keeps its frame, the cache keeps nothing half-written.
        rmSync(entryPath, { force: true });
        const failure = StorageError.of(error, "cache the frame in", path);
        this.warn(
          `Cannot cache the frame in '${path}': ${failure.cause}${
            failure.code ? ` (${failure.code})` : ""
          }; the frame is returned, not cached`,
        );
      }
    }
    return frame;
  }

  /** Once a session: entries an older workbench keyed by a digest of the key alone are removed (never found again). */
  #sweep(): void {
    if (this.#swept) return;
    this.#swept = true;
    removeUnkeyedEntries(this.dir, this.warn);
  }

  /** The provenance written beside a cached frame. */
  private async entryOf(
    request: PreparedRequest,
    frame: pl.DataFrame,
    fetchedAt: string,
    status: Promise<StatusAtCall> | undefined,
  ): Promise<CacheEntry> {
    return {
      version: 1,
      scope: this.#scope,
      service: this.origin ? publicBaseUrl(this.origin.baseUrl) : undefined,
      dataset: request.dataset,
      request: { ...requestRecord(request), maxRows: Number.isFinite(request.maxRows) ? request.maxRows : null },
      status: (await status) ?? {},
      fetchedAt,
      rows: frame.height,
      columns: frame.width,
      frameHash: frameHash(frame),
      hash: hashScheme(),
    };
  }

  /**
   * Re-checks every cached frame of this service and identity against the service's current
   * `last_updated` (GET .../status per dataset, free): which are fresh, which are stale (the
   * dataset was updated after the frame was fetched) and which cannot tell (no provenance, a
   * cache written before provenance was kept). `remove: true` deletes the stale ones.
   *
   * @example
   * ```ts
   * const wb = await connect({ cache: ".cache/frames" });
   * const check = await wb.cache.verify();   // a card in a notebook
   * check.stale.map((e) => e.dataset);       // datasets updated since their frames were cached
   * await wb.cache.verify({ remove: true }); // and drop those frames
   * ```
   */
  verify(options: { remove?: boolean } = {}): Promise<CacheCheck> {
    if (!this.origin) return Promise.reject(new Error("This cache has no service to verify against (it was made without one)"));
    this.#sweep();
    return verifyCache(this.dir, this.#scope, this.origin, options.remove ?? false);
  }
}

/** Removes the temporary files (`.<file>.<pid>.tmp`, see runtime/files.ts) of cache writes whose process died. */
function removeDeadPartials(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = /^\..*\.(\d+)\.tmp$/.exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && !processAlive(Number(pid))) rmSync(join(dir, name), { force: true });
  }
}
