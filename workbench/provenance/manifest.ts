/**
 * The provenance manifest's shape: what a session's data calls were, against which service,
 * on which state of each dataset, and a content hash of each frame they returned. Plain JSON
 * (no key, no frame): the notebook runner writes it as `<name>.provenance.json` and
 * `--verify` re-runs a notebook against it.
 */
import type { RowBlocks } from "./rowBlocks.ts";

/** Version of the manifest layout (bumped when a field changes meaning; 2: `rows:` hashes, failures, downloads). */
export const MANIFEST_VERSION = 2;

/** The dataset's status when the call was made (from the free, session-cached status read). */
export interface StatusAtCall {
  /** When the service last updated the dataset (ISO date-time), as its status read said. */
  last_updated?: string;
  /** The dataset's first date with data (ISO date), null for an undated dataset. */
  first_available_date?: string | null;
  /** The dataset's last date with data (ISO date), null for an undated dataset. */
  last_available_date?: string | null;
  /** Why the status is missing (the read failed); the call itself went on. */
  error?: string;
}

/** One wire request of a call (one per ticker or ticker-day of a universe). */
export interface RequestRecord {
  /** Path under the base URL, e.g. `/api/v1/data/us-equity/eq-taq-1min/AAPL`. */
  path: string;
  /** Query parameters without offset, limit and response_format (the pager adds those); never the key. */
  params: [string, string][];
}

/** Why a call failed: the error's class and message (never the key; partial rows counted). */
export interface CallFailure {
  /** The error's class name, e.g. `RateLimitError`. */
  name: string;
  /** The error's message. */
  message: string;
  /** The HTTP status of the answer that failed, when one came. */
  status?: number;
  /** X-Request-ID of the answer that failed, to quote to the service's support. */
  requestId?: string;
  /** Rows the call had fetched when it failed (kept on `error.partial`). */
  partialRows?: number;
}

/** A free read of a dataset's status (the session's cached one, or the service's now). */
export type StatusRead = (
  dataset: string,
) => Promise<{ last_updated: string; first_available_date: string | null; last_available_date: string | null }>;

/**
 * The status a record keeps of `dataset`: the three fields of `read`'s answer, or the error
 * that read met (a record is never lost to an unreadable status).
 *
 * @example
 * ```ts
 * await statusAtCall((id) => wb.meta.availability(id), "eq-taq-1min"); // { last_updated, first_available_date, last_available_date }
 * ```
 */
export function statusAtCall(read: StatusRead, dataset: string): Promise<StatusAtCall> {
  return read(dataset).then(
    (s): StatusAtCall => ({
      last_updated: s.last_updated,
      first_available_date: s.first_available_date,
      last_available_date: s.last_available_date,
    }),
    (e): StatusAtCall => ({ error: (e as Error).message }),
  );
}

/** One data call (`wb.data.get` and its shorthands): one that returned a frame, or one that failed. */
export interface CallRecord {
  /** Order in which the call started in its session, from 1. */
  seq: number;
  /** The dataset's id, e.g. `eq-taq-1min`. */
  dataset: string;
  /** The call's arguments as JSON (dates as ISO text, callbacks left out). */
  pathValues: unknown;
  /** The call's query (filters, sort, fields, start/end...) as JSON. */
  query: unknown;
  /** The wire requests the call made, one per ticker or ticker-day. */
  requests: RequestRecord[];
  /** The dataset's status when the call was made. */
  status: StatusAtCall;
  /** X-Request-ID of every answer, in arrival order (none when the frame came from the cache). */
  requestIds: string[];
  /** Pages fetched across all requests. */
  pages: number;
  /** Rows of the returned frame. */
  rows: number;
  /** Bytes of the answers' bodies as received (compressed when gzip). */
  bytes: number;
  /**
   * `frameHash` of the returned frame (`rows:` scheme, see `ProvenanceManifest.hash`): equal
   * across wire formats, page sizes and concurrency. Absent when the call failed.
   */
  frameHash?: string;
  /**
   * The frame's canonical hash (`frameHash(df, { scheme: "canonical" })`: a documented encoding of
   * every value, the same under any nodejs-polars version and reproducible in Python), when the
   * workbench was connected with `provenance: { hash: "canonical" }`.
   */
  canonicalHash?: string;
  /** Set when the call threw instead of returning a frame (`rows` is then 0). */
  error?: CallFailure;
  /** True when the frame came from the on-disk cache (no request was sent). */
  cached?: boolean;
  /** The `seq` of the failed call whose `error.resume()` this is (its frame holds the rows of both). */
  resumes?: number;
  /** Digests of consecutive row blocks, to tell where a re-run's frame first differs. */
  rowBlocks?: RowBlocks;
  /** Columns of the returned frame. */
  columns: number;
  /** When the call started (ISO date-time). */
  startedAt: string;
  /** How long the call took, in seconds. */
  seconds: number;
}

