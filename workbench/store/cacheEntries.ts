/**
 * The provenance kept beside each cached frame (`<file>.provenance.json`), and `verify`, which
 * sets each entry against the service's current status: a frame fetched before the dataset's
 * latest update (`last_updated` then differs from now) is stale.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileDamage } from "./lakeCheck.ts";
import pl from "nodejs-polars";
import { frameHash, hashScheme } from "../provenance/frameHash.ts";
import { displayAs } from "../display/kind.ts";
import type { HashSchemeRecord, RequestRecord, StatusAtCall, StatusRead } from "../provenance/manifest.ts";

/** The suffix of the provenance file beside each cached `.parquet` frame. */
export const ENTRY_SUFFIX = ".provenance.json";

/** Where cached frames come from: the service, and its dataset statuses (free reads). */
export interface CacheOrigin {
  /** The service's base URL (no user name or password). */
  baseUrl: string;
  /** The status a fetch is recorded with (the session's, read once per dataset, as the manifest's). */
  statusAtFetch: StatusRead;
  /** The status as the service gives it now (not the session's copy): what `verify` compares. */
  statusNow: StatusRead;
}

/** What is written beside a cached frame: the manifest entry of the fetch that filled it. */
export interface CacheEntry {
  /** The entry layout's version (the manifest's, `MANIFEST_VERSION`). */
  version: number;
  /** The cache key's scope (a digest of service and key; never the key). */
  scope: string;
  /** The service's address (no user name or password). */
  service?: string;
  /** The dataset's id, e.g. `eq-taq-1min`. */
  dataset: string;
  /** The wire request that filled the frame, with the row cap it was fetched under (null: none). */
  request: RequestRecord & { maxRows: number | null };
  /** The dataset's status when the frame was fetched. */
  status: StatusAtCall;
  /** When the frame was fetched (ISO date-time). */
  fetchedAt: string;
  /** Rows of the cached frame. */
  rows: number;
  /** Columns of the cached frame. */
  columns: number;
  /** `frameHash` of the cached frame. */
  frameHash: string;
  /** How `frameHash` was made. */
  hash: HashSchemeRecord;
  /** The cached file's size and the SHA-256 of its bytes (hex), checked before it is read (absent in entries written before). */
  file?: { bytes: number; sha256: string };
}

/** One cached frame as `verify` judged it. */
export interface CheckedEntry {
  /** The cached frame's file name in the cache folder. */
  file: string;
  /** The dataset's id, e.g. `eq-taq-1min`. */
  dataset: string;
  /** The request's path under the base URL (`?` when no provenance was kept). */
  path: string;
  /** When the frame was fetched (ISO date-time). */
  fetchedAt?: string;
  /** Rows of the cached frame. */
  rows?: number;
  /** The dataset's `last_updated` when the frame was fetched. */
  lastUpdatedThen?: string;
  /** The dataset's `last_updated` as the service gives it now. */
  lastUpdatedNow?: string;
  /** Why it is stale or unknown. */
  reason?: string;
}

/** What `wb.cache.verify()` returns (a card in a notebook). */
export interface CacheCheck {
  /** The cache folder checked. */
  dir: string;
  /** The service whose frames were checked (frames of other services or keys are skipped). */
  service: string;
  /** When the check ran (ISO date-time). */
  checkedAt: string;
  /** Frames fetched on the dataset's current state. */
  fresh: CheckedEntry[];
  /** Frames fetched before the dataset's latest update. */
  stale: CheckedEntry[];
  /** Cached frames without provenance (written by an older workbench), or whose status could not be read. */
  unknown: CheckedEntry[];
  /** Stale frames deleted (with `remove: true`). */
  removed: number;
}

/**
 * Reads a cached frame if it holds what its entry recorded (rows, columns, and the frame's hash
 * under the same hash scheme); else says why not. A truncated or replaced file is never served.
 *
 * @example
 * ```ts
 * const read = readCachedFrame(".cache/frames/eq-daily-ohlc-0f3a….parquet", entry);
 * if ("damage" in read) console.warn(read.damage);
 * ```
 */
