/**
 * One `wb.download` run being recorded: the partitions it fetched (each with its rows and the
 * `frameHash` of its rows), how many the folder already held (reused), the answers' request
 * ids and bytes, and the error when it failed (the partitions written before stay recorded).
 */
import type pl from "nodejs-polars";
import type { Transport } from "../http/transport.ts";
import { failureOf, jsonable } from "./callTap.ts";
import type { DownloadRecord, StatusAtCall } from "./manifest.ts";
import { defer } from "./deferred.ts";
import { frameHash } from "./frameHash.ts";
import { WireTally } from "./wireTally.ts";

export class DownloadTap {
  private readonly started = performance.now();
  private readonly startedAt = new Date().toISOString();
  private readonly wire = new WireTally();
  private readonly fetched: DownloadRecord["fetched"] = [];
  private reused = 0;

  constructor(
    private readonly sink: { addDownload(record: DownloadRecord): void; readonly secrets: readonly string[] },
    private readonly seq: number,
    private readonly run: { dataset: string; query: unknown; dir: string },
    private readonly status: Promise<StatusAtCall>,
  ) {}

  /** The transport the download's pages go through, counted here. */
  wrap(transport: Transport): Transport {
    return this.wire.wrap(transport);
  }

  /** How many partitions the folder held before this run. */
  reusing(partitions: number): void {
    this.reused = partitions;
  }

  /**
   * A partition this run wrote (with no rows: a fetched empty partition). Its hash is taken in
   * the download's next wait (deferred.ts), from a clone of the frame.
   */
  partition(path: string, frame: pl.DataFrame | undefined): void {
    if (!frame) return void this.fetched.push({ path, rows: 0 });
    const entry: DownloadRecord["fetched"][number] = { path, rows: frame.height };
    const kept = frame.clone();
    this.fetched.push(entry);
    defer(() => void (entry.frameHash = frameHash(kept)));
  }

  /** Records the run (once its partitions are hashed), failed with `error` when given. */
  async end(error?: unknown): Promise<void> {
    const seconds = (performance.now() - this.started) / 1000;
    const status = await this.status;
    defer(() => this.record(status, seconds, error));
  }

  private record(status: StatusAtCall, seconds: number, error?: unknown): void {
    const record: DownloadRecord = {
      seq: this.seq,
      dataset: this.run.dataset,
      query: jsonable(this.run.query),
      dir: this.run.dir,
      status,
      reused: this.reused,
      fetched: [...this.fetched].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
      rows: this.fetched.reduce((n, p) => n + p.rows, 0),
      requestIds: this.wire.requestIds,
      bytes: this.wire.bytes,
      startedAt: this.startedAt,
      seconds,
    };
    if (error !== undefined) record.error = failureOf(error, this.sink.secrets);
    this.sink.addDownload(record);
  }
}
