/**
 * One data call being recorded. The recorder opens it when the call starts (so calls keep
 * their starting order however concurrently they finish); it hears the call's events: every
 * answer (request id, body bytes: no copy, no parse), every parsed page (its row hashes, taken
 * in the waits for later pages), each unit done; on `ended` it digests the returned frame's row
 * hashes once the call has returned it, on `failed` it records the error instead.
 */
import type pl from "nodejs-polars";
import type { CallEvent } from "../events/callEvents.ts";
import { type PreparedRequest, requestParams } from "../query/prepare.ts";
import type { CallFailure, CallRecord, RequestRecord, StatusAtCall } from "./manifest.ts";
import { defer } from "./deferred.ts";
import { PageHashes } from "./pageHashes.ts";
import { rowBlocksOf } from "./rowBlocks.ts";
import { rowsDigest } from "./rowHashes.ts";
import { canonicalFrameHash } from "./canonicalHash.ts";
import { addFrameWarnings } from "../frames/frameWarnings.ts";
import { WireTally } from "./wireTally.ts";

/** Pager-only parameters: the same data asked in another way must record the same request. */
const WIRE_ONLY = new Set(["offset", "limit", "response_format"]);

/** The call's arguments as JSON: dates as ISO text, big integers (`123n`) as decimal text, callbacks (onProgress) and an abort signal left out. */
export function jsonable(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(
      JSON.stringify(
        value,
        (_k, v) => (typeof v === "function" || v instanceof AbortSignal ? undefined : typeof v === "bigint" ? v.toString() : v),
      ),
    );
  } catch (error) {
    return `(not recordable as JSON: ${(error as Error).message})`; // e.g. a circular object: the call goes on
  }
}

/** A request as the manifest writes it: path and parameters without the pager's. */
export const requestRecord = (r: PreparedRequest): RequestRecord => ({
  path: r.path,
  params: [...requestParams(r)].filter(([k]) => !WIRE_ONLY.has(k)),
});

/**
 * An error as the manifest writes it: class, message, status, request id, partial rows; its
 * message passed through `redact` (the transport's: the key and a URL's password masked),
 * should it ever carry them.
 */
export function failureOf(error: unknown, redact: (text: string) => string): CallFailure {
  const e = error as Error & { status?: number; requestId?: string; partial?: pl.DataFrame };
  const failure: CallFailure = { name: e?.name ?? typeof error, message: redact(String(e?.message ?? error)) };
  if (e?.status !== undefined) failure.status = e.status;
  if (e?.requestId !== undefined) failure.requestId = e.requestId;
  if (e?.partial !== undefined) failure.partialRows = e.partial.height;
  return failure;
}

/** Where a finished or failed call's record goes. */
export interface CallSink {
  /** Keeps a call's record. */
  add(record: CallRecord): void;
  /** Masks the key and a URL's password in an error's message. */
  readonly redact: (text: string) => string;
  /** Whether records also hold the frame's canonical hash. */
  readonly canonical?: boolean;
}

/**
 * The record of one call in the making.
 *
 * @example
 * ```ts
 * const tap = new CallTap(recorder, 1, "eq-daily-ohlc", { pathValues: [], query: {} }, status);
 * await tap.hear({ type: "ended", requests, frame });
 * ```
 */
export class CallTap {
  private readonly started = performance.now();
  private readonly startedAt = new Date().toISOString();
  private readonly wire = new WireTally();
  private readonly hashes = new PageHashes();
  private units = 0;
  private cached = false;

  /** Records call number `seq` of `dataset` into `sink`; `status` is the dataset's status when the call began. */
  constructor(
    private readonly sink: CallSink,
    readonly seq: number,
    private readonly dataset: string,
    private readonly args: { pathValues: unknown; query: unknown },
    private readonly status: Promise<StatusAtCall>,
  ) {}

  /** Hears one event of the call; the promise of `ended` and `failed` settles once the record is kept. */
  hear(event: CallEvent): void | Promise<void> {
    switch (event.type) {
      case "prepared":
        this.units = Math.max(this.units, event.requests.length);
        return;
      case "answer":
        return this.wire.answer(event.requestId, event.bytes);
      case "page":
        return this.hashes.page(event.unit, event.offset, event.frame);
      case "unit-done":
        return this.unitDone(event.unit, event.frame, event.fromCache);
      case "ended":
        return event.frame ? this.finish(event.requests, event.frame).then(() => {}) : undefined;
      case "failed":
        return this.fail(event.requests, event.error);
    }
  }

  /** Unit `unit` is complete (`fromCache`: read from the on-disk cache, no request sent). */
  private unitDone(unit: number, frame: pl.DataFrame, fromCache = false): void {
    this.units = Math.max(this.units, unit + 1);
    this.cached ||= fromCache;
    this.hashes.unitDone(unit, frame);
  }

  /** What a record holds whatever the call's end: its arguments, requests, status and times. */
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
      const record: CallRecord = {
        ...base,
        rows: kept.height,
        columns: kept.width,
        frameHash: rowsDigest(kept, [rowHashes]),
        rowBlocks: rowBlocksOf(rowHashes, kept.height),
      };
      if (this.sink.canonical) record.canonicalHash = canonicalFrameHash(kept);
      if (this.cached) record.cached = true;
      if (this.resumes !== undefined) record.resumes = this.resumes;
      try {
        this.sink.add(record);
      } catch (error) {
        // Kept in wb.provenance(), lost from the run's journal (a full disk): the frame says so.
        addFrameWarnings(frame, [
          `provenance: this call's record could not be written (${
            (error as Error).message
          }); wb.provenance() holds it, the run's journal does not`,
        ]);
      }
    });
    return frame;
  }

  /**
   * Records the call as failed with `error` (class, message, partial rows; never the key). A
   * resumed call is recorded as a call of its own that `resumes` this one.
   */
  async fail(requests: readonly PreparedRequest[], error: unknown): Promise<void> {
    this.sink.add({ ...(await this.base(requests)), rows: 0, columns: 0, error: failureOf(error, this.sink.redact) });
  }

  /** The `seq` of the failed call this one resumes. */
  resumes?: number;
}
