/**
 * One `wb.download` run being recorded: the partitions it fetched (each with its rows and the
 * `frameHash` of its rows), how many the folder already held (reused; for those of the
 * run's range, their hashes from the files read back), the answers' request ids and bytes,
 * and the error when it failed (the partitions written before stay recorded).
 */
import type pl from "nodejs-polars";
import type { CallEvent } from "../events/callEvents.ts";
import { failureOf, jsonable } from "./callTap.ts";
import { defer, runDeferred } from "./deferred.ts";
import type { DownloadRecord, PartitionRecord, StatusAtCall } from "./manifest.ts";
import { frameHash } from "./frameHash.ts";
import { canonicalFrameHash } from "./canonicalHash.ts";
import { LazyRowHashes } from "./pageHashes.ts";
import { rowsDigester } from "./rowHashes.ts";
import { WireTally } from "./wireTally.ts";

const byPath = (a: PartitionRecord, b: PartitionRecord) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * The record of one download in the making; it hears the download's events.
 *
 * @example
 * ```ts
 * const tap = new DownloadTap(recorder, 2, { dataset: "eq-taq-1min", query: {}, dir: "lake/bars" }, status);
 * await tap.hear({ type: "ended", requests: [] });
 * ```
 */
export class DownloadTap {
  private readonly started = performance.now();
  private readonly startedAt = new Date().toISOString();
  private readonly wire = new WireTally();
  private readonly fetched: PartitionRecord[] = [];
  private readonly kept: PartitionRecord[] = [];
  private reused = 0;

  /** Records download number `seq` of `run` into `sink`; `status` is the dataset's status when it began. */
  constructor(
    private readonly sink: {
      addDownload(record: DownloadRecord): void;
      readonly redact: (text: string) => string;
      readonly canonical?: boolean;
    },
    private readonly seq: number,
    private readonly run: { dataset: string; query: unknown; dir: string; warnings?: string[] },
    private readonly status: Promise<StatusAtCall>,
  ) {}

  /** Hears one event of the download; the promise of `ended` and `failed` settles once its record is queued. */
  hear(event: CallEvent): void | Promise<void> {
    switch (event.type) {
      case "answer":
        return this.wire.answer(event.requestId, event.bytes);
      case "reusing":
        return this.reusing(event.partitions);
      case "reused-partition":
        return this.reusedPartition(event.path, event.rows, event.read);
      case "partitions":
        return this.unitPartitions(event.frame, event.parts, event.contiguous);
      case "ended":
        return this.end();
      case "failed":
        return this.end(event.error);
    }
  }

  /** How many partitions the folder held before this run. */
  private reusing(partitions: number): void {
    this.reused = partitions;
  }

  /**
   * A partition this run wrote, hashed on its own (with no rows: a fetched empty partition).
   * Its hash is taken in the download's next wait (deferred.ts), from a clone of the frame.
   */
  private partition(path: string, frame: pl.DataFrame | undefined): void {
    if (!frame) return void this.fetched.push({ path, rows: 0 });
    const entry: PartitionRecord = { path, rows: frame.height };
    const kept = frame.clone();
    this.fetched.push(entry);
    defer(() => {
      entry.frameHash = frameHash(kept);
      if (this.sink.canonical) entry.canonicalHash = canonicalFrameHash(kept);
    });
  }

  /**
   * The partitions one fetched unit (one request's frame) was cut into, in the unit's row
   * order (`frame` undefined: a fetched empty partition; `path` undefined: rows not written, not
   * recorded, only counted for the others' places). When they lie end to end in the unit
   * (`contiguous`: each partition one run of the unit's rows), the unit is hashed once and each
   * partition's hash is digested from its run of the row hashes: one `hashRows` a request
   * instead of one a partition (each call has a fixed overhead). Otherwise each partition is
   * hashed on its own. Either way in the download's next waits.
   */
  private unitPartitions(unit: pl.DataFrame, parts: readonly { path?: string; frame?: pl.DataFrame }[], contiguous: boolean): void {
    if (!contiguous) return parts.forEach((p) => p.path !== undefined && this.partition(p.path, p.frame));
    const hashes = new LazyRowHashes(unit);
    const runs: { entry: PartitionRecord; start: number }[] = [];
    let start = 0;
    for (const { path, frame } of parts) {
      const rows = frame?.height ?? 0;
      if (path !== undefined) {
        const entry: PartitionRecord = { path, rows };
        this.fetched.push(entry);
        if (rows > 0) runs.push({ entry, start });
      }
      start += rows;
    }
    defer(() => {
      const bytes = hashes.value();
      const digest = rowsDigester(unit);
      for (const { entry, start } of runs) {
        entry.frameHash = digest(entry.rows, [bytes.subarray(start * 8, (start + entry.rows) * 8)]);
        if (this.sink.canonical) entry.canonicalHash = canonicalFrameHash(unit.slice(start, entry.rows));
      }
    });
  }

  /**
   * A partition of the run's range the folder already held: `read` gives its rows as fetched
   * (undefined: recorded empty), read back and hashed in the download's next wait; a file
   * that cannot be read is recorded with why.
   */
  private reusedPartition(path: string, rows: number, read: () => pl.DataFrame | undefined): void {
    defer(() => {
      try {
        const frame = read();
        this.kept.push(
          frame
            ? {
              path,
              rows: frame.height,
              frameHash: frameHash(frame),
              ...(this.sink.canonical ? { canonicalHash: canonicalFrameHash(frame) } : {}),
            }
            : { path, rows: 0 },
        );
      } catch (error) {
        this.kept.push({ path, rows, error: (error as Error).message });
      }
    });
  }

  /** Records the run (once its partitions are hashed), failed with `error` when given. */
  private async end(error?: unknown): Promise<void> {
    const seconds = (performance.now() - this.started) / 1000;
    const status = await this.status;
    defer(() => this.record(status, seconds, error));
    // A download that succeeded is recorded before it returns (its partitions' hashes waiting
    // are a few at most: deferred.ts), so its result can say when the record was not written.
    if (error === undefined) runDeferred();
  }

  /** Queues the download's record, its error's message redacted. */
  private record(status: StatusAtCall, seconds: number, error?: unknown): void {
    const record: DownloadRecord = {
      seq: this.seq,
      dataset: this.run.dataset,
      query: jsonable(this.run.query),
      dir: this.run.dir,
      status,
      reused: this.reused,
      fetched: [...this.fetched].sort(byPath),
      reusedPartitions: [...this.kept].sort(byPath),
      rows: this.fetched.reduce((n, p) => n + p.rows, 0),
      requestIds: this.wire.requestIds,
      bytes: this.wire.bytes,
      startedAt: this.startedAt,
      seconds,
    };
    if (error !== undefined) record.error = failureOf(error, this.sink.redact);
    try {
      this.sink.addDownload(record);
    } catch (failure) {
      // Kept in wb.provenance(), lost from the run's journal (a full disk): the result says so.
      const said = `provenance: this download's record could not be written (${
        (failure as Error).message
      }); wb.provenance() holds it, the run's journal does not`;
      if (!this.run.warnings) throw failure; // told by the deferred task's warning
      this.run.warnings.push(said);
      console.warn(`Warning: ${said}`);
    }
  }
}
