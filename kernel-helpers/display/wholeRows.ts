/**
 * Rows of a float frame that hold counts: `describe` keeps every statistic of a numeric column
 * in one Float64 column (a column has one dtype), so its count rows are marked here and the
 * table shows them as integers (959, not 959.0000) while the other rows keep their decimals.
 * The mark lives beside the frame (a WeakMap), so the frame itself is untouched.
 */
import type pl from "nodejs-polars";

const marks = new WeakMap<object, ReadonlySet<number>>();

/**
 * Marks rows of `frame` (by index) whose float values are counts; returns the frame.
 *
 * @example
 * ```ts
 * markWholeRows(summary, [0, 1]); // count and null_count show without decimals
 * ```
 */
export function markWholeRows(frame: pl.DataFrame, rows: readonly number[]): pl.DataFrame {
  marks.set(frame, new Set(rows));
  return frame;
}

/** The count rows marked on `frame` (none when unmarked). */
export const wholeRowsOf = (frame: pl.DataFrame): ReadonlySet<number> => marks.get(frame) ?? new Set();
