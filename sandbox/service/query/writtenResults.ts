/**
 * Whole results of small queries as written bytes (CSV with its header line, or JSON records
 * one a line) with the offset of every line, kept so that any page of the query is cut from
 * them without the engine: a client walking a ticker-day 100 rows at a time pays for filtering
 * and writing the day once, and each later page is one or two copies of bytes (cut this way,
 * a page is byte for byte what writing it alone gives).
 *
 * The bytes live in SharedArrayBuffers and are shared with the other workers of the sandbox
 * (server.ts relays them): the connections of one client are spread over the workers by the
 * kernel, so the next page of a walk often lands on another worker, which then finds the
 * result written instead of filtering and writing it again. Each worker keeps its entries
 * least recently used out first within its budget; a buffer is freed once no worker holds it.
 * Like the decoded-file cache, this changes no answer, only how fast it comes.
 */
import { FRAME_CACHE_BYTES } from "./frameCache.ts";

/** A whole result as written: `starts[i]` is where line i begins, the last entry the end of the bytes. */
export interface WrittenResult {
  bytes: Uint8Array;
  starts: Uint32Array;
  /** 1 when line 0 is a header (CSV), 0 otherwise (JSON lines). */
  header: 0 | 1;
}

/** What a worker sends the others when it has written a result. */
export type WrittenMessage = WrittenResult & { type: "written"; key: string };

const NEWLINE = 10;
const BUDGET = FRAME_CACHE_BYTES / 8;
const entries = new Map<string, WrittenResult>();
let held = 0;
let publish: ((message: WrittenMessage) => void) | undefined;

const sizeOf = (w: WrittenResult) => w.bytes.byteLength + w.starts.byteLength;

/** Rows of a written result (its lines but the header). */
export const rowCount = (w: WrittenResult): number => w.starts.length - 1 - w.header;

function keep(key: string, written: WrittenResult): void {
  if (BUDGET === 0) return;
  const old = entries.get(key);
  if (old) held -= sizeOf(old);
  entries.delete(key);
  entries.set(key, written);
  held += sizeOf(written);
  for (const [k, e] of entries) {
    if (held <= BUDGET || k === key) break;
    entries.delete(k);
    held -= sizeOf(e);
  }
}

/** Copies written bytes into shared memory and finds where each line starts. */
function indexLines(text: Uint8Array, header: 0 | 1): WrittenResult {
  const bytes = new Uint8Array(new SharedArrayBuffer(text.byteLength));
  bytes.set(text);
  const found: number[] = [0];
  for (let end = bytes.indexOf(NEWLINE); end >= 0 && end + 1 < bytes.length; end = bytes.indexOf(NEWLINE, end + 1)) found.push(end + 1);
  if (bytes.length > 0) found.push(bytes.length);
  const starts = new Uint32Array(new SharedArrayBuffer(found.length * 4));
  starts.set(found);
  return { bytes, starts, header };
}

/** The written result under `key`, or undefined when this worker holds none. */
export function writtenResult(key: string): WrittenResult | undefined {
  const hit = entries.get(key);
  if (hit) {
    entries.delete(key);
    entries.set(key, hit);
  }
  return hit;
}

/**
 * The result under `key`, written by `write` (CSV with a header when `header` is 1, JSON
 * lines when 0) on first use, kept, and offered to the other workers.
 *
 * @example
 * ```ts
 * const csv = writeResult(`${key}\u0000csv`, () => whole.writeCSV(), 1);
 * const page = csvPage(csv, 200, 100);
 * ```
 */
export function writeResult(key: string, write: () => Uint8Array, header: 0 | 1): WrittenResult {
  const hit = writtenResult(key);
  if (hit) return hit;
  const written = indexLines(write(), header);
  keep(key, written);
  publish?.({ ...written, type: "written", key });
  return written;
}

/** Keeps a result another worker wrote (its message, relayed by server.ts). */
export function adoptWrittenResult(message: WrittenMessage): void {
  if (!entries.has(message.key)) keep(message.key, { bytes: message.bytes, starts: message.starts, header: message.header });
}

/** Sends every result this worker writes to `post` (the worker's channel to the others). */
export function shareWrittenResults(post: (message: WrittenMessage) => void): void {
  publish = post;
}

/**
 * The rows of `from` to `from + count - 1` that the result has (none for a page past its end)
 * and their bytes, one contiguous range. Clamped here rather than trusted to callers: an index
 * past `starts` reads undefined, and `subarray(undefined, undefined)` is the whole result.
 */
function rowRange(w: WrittenResult, from: number, count: number): { from: number; count: number; bytes: Uint8Array } {
  const total = Math.max(0, rowCount(w));
  const first = Math.min(Math.max(0, from), total);
  const rows = Math.min(Math.max(0, count), total - first);
  return { from: first, count: rows, bytes: w.bytes.subarray(w.starts[w.header + first] ?? 0, w.starts[w.header + first + rows] ?? 0) };
}

/** Rows `from` to `from + count - 1` of a written CSV result, after its header line (the header alone past the end). */
export function csvPage(w: WrittenResult, from: number, count: number): Uint8Array {
  const header = w.bytes.subarray(0, w.starts[1] ?? 0);
  const rows = rowRange(w, from, count).bytes;
  const page = new Uint8Array(header.length + rows.length);
  page.set(header);
  page.set(rows, header.length);
  return page;
}

/** Rows `from` to `from + count - 1` of a written JSON-lines result as a JSON array (`[]` past the end), between `before` and `after`. */
export function jsonPage(w: WrittenResult, from: number, count: number, before: Uint8Array, after: Uint8Array): Uint8Array {
  const range = rowRange(w, from, count);
  const rows = range.bytes;
  // Each line but the last loses its newline to a comma; brackets go around them.
  const lastEnd = rows.length > 0 && rows[rows.length - 1] === NEWLINE ? rows.length - 1 : rows.length;
  const page = new Uint8Array(before.length + 2 + lastEnd + after.length);
  page.set(before);
  let at = before.length;
  page[at++] = 0x5b; // [
  page.set(rows.subarray(0, lastEnd), at);
  const start = w.starts[w.header + range.from];
  for (let i = 1; i < range.count; i++) page[at + w.starts[w.header + range.from + i] - start - 1] = 0x2c; // ,
  at += lastEnd;
  page[at++] = 0x5d; // ]
  page.set(after, at);
  return page;
}
