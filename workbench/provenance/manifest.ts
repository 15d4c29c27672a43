/**
 * The provenance manifest's shape: what a session's data calls were, against which service,
 * on which state of each dataset, and a content hash of each frame they returned. Plain JSON
 * (no key, no frame): the notebook runner writes it as `<name>.provenance.json` and
 * `--verify` re-runs a notebook against it.
 */
import type { RowBlocks } from "./rowBlocks.ts";

/** Version of the manifest layout (bumped when a field changes meaning). */
export const MANIFEST_VERSION = 1;

/** The dataset's status when the call was made (from the free, session-cached status read). */
export interface StatusAtCall {
  last_updated?: string;
  first_available_date?: string | null;
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

/** One data call (`wb.data.get` and its shorthands) that returned a frame. */
export interface CallRecord {
  /** Order in which the call started in its session, from 1. */
  seq: number;
  dataset: string;
  /** The call's arguments as JSON (dates as ISO text, callbacks left out). */
  pathValues: unknown;
  query: unknown;
  requests: RequestRecord[];
  status: StatusAtCall;
  /** X-Request-ID of every answer, in arrival order (none when the frame came from the cache). */
  requestIds: string[];
  pages: number;
  rows: number;
  /** Bytes of the answers' bodies as received (compressed when gzip). */
  bytes: number;
  /** `frameHash` of the returned frame: equal across wire formats, page sizes and concurrency. */
  frameHash: string;
  /** Digests of consecutive row blocks, to tell where a re-run's frame first differs. */
  rowBlocks?: RowBlocks;
  columns: number;
  startedAt: string;
  seconds: number;
}

/** What `wb.provenance()` returns. */
export interface ProvenanceManifest {
  version: number;
  createdAt: string;
  service: { baseUrl: string };
  calls: CallRecord[];
  /** Whether the workbench recorded its calls (`connect({ provenance: true })`); false: no calls. */
  recording?: boolean;
}

/** What the notebook runner writes: the calls of every workbench of the kernel, and the run. */
export interface RunManifest {
  version: number;
  notebook: string;
  /** SHA-256 (hex) of the notebook file as run, before parameters were injected. */
  notebookSha256: string;
  /** The `--param` values given (a re-run with `--verify` uses the same). */
  parameters: Record<string, string>;
  ranAt: string;
  seconds: number;
  workbench: { commit?: string; dirty?: boolean };
  versions: { deno?: string; nodejsPolars?: string; node?: string };
  services: string[];
  calls: (CallRecord & { service: string })[];
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
