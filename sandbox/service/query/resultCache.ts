/**
 * Whole results of small queries over decoded files, kept so the next page of the same query
 * is a slice: a client walking a ticker-day 100 rows at a time pays for filtering and
 * formatting the day once, not once per page. Most pages do not even need this frame: the
 * result written as lines (writtenResults.ts) answers them; the frame serves a page in the
 * other format. Only queries answered from decoded files (frameCache.ts) with small pages use
 * it; the budget is an eighth of the decoded-file cache's. Like that cache, it changes no answer.
 */
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
