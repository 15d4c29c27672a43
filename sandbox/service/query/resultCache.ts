/**
 * Whole results of small queries over decoded files, kept so the next page of the same query
 * is a slice: a client walking a ticker-day 100 rows at a time pays for filtering and
 * formatting the day once, not once per page (that was most of a small page's cost), and the
 * rows it writes are kept as lines too (CSV lines, JSON records), so a page is written by
 * joining its rows' lines, byte for byte what writing it alone gives. Only
 * queries answered from decoded files (frameCache.ts) with small pages use it; the budget is
 * an eighth of the decoded-file cache's. Like that cache, it changes no answer.
 */
import { Buffer } from "node:buffer";
import type pl from "nodejs-polars";
import { FRAME_CACHE_BYTES, FrameLru } from "./frameCache.ts";

/** Pages up to this many rows are cut from a cached whole result. */
export const RESULT_CACHE_MAX_LIMIT = 1000;

const results = new FrameLru(FRAME_CACHE_BYTES / 8);

/**
 * The whole result of the query named `key`, collected by `collect` on first use.
 *
 * @example
 * ```ts
 * const whole = await cachedResult(key, () => plan.collect());
 * const page = whole.slice(offset, limit + 1);
 * ```
 */
export function cachedResult(key: string, collect: () => Promise<pl.DataFrame>): Promise<pl.DataFrame> {
  return results.get(key, collect);
}

/** Where a page lies in a cached whole result. */
export interface ResultSlice {
  key: string;
  whole: pl.DataFrame;
  /** Row of `whole` where the page starts. */
  from: number;
}

const LINES_BUDGET = FRAME_CACHE_BYTES / 8;
const lineEntries = new Map<string, { lines: Buffer[]; bytes: number }>();
let lineBytes = 0;

/** Splits written rows at each newline (keeping it when `keepNewline`), without copying. */
function splitLines(text: Buffer, keepNewline: boolean): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = text.indexOf(10); end >= 0; end = text.indexOf(10, start)) {
    lines.push(text.subarray(start, keepNewline ? end + 1 : end));
    start = end + 1;
  }
  if (start < text.length) lines.push(text.subarray(start));
  return lines;
}

/**
 * The lines a whole result is written as (`write` gives the bytes: CSV with its header line, or
 * one JSON record a line), kept least recently used out first within a budget.
 *
 * @example
 * ```ts
 * const rows = cachedLines(`${slice.key}\u0000json`, () => whole.writeJSON({ format: "lines" }), false);
 * ```
 */
export function cachedLines(key: string, write: () => Uint8Array, keepNewline: boolean): Buffer[] {
  const hit = lineEntries.get(key);
  if (hit) {
    lineEntries.delete(key);
    lineEntries.set(key, hit);
    return hit.lines;
  }
  const text = Buffer.from(write());
  const entry = { lines: splitLines(text, keepNewline), bytes: text.byteLength };
  lineEntries.set(key, entry);
  lineBytes += entry.bytes;
  for (const [k, e] of lineEntries) {
    if (lineBytes <= LINES_BUDGET || k === key) break;
    lineEntries.delete(k);
    lineBytes -= e.bytes;
  }
  return entry.lines;
}
