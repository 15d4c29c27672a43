/**
 * Fetches every page of a query into one frame. The first page comes alone; when it shows
 * more, the following pages are fetched concurrently (never more at once than the per-minute
 * quota has left), and the frame keeps the row order a sequential walk would give. A 504
 * halves the page size for that page and the rest; after a run of pages without one the size
 * doubles back towards the one asked for, so scattered 504s (an overloaded moment rather than
 * a query too heavy) do not leave a long fetch crawling one row at a time. `maxRows` stops
 * early. A failure keeps the contiguous rows fetched so far on the error (`partial`) with a
 * `resume()` that goes on.
 */
import pl from "nodejs-polars";
import { WorkbenchError } from "../errors/base.ts";
import { GatewayTimeoutError } from "../errors/http.ts";
import { emptyFrame, jsonNextOffset, pageToFrame } from "../frames.ts";
import type { Transport } from "../http/transport.ts";
import type { PreparedRequest } from "../query/prepare.ts";
import { type ProgressListener, ProgressTracker } from "./progress.ts";

export interface Page {
  offset: number;
  frame: pl.DataFrame;
  /** Offset of the next page, or null when this page ended the data. */
  next: number | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Pages in a row without a 504 after which a halved page size doubles again. */
const GROW_AFTER = 8;

export class Pager {
  /** Current page size (halved after a 504). */
  size: number;
  /** Requests the per-minute window still allows, from the last RateLimit-Remaining seen. */
  private remaining = Number.POSITIVE_INFINITY;
  private resetAt = 0;
  /** Pages answered since the last 504. */
  private calm = 0;

  constructor(private readonly transport: Transport, private readonly request: PreparedRequest) {
    this.size = request.pageSize;
  }

  /**
   * One page at `offset` (public so a download can stream page by page). A 504 splits it into
   * halves (recursively) and shrinks later pages; a one-row page that gets a 504 is retried
   * with backoff, as often as the transport retries a 503.
   */
  async page(offset: number, size: number, tracker: ProgressTracker, attempt = 0): Promise<Page> {
    const params = new URLSearchParams(this.request.params);
    params.set("offset", String(offset));
    params.set("limit", String(size));
    params.set("response_format", this.request.format);
    try {
      const r = await this.transport.get(this.request.path, params);
      const remaining = r.headers.get("RateLimit-Remaining");
      if (remaining !== null) {
        this.remaining = Number(remaining);
        this.resetAt = Date.now() + Number(r.headers.get("RateLimit-Reset") ?? "60") * 1000;
      }
      const frame = pageToFrame(r.body, this.request.format, this.request.columns);
      const header = r.headers.get("X-Pagination-Next-Offset");
      const fromBody = this.request.format === "json" ? jsonNextOffset(r.body) : undefined;
      const next = fromBody !== undefined ? fromBody : header !== null ? (header === "" ? null : Number(header)) : frame.height === size ? offset + size : null;
      tracker.page(frame.height, r.body.byteLength);
      if (++this.calm >= GROW_AFTER && this.size < this.request.pageSize) {
        this.size = Math.min(this.request.pageSize, this.size * 2);
        this.calm = 0;
      }
      return { offset, frame, next };
    } catch (error) {
      if (!(error instanceof GatewayTimeoutError)) throw error;
      this.calm = 0;
      if (size <= 1) {
        if (attempt >= (this.transport.options.retries ?? 8)) throw error;
        await sleep(Math.random() * Math.min(10_000, 300 * 2 ** attempt));
        return this.page(offset, size, tracker, attempt + 1);
      }
      const half = Math.floor(size / 2);
      this.size = Math.min(this.size, half);
      const first = await this.page(offset, half, tracker);
      if (first.next === null) return first;
      const second = await this.page(offset + half, size - half, tracker);
      return { offset, frame: pl.concat([first.frame, second.frame]), next: second.next };
    }
  }

  /** Waits while the per-minute window is used up, so concurrency never causes a 429 storm. */
  private async slot(): Promise<void> {
    while (this.remaining <= 0 && Date.now() < this.resetAt) await sleep(Math.min(1000, this.resetAt - Date.now()));
  }

  /**
   * Every row of the request from `start` on, appended to `prefix` (rows already fetched).
   *
   * @example
   * ```ts
   * const frame = await new Pager(transport, request).fetchAll();
   * ```
   */
  async fetchAll(onProgress?: ProgressListener, start = 0, prefix: pl.DataFrame[] = []): Promise<pl.DataFrame> {
    const { maxRows, concurrency } = this.request;
    const tracker = new ProgressTracker(this.request.dataset, onProgress, Number.isFinite(maxRows) ? maxRows : undefined);
    const pages = new Map<number, Page>();
    let rows = prefix.reduce((n, f) => n + f.height, 0);
    if (rows >= maxRows) {
      tracker.finish();
      return prefix.length ? pl.concat(prefix).head(maxRows) : emptyFrame(this.request.columns);
    }
    let end: number | null = null; // offset past the last row, once known
    let failure: unknown;
    const want = () => end === null && failure === undefined && rows < maxRows;
    try {
      const first = await this.page(start, Math.min(this.size, Math.max(1, maxRows - rows)), tracker);
      pages.set(first.offset, first);
      rows += first.frame.height;
      if (first.next === null) end = first.offset + first.frame.height;
      let nextOffset = first.next ?? 0;
      const inflight = new Set<Promise<void>>();
      while (want() || inflight.size > 0) {
        while (want() && inflight.size < concurrency && (await this.slot(), want())) {
          const offset = nextOffset;
          const size = this.size;
          nextOffset += size;
          const task = this.page(offset, size, tracker).then(
            (p) => {
              pages.set(p.offset, p);
              rows += p.frame.height;
              if (p.next === null) end = Math.min(end ?? Number.POSITIVE_INFINITY, p.offset + p.frame.height);
              else if (p.next !== p.offset + size) nextOffset = Math.max(nextOffset, p.next);
            },
            (e) => void (failure ??= e),
          ).finally(() => inflight.delete(task));
          inflight.add(task);
        }
        if (inflight.size > 0) await Promise.race(inflight);
      }
    } catch (e) {
      failure ??= e;
    }
    const ordered = contiguous(pages, start);
    let frame = ordered.length + prefix.length === 0 ? emptyFrame(this.request.columns) : pl.concat([...prefix, ...ordered.map((p) => p.frame)]);
    if (frame.height > maxRows) frame = frame.head(maxRows);
    if (failure !== undefined) {
      const error = failure instanceof WorkbenchError ? failure : new WorkbenchError(String(failure));
      const resumeAt = ordered.length ? ordered.at(-1)!.offset + ordered.at(-1)!.frame.height : start;
      error.partial = frame;
      error.resume = () => this.fetchAll(onProgress, resumeAt, frame.height ? [frame] : []);
      throw error;
    }
    tracker.finish();
    return frame;
  }
}

/** Pages in offset order, up to the first gap (a page lost to an error) or the end. */
function contiguous(pages: Map<number, Page>, start: number): Page[] {
  const out: Page[] = [];
  let offset = start;
  for (;;) {
    const p = pages.get(offset);
    if (!p) return out;
    out.push(p);
    if (p.next === null || p.frame.height === 0) return out;
    offset = p.offset + p.frame.height;
  }
}
