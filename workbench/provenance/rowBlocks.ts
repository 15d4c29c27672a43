/**
 * Where two frames first differ, told from their manifests alone: a frame's rows cut into at
 * most 256 consecutive blocks, each summed up by a short digest of Polars' row hashes
 * (the `rows` hash scheme's, see rowHashes.ts: computed once for both). Frames of
 * up to 256 rows get one block a row, so the first differing row is exact; longer frames give
 * the first differing block's row range. Row hashes depend on the nodejs-polars build (the
 * manifest names its version): blocks are compared only when the block sizes agree, and only
 * to locate a difference `frameHash` has already found.
 */
import type pl from "nodejs-polars";
import { createHash } from "node:crypto";
import { rowHashBytes } from "./rowHashes.ts";

const MAX_BLOCKS = 256;

/** A frame's row blocks: `size` rows each (the last may be shorter), one 16-hex digest each. */
export interface RowBlocks {
  /** Rows per block. */
  size: number;
  /** One 16-hex digest per block, in row order. */
  digests: string[];
}

/**
 * The row blocks of a frame.
 *
 * @example
 * ```ts
 * rowBlocks(daily); // { size: 1, digests: ["9c1d…", …] } for up to 256 rows
 * ```
 */
export function rowBlocks(frame: pl.DataFrame): RowBlocks {
  return rowBlocksOf(rowHashBytes(frame), frame.height);
}

/**
 * The row blocks of `rows` rows from their row hashes (`rowHashBytes`, 8 bytes a row), as the
 * recorder has them from the pages it hashed.
 *
 * @example
 * ```ts
 * rowBlocksOf(rowHashBytes(frame), frame.height); // the same as rowBlocks(frame)
 * ```
 */
export function rowBlocksOf(bytes: Uint8Array, rows: number): RowBlocks {
  const size = Math.max(1, Math.ceil(rows / MAX_BLOCKS));
  if (rows === 0 || bytes.byteLength === 0) return { size, digests: [] };
  const digests: string[] = [];
  for (let start = 0; start < rows; start += size) {
    const block = bytes.subarray(start * 8, Math.min(rows, start + size) * 8);
    digests.push(createHash("sha256").update(block).digest("hex").slice(0, 16));
  }
  return { size, digests };
}

/**
 * Where `after` first differs from `before`: a row number (1-based) when blocks are single
 * rows, else the first differing block's row range; undefined when it cannot tell (block sizes
 * differ, blocks missing) or when every shared block agrees.
 *
 * @example
 * ```ts
 * firstDifference(a, b); // "row 3" or "rows 1,201-1,400"
 * ```
 */
export function firstDifference(before?: RowBlocks, after?: RowBlocks): string | undefined {
  if (!before || !after || before.size !== after.size) return undefined;
  const n = Math.min(before.digests.length, after.digests.length);
  const i = [...Array(n).keys()].find((k) => before.digests[k] !== after.digests[k]);
  if (i === undefined) return undefined;
  const first = i * before.size + 1;
  const fmt = (x: number) => x.toLocaleString("en-US");
  return before.size === 1 ? `row ${fmt(first)}` : `rows ${fmt(first)}-${fmt(first + before.size - 1)}`;
}
