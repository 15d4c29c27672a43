/**
 * Fetches every page of a query into one frame. The first page is asked alone; once its
 * answer shows more (in its headers, else in its body), the following pages are fetched
 * concurrently (never more at once than the per-minute quota has left), and the frame keeps
 * the row order a sequential walk would give. A 504
 * halves the page size for that page and the rest, once per wave of concurrent pages that
 * time out together; each page answered without one doubles it back towards the one
 * asked for, so scattered 504s (an overloaded moment rather than a query too heavy) cost a
 * few extra requests and never leave a long fetch crawling one row at a time. `maxRows` stops
 * early. A failure keeps the contiguous rows fetched so far on the error (`partial`); the
 * pipeline resumes from there (`fetchAll(partial.height, [partial])`).
 *
 * The pager sends through a `Send` function the send chain gives it (sendChain.ts: the rate
 * window, the quota gate, the transport and the event stream sit there), and derives each
 * page's URL parameters only then. It retries nothing itself: the transport's retry policy
 * owns every retry, a one-row page's 504 included.
 */
import pl from "nodejs-polars";
import { WorkbenchError } from "../errors/base.ts";
import { GatewayTimeoutError } from "../errors/http.ts";
import { emptyFrame, jsonNextOffset, pageToFrame, stackFrames } from "../frames/frames.ts";
import { checkedNextOffset, headerNextOffset } from "../http/contractCheck.ts";
import type { RawResponse } from "../http/transport.ts";
import type { PageWire } from "../http/wireChoice.ts";
import { type PreparedRequest, requestParams } from "../query/prepare.ts";

/** Sends one GET and returns the raw answer; `onHeaders` hears a successful answer's headers before its body. */
export type Send = (path: string, params: URLSearchParams, onHeaders?: (headers: Headers) => void) => Promise<RawResponse>;

/** What a pager tells. */
export interface PagerOptions {
  /** Hears each page once parsed, with the bytes of its body. */
  onPage?: (offset: number, frame: pl.DataFrame, bytes: number) => void;
  /** The wire format chosen for each page when the call names none (http/wireChoice.ts); hears each page's parse time. */
  wire?: PageWire;
}

/** One page of a unit: where it starts and its rows. */
export interface Page {
  /** The offset of its first row in the unit. */
  offset: number;
  /** Its rows, parsed. */
  frame: pl.DataFrame;
  /** The frame's height, read once (each read of a frame's property crosses into Polars). */
  rows: number;
  /** Offset of the next page, or null when this page ended the data. */
  next: number | null;
}

/** Pages answered after which a halved page size doubles again (one: scattered 504s cost one extra request each). */
const GROW_AFTER = 1;

/**
 * Every page of one prepared request.
 *
 * @example
 * ```ts
 * const frame = await new Pager(send, request, {}).fetchAll();
 * ```
 */
export class Pager {
  /** Current page size (halved after a 504). */
  #size: number;
  /** Pages answered since the last 504 or the last growth. */
  #calm = 0;
  /** Bumped at each change of `size`: a 504 halves the size only if no change came since its page was asked. */
  #generation = 0;
  readonly #params: URLSearchParams;

  /** A pager of `request` over `send`. */
  constructor(private readonly send: Send, private readonly request: PreparedRequest, private readonly options: PagerOptions = {}) {
    this.#size = request.pageSize;
    this.#params = requestParams(request);
  }

  /**
   * One page at `offset`. After a 504 only the
   * first half of the page is asked again, so the page may come back short (the caller asks
   * for the rest, as after a capped page), and later pages shrink (a one-row page's 504 is
   * retried by the transport's retry policy: it comes here only once retries ran out). `onNext` hears the next page's
   * offset from the answer's headers (when the service sends X-Pagination-Next-Offset), before
   * the body is read and parsed; a page split after a 504 does not call it.
   */
  async #page(offset: number, size: number, onNext?: (next: number | null) => void): Promise<Page> {
    const generation = this.#generation;
    const params = new URLSearchParams(this.#params);
    params.set("offset", String(offset));
    params.set("limit", String(size));
    const format = this.options.wire?.format() ?? this.request.format;
    params.set("response_format", format);
    try {
      const r = await this.send(this.request.path, params, (headers) => {
        const next = headerNextOffset(headers);
        if (next !== undefined) onNext?.(next);
      });
      const endpoint = `GET ${this.request.path}`;
      const parsing = performance.now();
      const frame = pageToFrame(r.body, r.decoded ? "csv" : format, this.request.columns, undefined, endpoint);
      this.options.wire?.busy(parsing, performance.now());
      const fromHeader = checkedNextOffset(r.headers, endpoint, r.url);
      const fromBody = format === "json" ? jsonNextOffset(r.body) : undefined;
      // null means "no next page", so a known answer is told from an absent one by undefined.
      const rows = frame.height;
      const next = fromBody !== undefined ? fromBody : fromHeader !== undefined ? fromHeader : rows === size ? offset + size : null;
      this.options.onPage?.(offset, frame, r.wireBytes ?? r.body.byteLength);
      if (++this.#calm >= GROW_AFTER && this.#size < this.request.pageSize) {
        this.#size = Math.min(this.request.pageSize, this.#size * 2);
        this.#calm = 0;
        this.#generation++;
      }
      return { offset, frame, rows, next };
    } catch (error) {
      if (!(error instanceof GatewayTimeoutError)) throw error;
      this.#calm = 0;
      if (size <= 1) throw error;
      // Halve the shared size once per wave: concurrent pages asked at the same size that all
      // time out halve it once, not once each (which collapsed it to one row under scattered 504s).
      if (generation === this.#generation) {
        this.#size = Math.max(1, Math.floor(this.#size / 2));
        this.#generation++;
      }
      // Ask again for the first half of the page that timed out only; the caller asks for the
      // rest at the size current by then (a short page is completed like a capped one).
      return this.#page(offset, Math.min(Math.floor(size / 2), this.#size));
    }
  }

