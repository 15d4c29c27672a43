/**
 * Turns the generator's typed columns into Polars frames typed by a dataset's schema, and
 * writes them as Parquet. NaN in a numeric column means "empty" and becomes null; integers
 * arrive as doubles (exact below 2^53) and are cast to Int64; date-times arrive as epoch
 * nanoseconds and become New York date-times.
 */
import pl from "nodejs-polars";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { type Column, polarsType } from "./schema.ts";

/** Values of one column: typed numbers, epoch nanoseconds (BigInt64Array), or strings. */
export type ColumnValues = Float64Array | Int32Array | BigInt64Array | readonly string[];

/**
 * A frame with exactly the schema's columns, in schema order and schema types.
 *
 * @example
 * ```ts
 * const df = buildFrame(EQ_DAILY_OHLC_COLUMNS, { TradeDate: Int32Array.of(19682), Ticker: ["AAPL"], ... });
 * ```
 */
export function buildFrame(schema: readonly Column[], values: Record<string, ColumnValues>): pl.DataFrame {
  const series = schema.map((c) => {
    const v = values[c.name];
    if (v === undefined) throw new Error(`Column '${c.name}' has no values`);
    return pl.Series(c.name, v as never);
  });
  const lengths = new Set(series.map((s) => s.length));
  if (lengths.size > 1) throw new Error(`Columns differ in length: ${schema.map((c, i) => `${c.name}=${series[i].length}`).join(", ")}`);
  return pl.DataFrame(series).select(
    ...schema.map((c) => {
      const e = pl.col(c.name);
      const cleaned = c.type === "float64" || c.type === "int64" ? e.fillNan(null) : e;
      return cleaned.cast(polarsType(c.type)).alias(c.name);
    }),
  );
}

/** Writes a frame as one zstd-compressed Parquet file, creating its folder. */
export function writeParquetFile(frame: pl.DataFrame, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  frame.writeParquet(path, { compression: "zstd" });
}
