/**
 * The portable content hash of a Polars frame (`frameHash(df, { scheme: "canonical" })`): it
 * depends on no library's internals, so it stays the same across nodejs-polars versions, at
 * about three times the cost of the default `rows` scheme (see frameHash.ts). The same rows in the same order with the same schema
 * hash the same, whatever wire format, page size or concurrency fetched them; a change in any
 * value, a dtype, a column name, the column order or the row order changes it.
 *
 * Canonical encoding (version 1), fed to SHA-256 in this order; integers little-endian:
 *
 * 1. the text `market-workbench frameHash v1\n`, then the row count and column count (u64 each);
 * 2. for each column in frame order: its name (u32 byte length + UTF-8), its dtype as text
 *    (u32 length + UTF-8, e.g. `Float64`, `Datetime(ns,America/New_York)`, `List(String)`: the
 *    time unit and zone are part of the dtype), its null count (u64), then, when that count is
 *    above 0, one validity byte per row (1 value, 0 null), then the values:
 *    - integers (Int8..Int64, UInt8..UInt64): each in its own width (UInt64 stays unsigned);
 *    - Float32/Float64: the IEEE-754 bits, every NaN written as the one quiet NaN
 *      (0x7fc00000 / 0x7ff8000000000000); -0 and +0 differ, as their bits do;
 *    - Bool: one byte, 1 or 0;
 *    - Date: i32 days since 1970-01-01;
 *    - Datetime (any unit, any zone): i64 UTC epoch nanoseconds (the zone is in the dtype text,
 *      so the same instant in another zone hashes differently, as its display does; a naive
 *      date-time writes its wall-clock epoch nanoseconds; i64 nanoseconds span 1677 to 2262);
 *    - String: the u32 UTF-8 byte length of every row, then the bytes of every row, one after
 *      another;
 *    - List(String): per row, a u32 item count, then each item as u32 byte length + UTF-8 (a
 *      null item as length 2^32-1);
 *    - a null slot writes the zero value of its type (the validity bytes tell it apart).
 * Other dtypes are refused with an error naming the column and dtype.
 *
 * The result is `sha256:` and 64 hex digits.
 */
import pl from "nodejs-polars";
import { createHash, type Hash } from "node:crypto";
import { Buffer } from "node:buffer";
import { QueryError } from "../errors/base.ts";

const MAGIC = "market-workbench frameHash v1\n";
const NULL_ITEM = 0xffffffff;

/** A dtype as stable text, e.g. `Datetime(ns,America/New_York)` or `List(String)`. */
export function dtypeText(dtype: pl.DataType): string {
  const s = String(dtype);
  const strip = (t: string): string => (t.startsWith("DataType(") ? strip(t.slice(9, -1)) : t.replace(/DataType\((\w+)\)/g, "$1"));
  return strip(s);
}

