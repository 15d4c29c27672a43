/**
 * The `rows` hash scheme (version 1), the one the provenance manifest records: Polars hashes
 * every row natively and in parallel (`hashRows` with four fixed seeds, one u64 a row), and
 * SHA-256 digests, in this order (integers little-endian):
 *
 * 1. the text `market-workbench frameHash rows/1\n`, the row count and column count (u64 each);
 * 2. for each column in frame order: its name and its dtype as text (u32 byte length + UTF-8
 *    each; the dtype text carries a date-time's unit and zone, e.g. `Datetime(ns,America/New_York)`);
 * 3. every row's hash (u64), in row order.
 *
 * A row's hash depends only on its values (nulls, NaN and text included) and the dtypes, not on
 * how the frame is chunked: the row hashes of a fetch's pages, put end to end, are the row
 * hashes of the whole frame. So the recorder hashes each page on its own, in the waits for the
 * service (deferred.ts), and the frame's hash costs one SHA-256 over 8 bytes a row at the end. Row hashes are Polars' own: another nodejs-polars build may hash differently, so the
 * manifest names the scheme and the nodejs-polars version (`HASH_SCHEME`, `hashScheme()`), and
 * the portable `canonical` scheme (canonicalHash.ts) remains for hashes that must outlive a
 * library upgrade. Polars folds -0.0 into +0.0 and every NaN into one, as its equality does.
 */
import type pl from "nodejs-polars";
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import { dtypeText, lengthPrefixed } from "./canonicalHash.ts";

/** The scheme's name, written before each `rows:` hash's meaning in the manifest. */
export const HASH_SCHEME = "rows/1";
const MAGIC = "market-workbench frameHash rows/1\n";
const SEEDS = [0x6d61726b, 0x65742d77, 0x6f726b62, 0x656e6368] as const;

/**
 * Each row's hash as 8 little-endian bytes, in row order (empty for a frame without rows or
 * columns).
 *
 * @example
 * ```ts
 * rowHashBytes(daily).byteLength === 8 * daily.height; // true
 * ```
 */
export function rowHashBytes(frame: pl.DataFrame): Uint8Array {
  if (frame.height === 0 || frame.width === 0) return new Uint8Array(0);
  const hashes = frame.hashRows(...SEEDS).toTypedArray() as BigUint64Array;
  return new Uint8Array(hashes.buffer, hashes.byteOffset, hashes.byteLength);
}

/** What the digest reads of a frame besides its row hashes (a part of a frame: its height, the frame's columns). */
export type FrameShape = Pick<pl.DataFrame, "height" | "width" | "columns" | "dtypes">;

/**
 * The `rows:` hash of a frame whose row hashes are already known (in row order, in pieces).
 *
 * @example
 * ```ts
 * rowsDigest(frame, [rowHashBytes(frame.head(10)), rowHashBytes(frame.tail(frame.height - 10))]) === frameHash(frame); // true
 * ```
 */
export function rowsDigest(frame: FrameShape, rowHashes: readonly Uint8Array[]): string {
  return rowsDigester(frame)(frame.height, rowHashes);
}

/**
 * `rowsDigest` for many parts of frames of one shape (a download's partitions of one unit): the
 * columns' names and dtypes are turned into bytes once, not once a part.
 *
 * @example
 * ```ts
 * const digest = rowsDigester(unit);
 * digest(390, [bytes.subarray(0, 390 * 8)]) === frameHash(unit.head(390)); // true
 * ```
 */
export function rowsDigester(shape: Omit<FrameShape, "height">): (height: number, rowHashes: readonly Uint8Array[]) => string {
  const dtypes = shape.dtypes; // names and dtypes only: getColumns() would wrap every column
  const columns = Buffer.concat(shape.columns.flatMap((name, i) => [lengthPrefixed(name), lengthPrefixed(dtypeText(dtypes[i]))]));
  return (height, rowHashes) => {
    const hash = createHash("sha256");
    const counts = Buffer.allocUnsafe(16);
    counts.writeBigUInt64LE(BigInt(height), 0);
    counts.writeBigUInt64LE(BigInt(shape.width), 8);
    hash.update(MAGIC).update(counts).update(columns);
    for (const piece of rowHashes) hash.update(piece);
    return `rows:${hash.digest("hex")}`;
  };
}