/** One partition of a download: its path in the folder, rows and the `frameHash` of its rows. */
export interface PartitionRecord {
  /** e.g. `Ticker=AAPL/TradeDate=2023-11-21` (`""` for an undated dataset's single file). */
  path: string;
  /** Rows of the partition. */
  rows: number;
  /** Absent for an empty partition, or when a reused partition's file could not be read (`error`). */
  frameHash?: string;
  /** The partition's canonical hash, when recorded (`provenance: { hash: "canonical" }`). */
  canonicalHash?: string;
  /** Why a reused partition could not be hashed (its file is missing or unreadable). */
  error?: string;
}

/** One `wb.download` run: what it fetched and what the folder already held. */
export interface DownloadRecord {
  /** Order among the session's calls and downloads, from 1. */
  seq: number;
  /** The dataset's id, e.g. `eq-taq-1min`. */
  dataset: string;
  /** The download's query as JSON (tickers, start, end, filters...). */
  query: unknown;
  /** The folder the partitions were written to. */
  dir: string;
  /** The dataset's status when the download started. */
  status: StatusAtCall;
  /** Partitions the folder held before this run (reused, not fetched again). */
  reused: number;
  /** Partitions this run fetched, each with its rows and the `frameHash` of its rows. */
  fetched: PartitionRecord[];
  /**
   * Partitions of this run's range the folder already held, each hashed from its file read
   * back (partition columns restored: the same hash as the fetch that wrote it), so a re-run
   * into the same folder can be compared. Absent in manifests written before they were hashed.
   */
  reusedPartitions?: PartitionRecord[];
  /** Rows fetched by this run (reused partitions not counted). */
  rows: number;
  /** X-Request-ID of every answer, in arrival order. */
  requestIds: string[];
  /** Bytes of the answers' bodies as received (compressed when gzip). */
  bytes: number;
  /** When the download started (ISO date-time). */
  startedAt: string;
  /** How long the download took, in seconds. */
  seconds: number;
  /** Set when the download failed (partitions written before it stay in the folder and here). */
  error?: CallFailure;
}

/** How the manifest's frame hashes were made (a `rows:` hash is comparable only under the same). */
export interface HashSchemeRecord {
  /** The hash scheme, e.g. `rows/1`. */
  scheme: string;
  /** The nodejs-polars version that computed the row hashes. */
  nodejsPolars: string;
  /** `canonical/1` when each record also holds its `canonicalHash` (comparable under any version). */
  canonical?: string;
}

/** What `wb.provenance()` returns. */
export interface ProvenanceManifest {
  /** The manifest layout's version (`MANIFEST_VERSION` when written). */
  version: number;
  /** When the manifest was made (ISO date-time). */
  createdAt: string;
  /** The service the calls went to; the base URL without credentials, never the key. */
  service: { baseUrl: string };
  /** How the frame hashes were made. */
  hash?: HashSchemeRecord;
  /** The session's data calls, in the order they started. */
  calls: CallRecord[];
  /** The session's `wb.download` runs. */
  downloads?: DownloadRecord[];
  /** Whether the workbench recorded its calls (`connect({ provenance: true })`); false: no calls. */
  recording?: boolean;
}

/** What the notebook runner writes: the calls of every workbench of the kernel, and the run. */
export interface RunManifest {
  /** The manifest layout's version (`MANIFEST_VERSION` when written). */
  version: number;
  /** The notebook's path, as given to the runner. */
  notebook: string;
  /** SHA-256 (hex) of the notebook file as run, before parameters were injected. */
  notebookSha256: string;
  /** The `--param` values given (a re-run with `--verify` uses the same). */
  parameters: Record<string, string>;
  /** When the run started (ISO date-time). */
  ranAt: string;
  /** How long the run took, in seconds. */
  seconds: number;
  /** The workbench's git commit, and whether its tree had uncommitted changes. */
  workbench: { commit?: string; dirty?: boolean };
  /** Versions of the runtimes the run used. */
  versions: { deno?: string; nodejsPolars?: string; node?: string };
  /** The base URLs of the services the notebook's workbenches called. */
  services: string[];
  /** How the frame hashes were made. */
  hash?: HashSchemeRecord;
  /** Every workbench's data calls, each naming its service. */
  calls: (CallRecord & { service: string })[];
  /** Every workbench's downloads, each naming its service. */
  downloads?: (DownloadRecord & { service: string })[];
  /** `failed` when a cell raised: the run stopped there (`failedCell`), and the calls are those made before. */
  outcome?: "completed" | "failed";
  /** The cell that raised (1-based, as the report numbers cells) and its error. */
  failedCell?: { index: number; error: string };
}

/**
 * A base URL as it may be written down: user name and password (credentials some proxies put
 * in URLs) are removed.
 *
 * @example
 * ```ts
 * publicBaseUrl("https://me:secret@data.example.com/"); // "https://data.example.com/"
 * ```
 */
export function publicBaseUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    url.username = "";
    url.password = "";
    return url.toString();
  } catch {
    return baseUrl.replace(/\/\/[^@/]*@/, "//");
  }
}