const u32 = (n: number) => {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32LE(n);
  return b;
};
const u64 = (n: number) => {
  const b = Buffer.allocUnsafe(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
/** Text as its u32 UTF-8 byte length and the bytes (the `rows` scheme writes names and dtypes so too). */
export const lengthPrefixed = (s: string) => {
  const bytes = Buffer.from(s, "utf8");
  return Buffer.concat([u32(bytes.byteLength), bytes]);
};
const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** What the parts need of a column: its name and dtype (no Series: each is a large object to build). */
type Column = { name: string; dtype: pl.DataType };

const INTEGERS = new Set(["Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"]);

/**
 * The expressions giving one column's canonical parts, computed for all columns in one Polars
 * select (in parallel, natively): `m<i>` validity bytes (only when the column has nulls),
 * `v<i>` the values with nulls as zeros, `l<i>` a text column's UTF-8 byte lengths, `s<i>` its
 * rows end to end (one row).
 */
function canonicalParts(column: Column, i: number, type: string, hasNulls: boolean): ColumnParts {
  // The dtype text names the whole dtype (its unit and zone too), so it, the name, the position
  // and whether there are nulls decide the expressions.
  const key = `${i}\u0000${column.name}\u0000${type}\u0000${hasNulls}`;
  let parts = partsBuilt.get(key);
  if (parts === undefined) {
    parts = buildParts(column, i, type, hasNulls);
    if (partsBuilt.size >= PARTS_KEPT) partsBuilt.clear();
    partsBuilt.set(key, parts);
  }
  return parts;
}

/**
 * Parts already built, by column position, name, dtype and whether it has nulls. A
 * nodejs-polars expression is a large JavaScript object and a frame's parts are several of
 * them: built afresh on every call they cost more than hashing a small frame's values, and the
 * same few columns recur (a dataset's, page after page). Kept up to a bound, as frames.ts keeps
 * its casts.
 */
const partsBuilt = new Map<string, ColumnParts>();
const PARTS_KEPT = 1024;

/** A column's parts: `rows` one value per frame row; `text` one row (a text column's rows end to end), selected apart. */
type ColumnParts = { rows: pl.Expr[]; text?: pl.Expr };

/** Builds the expressions of {@link canonicalParts}. */
function buildParts(series: Column, i: number, type: string, hasNulls: boolean): ColumnParts {
  const c = pl.col(series.name);
  const zeroFilled = (e: pl.Expr, t: pl.DataType) => e.fillNull(pl.lit(0).cast(t)).alias(`v${i}`);
  const parts = hasNulls ? [c.isNotNull().cast(pl.UInt8).alias(`m${i}`)] : [];
  if (INTEGERS.has(type) || type === "Float64" || type === "Float32") parts.push(zeroFilled(c, series.dtype));
  else if (type === "Bool") parts.push(zeroFilled(c.cast(pl.UInt8), pl.UInt8));
  else if (type === "Date") parts.push(zeroFilled(c.cast(pl.Int32), pl.Int32));
  else if (type.startsWith("Datetime(")) {
    // Polars keeps a zoned date-time as UTC epoch in its unit: widening the unit within the
    // same zone and reading the integer gives UTC epoch nanoseconds (local for a naive column).
    const zone = (series.dtype as unknown as { timeZone?: string }).timeZone;
    parts.push(zeroFilled(c.cast(pl.Datetime("ns", zone)).cast(pl.Int64), pl.Int64));
  } else if (type === "String") {
    // Byte lengths from the hex form (two digits a byte): Polars' own length counts characters.
    parts.push(c.fillNull(pl.lit("")).str.encode("hex").str.lengths().cast(pl.UInt32).div(2).cast(pl.UInt32).alias(`l${i}`));
    // The rows' text end to end: one row, so selected apart from the per-row parts.
    return { rows: parts, text: c.fillNull(pl.lit("")).str.concat("", true).alias(`s${i}`) };
  } else if (type !== "List(String)") {
    throw new QueryError(
      `frameHash cannot encode column '${series.name}' of dtype ${type}: supported are integers, Float32/64, Bool, Date, Datetime, String and List(String)`,
    );
  }
  return { rows: parts };
}

/** Float bits with every NaN as JS's one quiet NaN (a copy only when a NaN is there). */
function canonicalFloats(values: Float64Array | Float32Array): Float64Array | Float32Array {
  for (let i = 0; i < values.length; i++) {
    if (values[i] !== values[i]) {
      const copy = values.slice();
      for (let j = i; j < copy.length; j++) if (copy[j] !== copy[j]) copy[j] = NaN;
      return copy;
    }
  }
  return values;
}

/** Writes the canonical values of column `i` from its parts (or, for lists, from the column). */
function hashValues(hash: Hash, frame: pl.DataFrame, name: string, type: string, parts: Parts, i: number): void {
  if (type === "String") {
    hash.update(bytesOf(parts.rows.getColumn(`l${i}`).toTypedArray()));
    hash.update(Buffer.from(frame.height === 0 ? "" : (parts.texts[`s${i}`] as string), "utf8"));
  } else if (type === "List(String)") {
    const chunks: Buffer[] = [];
    for (const row of frame.getColumn(name).toArray() as unknown as (string[] | null)[]) {
      chunks.push(u32(row?.length ?? 0));
      if (row) { for (const item of row) chunks.push(item === null ? u32(NULL_ITEM) : lengthPrefixed(item)); }
    }
    hash.update(Buffer.concat(chunks));
  } else {
    const values = parts.rows.getColumn(`v${i}`).toTypedArray() as ArrayBufferView;
    hash.update(bytesOf(type.startsWith("Float") ? canonicalFloats(values as Float64Array) : values));
  }
}

/** The parts of every column: `rows` one row per frame row, `texts` each text column's rows end to end. */
type Parts = { rows: pl.DataFrame; texts: Record<string, unknown> };

/**
 * The content hash of a frame, by the canonical encoding above (`sha256:<64 hex>`).
 *
 * @example
 * ```ts
 * import { frameHash } from "./workbench/mod.ts";
 * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
 * frameHash(daily, { scheme: "canonical" }); // "sha256:3f1c…": the same in CSV, JSON or gzip, at any page size
 * ```
 */
export function canonicalFrameHash(frame: pl.DataFrame): string {
  const hash = createHash("sha256");
  hash.update(MAGIC);
  hash.update(u64(frame.height));
  hash.update(u64(frame.width));
  // Names, dtypes and null counts come from the frame: a Series per column is a large
  // JavaScript object to build, and the parts need no more than these.
  const names = frame.columns;
  const dtypes = frame.dtypes;
  const types = dtypes.map(dtypeText);
  const nulls = names.length > 0 ? (frame.nullCount().row(0) as number[]).map(Number) : [];
  const columnParts = names.map((name, i) => canonicalParts({ name, dtype: dtypes[i] }, i, types[i], nulls[i] > 0));
  const texts = columnParts.flatMap((p) => (p.text ? [p.text] : []));
  const parts: Parts = {
    rows: frame.select(...columnParts.flatMap((p) => p.rows)).rechunk(),
    texts: texts.length > 0 ? frame.select(...texts).toRecords()[0] ?? {} : {},
  };
  names.forEach((name, i) => {
    hash.update(lengthPrefixed(name));
    hash.update(lengthPrefixed(types[i]));
    hash.update(u64(nulls[i]));
    if (nulls[i] > 0) hash.update(bytesOf(parts.rows.getColumn(`m${i}`).toTypedArray()));
    hashValues(hash, frame, name, types[i], parts, i);
  });
  return `sha256:${hash.digest("hex")}`;
}
