/**
 * Records a session's data calls for its provenance manifest. The data API opens a `CallTap`
 * when a call starts (so calls keep their starting order however concurrently they finish),
 * the tap sees every answer through `wrap(transport)` (request id, body bytes: no copy, no
 * parse), and `finish` hashes the returned frame. Each recorder also joins a registry on
 * `globalThis[Symbol.for("market-workbench.provenance")]`, so the notebook runner can collect
 * the calls of every workbench a kernel made.
 */
import type pl from "nodejs-polars";
import type { Transport } from "../http/transport.ts";
import type { PreparedRequest } from "../query/prepare.ts";
import { frameHash } from "./frameHash.ts";
import { rowBlocks } from "./rowBlocks.ts";
import { type CallRecord, MANIFEST_VERSION, type ProvenanceManifest, publicBaseUrl, type StatusAtCall } from "./manifest.ts";

/** Where every recorder of the process (the kernel) is listed, for the notebook runner. */
export const REGISTRY = Symbol.for("market-workbench.provenance");

/** What the registry holds: anything that can give its manifest. */
export interface ManifestSource {
  manifest(): ProvenanceManifest;
}

function registry(): ManifestSource[] {
  const g = globalThis as unknown as Record<symbol, ManifestSource[] | undefined>;
  return (g[REGISTRY] ??= []);
}

/** Pager-only parameters: the same data asked in another way must record the same request. */
const WIRE_ONLY = new Set(["offset", "limit", "response_format"]);

/** The call's arguments as JSON: dates as ISO text, callbacks (onProgress) left out. */
function jsonable(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "function" ? undefined : v)));
}

/** One call being recorded. */
export class CallTap {
  private readonly started = performance.now();
  private readonly startedAt = new Date().toISOString();
  private readonly requestIds: string[] = [];
  private pages = 0;
  private bytes = 0;

  constructor(
    private readonly recorder: ProvenanceRecorder,
    private readonly seq: number,
    private readonly dataset: string,
    private readonly args: { pathValues: unknown; query: unknown },
    private readonly status: Promise<StatusAtCall>,
  ) {}

  /** The transport the call's pages go through, seen by this tap (a thin wrapper, like the rate gate's). */
  wrap(transport: Transport): Transport {
    const tapped = Object.create(transport) as Transport;
    tapped.get = async (path, params, onHeaders) => {
      const r = await transport.get(path, params, onHeaders);
      this.pages++;
      this.bytes += r.body.byteLength;
      const id = r.headers.get("X-Request-ID");
      if (id) this.requestIds.push(id);
      return r;
    };
    return tapped;
  }

  /** Records the call with the frame it returns (hashed here), and hands the frame back. */
  async finish(requests: readonly PreparedRequest[], frame: pl.DataFrame): Promise<pl.DataFrame> {
    const record: CallRecord = {
      seq: this.seq,
      dataset: this.dataset,
      pathValues: jsonable(this.args.pathValues),
      query: jsonable(this.args.query),
      requests: requests.map((r) => ({ path: r.path, params: [...r.params].filter(([k]) => !WIRE_ONLY.has(k)) })),
      status: await this.status,
      requestIds: this.requestIds,
      pages: this.pages,
      rows: frame.height,
      bytes: this.bytes,
      frameHash: frameHash(frame),
      rowBlocks: rowBlocks(frame),
      columns: frame.width,
      startedAt: this.startedAt,
      seconds: (performance.now() - this.started) / 1000,
    };
    this.recorder.add(record);
    return frame;
  }
}

/** A workbench's record of its data calls. */
export class ProvenanceRecorder implements ManifestSource {
  private readonly calls: CallRecord[] = [];
  private readonly createdAt = new Date().toISOString();
  private seq = 0;

  /**
   * @param baseUrl the service's address (written without any user name or password)
   * @param statusOf the dataset's status as the workbench caches it (free; read once per dataset)
   */
  constructor(private readonly baseUrl: string, private readonly statusOf: (dataset: string) => Promise<{ last_updated: string; first_available_date: string | null; last_available_date: string | null }>) {
    registry().push(this);
  }

  /** Opens the record of a call as it starts; the status read runs alongside the fetch. */
  begin(dataset: string, pathValues: unknown, query: unknown): CallTap {
    const status = this.statusOf(dataset).then(
      (s): StatusAtCall => ({ last_updated: s.last_updated, first_available_date: s.first_available_date, last_available_date: s.last_available_date }),
      (e): StatusAtCall => ({ error: (e as Error).message }),
    );
    return new CallTap(this, ++this.seq, dataset, { pathValues, query }, status);
  }

  /** @internal */
  add(record: CallRecord): void {
    this.calls.push(record);
  }

  /** The manifest so far: calls in the order they started. */
  manifest(): ProvenanceManifest {
    return {
      version: MANIFEST_VERSION,
      createdAt: this.createdAt,
      service: { baseUrl: publicBaseUrl(this.baseUrl) },
      calls: [...this.calls].sort((a, b) => a.seq - b.seq),
    };
  }
}