  /**
   * Every row of the request from `start` on, appended to `prefix` (rows already fetched).
   * The following pages start as soon as the first answer's headers say more rows follow, so
   * they overlap the first page's transfer and parsing. A page that comes back shorter than
   * asked without ending the data (a service capping `limit`) has the rest of its range asked
   * again, so no row is skipped.
   */
  async fetchAll(start = 0, prefix: pl.DataFrame[] = []): Promise<pl.DataFrame> {
    const { maxRows, concurrency } = this.request;
    const had = prefix.reduce((n, f) => n + f.height, 0);
    if (had >= maxRows) {
      return prefix.length ? stackFrames(prefix).head(maxRows) : emptyFrame(this.request.columns);
    }
    const stop = start + (maxRows - had); // offset past the last row wanted (Infinity without maxRows)
    const pages = new Map<number, Page>();
    const retake: { offset: number; size: number }[] = []; // the unanswered rest of short pages
    let end = Number.POSITIVE_INFINITY; // offset past the last row of the data, once known
    let lastAsked = false; // the first answer's headers said it ends the data
    let failure: unknown;
    const inflight = new Set<Promise<void>>();
    const launch = (offset: number, size: number, onNext?: (next: number | null) => void) => {
      const task = this.#page(offset, size, onNext).then(
        (p) => {
          pages.set(p.offset, p);
          const reached = p.offset + p.rows;
          // An empty page ends the data even if it names a next offset: asking again would loop.
          if (p.next === null || p.rows === 0) end = Math.min(end, reached);
          else if (reached < p.offset + size) retake.push({ offset: reached, size: p.offset + size - reached });
        },
        (e) => void (failure ??= e),
      ).finally(() => inflight.delete(task));
      inflight.add(task);
      return task;
    };

    let announce!: (next: number | null) => void;
    const announced = new Promise<number | null>((resolve) => (announce = resolve));
    const firstSize = Math.min(this.#size, stop - start);
    const first = launch(start, firstSize, announce);
    const firstNext = await Promise.race([announced, first.then(() => (pages.has(start) ? pages.get(start)!.next : null))]);
    if (firstNext === null) lastAsked = true;
    let nextOffset = start + firstSize;
    const more = () =>
      failure === undefined && !lastAsked && (retake.some((r) => r.offset < end) || (nextOffset < end && nextOffset < stop));
    while (more() || inflight.size > 0) {
      while (more() && inflight.size < concurrency) {
        const again = retake.shift();
        if (again) {
          if (again.offset < end) launch(again.offset, again.size);
          continue;
        }
        const size = Math.min(this.#size, stop - nextOffset);
        launch(nextOffset, size);
        nextOffset += size;
      }
      if (inflight.size > 0) await Promise.race(inflight);
    }
    const ordered = contiguous(pages, start);
    // Pages stay separate chunks: copying them into one buffer would cost a tenth of a long fetch.
    let frame = ordered.length + prefix.length === 0
      ? emptyFrame(this.request.columns)
      : stackFrames([...prefix, ...ordered.map((p) => p.frame)]);
    if (frame.height > maxRows) frame = frame.head(maxRows);
    if (failure !== undefined) {
      // Every row from the request's first, in order: it resumes at frame.height.
      throw failure instanceof WorkbenchError
        ? failure.keeping({ partial: frame })
        : new WorkbenchError(String(failure), { partial: frame });
    }
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
    if (p.next === null || p.rows === 0) return out;
    offset = p.offset + p.rows;
  }
}