export function readCachedFrame(file: string, entry: CacheEntry | undefined): { frame: pl.DataFrame } | { damage: string } {
  if (entry?.file) {
    // Checked before Polars reads it: damaged bytes may read as wrong values, or panic the reader.
    const damage = fileDamage(dirname(file), basename(file), { ...entry.file, rows: entry.rows });
    if (damage) return { damage };
  }
  let frame: pl.DataFrame;
  try {
    frame = pl.readParquet(file);
  } catch (error) {
    return { damage: `its file cannot be read (${(error as Error).message.split("\n")[0]})` };
  }
  if (!entry) return { frame };
  if (frame.height !== entry.rows || frame.width !== entry.columns) {
    return {
      damage: `its file holds ${frame.height} rows and ${frame.width} columns where ${entry.rows} and ${entry.columns} were cached`,
    };
  }
  const scheme = hashScheme();
  if (
    entry.frameHash && entry.hash?.scheme === scheme.scheme && entry.hash?.nodejsPolars === scheme.nodejsPolars &&
    frameHash(frame) !== entry.frameHash
  ) {
    return { damage: "its rows are not the rows cached (their hash differs)" };
  }
  return { frame };
}

/** A cache entry's provenance, or undefined when missing or unreadable. */
export function readEntry(path: string): CacheEntry | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as CacheEntry;
  } catch {
    return undefined;
  }
}

/** Judges every cached frame of `scope` in `dir` against the service's status now. */
export async function verifyCache(dir: string, scope: string, origin: CacheOrigin, remove: boolean): Promise<CacheCheck> {
  const check: CacheCheck = {
    dir,
    service: origin.baseUrl,
    checkedAt: new Date().toISOString(),
    fresh: [],
    stale: [],
    unknown: [],
    removed: 0,
  };
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".parquet")).sort() : [];
  const statuses = new Map<string, Promise<{ last_updated?: string; error?: string }>>();
  const statusNow = (dataset: string) => {
    if (!statuses.has(dataset)) statuses.set(dataset, origin.statusNow(dataset).catch((e) => ({ error: (e as Error).message })));
    return statuses.get(dataset)!;
  };
  for (const file of files) {
    const entryPath = join(dir, file.replace(/\.parquet$/, ENTRY_SUFFIX));
    const entry = readEntry(entryPath);
    if (!entry) {
      check.unknown.push({
        file,
        dataset: file.replace(/-[0-9a-f]{32}\.parquet$/, ""),
        path: "?",
        reason: "no readable provenance beside it (missing or garbled): never served, the next call fetches it again",
      });
      continue;
    }
    if (entry.scope !== scope) continue; // another service's or another key's frame
    const now = await statusNow(entry.dataset);
    const judged: CheckedEntry = {
      file,
      dataset: entry.dataset,
      path: entry.request.path,
      fetchedAt: entry.fetchedAt,
      rows: entry.rows,
      lastUpdatedThen: entry.status.last_updated,
      lastUpdatedNow: now.last_updated,
    };
    const content = readCachedFrame(join(dir, file), entry);
    if ("damage" in content) {
      // Damaged content is never fresh: listed as stale with why, and removed like a stale frame.
      check.stale.push({ ...judged, reason: `the cached file is damaged: ${content.damage}` });
      if (remove) {
        rmSync(join(dir, file), { force: true });
        rmSync(entryPath, { force: true });
        check.removed++;
      }
    } else if (now.error || !entry.status.last_updated) {
      check.unknown.push({
        ...judged,
        reason: now.error ? `status unreadable now: ${now.error}` : `status was unreadable when cached: ${entry.status.error ?? "missing"}`,
      });
    } else if (now.last_updated !== entry.status.last_updated) {
      check.stale.push({
        ...judged,
        reason: `${entry.dataset} was updated ${now.last_updated}, after this frame was fetched (data then: ${entry.status.last_updated})`,
      });
      if (remove) {
        rmSync(join(dir, file), { force: true });
        rmSync(entryPath, { force: true });
        check.removed++;
      }
    } else check.fresh.push(judged);
  }
  return displayAs(check, "cache-check");
}
