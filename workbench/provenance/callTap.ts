/**
 * One data call being recorded. The data API opens it when the call starts (so calls keep
 * their starting order however concurrently they finish); it sees every answer through
 * `wrap(transport)` (request id, body bytes: no copy, no parse) and every parsed page through
 * `pageListener` (its row hashes, taken in the waits for later pages); `finish` digests the
 * returned frame's row hashes once the call has returned it, `fail` records the error instead.
 */
import type pl from "nodejs-polars";
import type { Transport } from "../http/transport.ts";
import type { PreparedRequest } from "../query/prepare.ts";
import type { CallFailure, CallRecord, RequestRecord, StatusAtCall } from "./manifest.ts";
import { defer } from "./deferred.ts";
import { PageHashes } from "./pageHashes.ts";
import { rowBlocksOf } from "./rowBlocks.ts";
import { rowsDigest } from "./rowHashes.ts";
import { WireTally } from "./wireTally.ts";

/** Pager-only parameters: the same data asked in another way must record the same request. */
const WIRE_ONLY = new Set(["offset", "limit", "response_format"]);

/** The call's arguments as JSON: dates as ISO text, big integers (`123n`) as decimal text, callbacks (onProgress) left out. */
export function jsonable(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "function" ? undefined : typeof v === "bigint" ? v.toString() : v)));
  } catch (error) {
    return `(not recordable as JSON: ${(error as Error).message})`; // e.g. a circular object: the call goes on
  }
}

/** A request as the manifest writes it: path and parameters without the pager's. */
export const requestRecord = (r: PreparedRequest): RequestRecord => ({ path: r.path, params: [...r.params].filter(([k]) => !WIRE_ONLY.has(k)) });

/**
 * An error as the manifest writes it: class, message, status, request id, partial rows; any
 * text equal to one of `secrets` (the key) is masked, should a message ever carry it.
 */
export function failureOf(error: unknown, secrets: readonly string[]): CallFailure {
  const e = error as Error & { status?: number; requestId?: string; partial?: pl.DataFrame };
  const mask = (text: string) => secrets.filter((s) => s.length > 0).reduce((t, s) => t.split(s).join("***"), text);
  const failure: CallFailure = { name: e?.name ?? typeof error, message: mask(String(e?.message ?? error)) };
  if (e?.status !== undefined) failure.status = e.status;
  if (e?.requestId !== undefined) failure.requestId = e.requestId;
  if (e?.partial !== undefined) failure.partialRows = e.partial.height;
  return failure;
}

/** What a fetch tells a recording about its transport, its pages and its units (calls and downloads). */
export interface FetchTap {
  wrap(transport: Transport): Transport;
  pageListener?(unit: number): (offset: number, frame: pl.DataFrame) => void;
  unitDone?(unit: number, frame: pl.DataFrame, fromCache: boolean): void;
}

/** Where a finished or failed call goes, and where a resumed one starts its own record. */
export interface CallSink {
  add(record: CallRecord): void;
  begin(dataset: string, pathValues: unknown, query: unknown): CallTap;
  readonly secrets: readonly string[];
}

export class CallTap implements FetchTap {
  private readonly started = performance.now();
  private readonly startedAt = new Date().toISOString();
  private readonly wire = new WireTally();
  private readonly hashes = new PageHashes();
  private units = 0;
  private cached = false;

  constructor(
    private readonly sink: CallSink,
    private readonly seq: number,
    private readonly dataset: string,
    private readonly args: { pathValues: unknown; query: unknown },
    private readonly status: Promise<StatusAtCall>,
  ) {}

  /** The transport the call's pages go through, seen by this tap (a thin wrapper, like the rate gate's). */
  wrap(transport: Transport): Transport {
    return this.wire.wrap(transport);
  }

  /** What unit `unit`'s pager calls with each parsed page. */
  pageListener(unit: number): (offset: number, frame: pl.DataFrame) => void {
    this.units = Math.max(this.units, unit + 1);
    return this.hashes.listener(unit);
  }

  /** Unit `unit` is complete (`fromCache`: read from the on-disk cache, no request sent). */
  unitDone(unit: number, frame: pl.DataFrame, fromCache = false): void {
    this.units = Math.max(this.units, unit + 1);
    this.cached ||= fromCache;
    this.hashes.unitDone(unit, frame);
  }

  private async base(requests: readonly PreparedRequest[]): Promise<Omit<CallRecord, "rows" | "columns">> {
    return {
      seq: this.seq,
      dataset: this.dataset,
      pathValues: jsonable(this.args.pathValues),
      query: jsonable(this.args.query),
      requests: requests.map(requestRecord),
      status: await this.status,
      requestIds: this.wire.requestIds,
      pages: this.wire.pages,
      bytes: this.wire.bytes,
      startedAt: this.startedAt,
      seconds: (performance.now() - this.started) / 1000,
    };
  }

  /**
   * Records the call with the frame it returns, and hands the frame back at once: the hashing
   * that completes the record is deferred to the next waits (deferred.ts), and done at the
   * latest when the manifest is read. It hashes a clone, so a change made to the returned
   * frame in place cannot reach the record.
   */
  async finish(requests: readonly PreparedRequest[], frame: pl.DataFrame): Promise<pl.DataFrame> {
    const base = await this.base(requests);
    const kept = frame.clone();
    defer(() => {
      const rowHashes = this.hashes.of(kept, this.units);
      const record: CallRecord = { ...base, rows: kept.height, columns: kept.width, frameHash: rowsDigest(kept, [rowHashes]), rowBlocks: rowBlocksOf(rowHashes, kept.height) };
      if (this.cached) record.cached = true;
      if (this.resumes !== undefined) record.resumes = this.resumes;
      this.sink.add(record);
    });
    return frame;
  }

  /**
   * Records the call as failed with `error` (class, message, partial rows; never the key). The
   * error's `resume()` then records the frame it returns as a call of its own that `resumes`
   * this one (a quota guard's resume runs the call again, which records itself).
   */
  async fail(requests: readonly PreparedRequest[], error: unknown): Promise<void> {
    this.sink.add({ ...(await this.base(requests)), rows: 0, columns: 0, error: failureOf(error, this.sink.secrets) });
    const e = error as { name?: string; resume?: () => Promise<pl.DataFrame> };
    const resume = e?.resume;
    if (typeof resume !== "function" || e.name === "QuotaGuardError") return;
    e.resume = async () => {
      const tap = this.sink.begin(this.dataset, this.args.pathValues, this.args.query);
      tap.resumes = this.seq;
      return tap.finish(requests, await resume());
    };
  }

  /** The `seq` of the failed call this one resumes. */
  resumes?: number;
}
