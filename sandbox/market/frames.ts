/**
 * Turns the generator's typed columns into Polars frames typed by a dataset's schema, and
 * writes them as Parquet. NaN in a numeric column means "empty" and becomes null; integers
 * arrive as doubles (exact below 2^53) and are cast to Int64; date-times arrive as epoch
 * values in the column's unit (nanoseconds or milliseconds) and become New York date-times.
 */
import pl from "nodejs-polars";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { epochDay } from "../../calendar/nyTime.ts";
import { polarsTypeOf } from "../../contract/polarsTypes.ts";
import type { Column } from "./schema.ts";

/**
 * A string column given as small codes into a table of labels (event types, exchanges, the
 * tickers of a day): Polars looks the labels up, so no string per row crosses from JavaScript.
 */
interface CodedStrings {
  codes: Uint8Array | Int32Array;
  labels: readonly string[];
}

/**
 * One value for every row (a security-day's date, ticker and ASID): Polars broadcasts it, so
 * no column of copies is built in JavaScript and copied again into Polars. A date is given as
 * its epoch day, an int64 as a number.
 */
interface ConstantValue {
  constant: number | string;
}

/**
 * Date-times as whole-number offsets (exact as doubles: below 2^53) from one epoch value in the
 * column's unit: Polars adds them up in int64, so no BigInt64Array is built in JavaScript.
 */
interface OffsetTimes {
  base: bigint;
  offsets: Float64Array;
}

/**
 * Values of one column: typed numbers, epoch date-times (BigInt64Array, or offsets from a
 * base), strings (as they are or coded), lists of strings, or one value for every row.
 */
export type ColumnValues =
  | Float64Array
  | Int32Array
  | BigInt64Array
  | readonly string[]
  | readonly (readonly string[])[]
  | CodedStrings
  | ConstantValue
  | OffsetTimes;

const isCoded = (v: ColumnValues): v is CodedStrings => !Array.isArray(v) && "codes" in v;
const isConstant = (v: ColumnValues): v is ConstantValue => !Array.isArray(v) && "constant" in v;
const isOffsetTimes = (v: ColumnValues): v is OffsetTimes => !Array.isArray(v) && "offsets" in v;

/**
 * Expressions of constants and offset times by column and value: a day's few (its date, its
 * midnight, a ticker) recur frame after frame, and a fresh expression per frame cost more than
 * the column it saves (see typedColumn).
 */
const valueColumns = new Map<string, pl.Expr>();

function keptExpression(key: string, make: () => pl.Expr): pl.Expr {
  let e = valueColumns.get(key);
  if (e === undefined) {
    e = make();
    if (valueColumns.size >= CODED_KEPT) valueColumns.clear();
    valueColumns.set(key, e);
  }
  return e;
}

/** The date-times `base + offsets` (offsets as doubles: cast to int64 exactly, being whole and below 2^53). */
function offsetTimesColumn(c: Column, base: bigint): pl.Expr {
  if (c.type !== "datetime_ns" && c.type !== "datetime_ms") {
    throw new Error(`Column '${c.name}' of type ${c.type} was given offset times: only date-time columns take them`);
  }
  return keptExpression(
    `${c.name}\u0000${c.type}\u0000offsets\u0000${base}`,
    () =>
      pl.col(c.name).cast(pl.Int64).add(pl.lit(pl.Series("base", BigInt64Array.of(base) as never)).explode()).cast(polarsTypeOf(c.type))
        .alias(c.name),
  );
}

/** One value for every row, typed by the schema. */
function constantColumn(c: Column, value: number | string): pl.Expr {
  return keptExpression(
    `${c.name}\u0000${c.type}\u0000${typeof value}\u0000${value}`,
    () => pl.lit(value).cast(polarsTypeOf(c.type)).alias(c.name),
  );
}

/**
 * The expression that gives a column its schema type. Built once per column and reused for
 * every frame: each nodejs-polars expression is a large JavaScript object, and building
 * fresh ones for every frame cost more than the frames' own data.
 */
const typedColumns = new WeakMap<Column, pl.Expr>();
function typedColumn(c: Column): pl.Expr {
  let e = typedColumns.get(c);
  if (e === undefined) {
    const raw = pl.col(c.name);
    const cleaned = c.type === "float64" || c.type === "int64" ? raw.fillNan(null) : raw;
    e = cleaned.cast(polarsTypeOf(c.type)).alias(c.name);
    typedColumns.set(c, e);
  }
  return e;
}

/**
 * An int64 column given as Int32Array (whole numbers that fit, and so no NaN): half the bytes
 * to copy into Polars, and nothing to turn into null.
 */
const wholeColumns = new WeakMap<Column, pl.Expr>();
function wholeColumn(c: Column): pl.Expr {
  let e = wholeColumns.get(c);
  if (e === undefined) {
    e = pl.col(c.name).cast(polarsTypeOf(c.type)).alias(c.name);
    wholeColumns.set(c, e);
  }
  return e;
}

/** Every code names a label (Polars would only say "out of bounds"). */
function checkCodes(c: Column, { codes, labels }: CodedStrings): void {
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i];
    if (!(code >= 0 && code < labels.length)) {
      throw new RangeError(
        `Column '${c.name}' has code ${code} at row ${i}: codes must be 0 to ${labels.length - 1}, one per label (${labels.join(", ")})`,
      );
    }
  }
}

/** Lookups of coded columns by column and labels; the same few recur (a ticker, a day's tickers). */
const codedColumns = new Map<string, pl.Expr>();
const CODED_KEPT = 512;

/** The labels of a coded column, looked up by its codes (a Series literal is one list value: exploded, the labels). */
function codedColumn(c: Column, labels: readonly string[]): pl.Expr {
  const key = `${c.name}\u0000${c.type}\u0000${labels.join("\u0000")}`;
  let e = codedColumns.get(key);
  if (e === undefined) {
    e = pl.lit(pl.Series(c.name, labels as string[], pl.String)).explode().gather(pl.col(c.name).cast(pl.UInt32)).cast(polarsTypeOf(c.type))
      .alias(c.name);
    if (codedColumns.size >= CODED_KEPT) codedColumns.clear();
    codedColumns.set(key, e);
  }
  return e;
}

/**
 * A frame with exactly the schema's columns, in schema order and schema types.
 *
 * @example
 * ```ts
 * const df = buildFrame(EQ_DAILY_OHLC_COLUMNS, { TradeDate: Int32Array.of(19682), Ticker: ["AAPL"], ... });
 * ```
 */
export function buildFrame(schema: readonly Column[], values: Record<string, ColumnValues>): pl.DataFrame {
  const series: pl.Series[] = [];
  for (const c of schema) {
    const v = values[c.name];
    if (v === undefined) throw new Error(`Column '${c.name}' has no values`);
    if (isConstant(v)) continue;
    if (isCoded(v)) checkCodes(c, v);
    if (v instanceof Int32Array && c.type !== "int64" && c.type !== "date") {
      throw new Error(`Column '${c.name}' of type ${c.type} was given an Int32Array: only int64 and date columns take one`);
    }
    series.push(pl.Series(c.name, (isCoded(v) ? v.codes : isOffsetTimes(v) ? v.offsets : v) as never));
  }
  if (series.length === 0) {
    throw new Error(
      `Columns ${schema.map((c) => c.name).join(", ")} are all constants: a frame needs one column of values to have a length`,
    );
  }
  const lengths = new Set(series.map((s) => s.length));
  if (lengths.size > 1) throw new Error(`Columns differ in length: ${series.map((s) => `${s.name}=${s.length}`).join(", ")}`);
  return pl.DataFrame(series).select(
    ...schema.map((c) => {
      const v = values[c.name];
      if (isConstant(v)) return constantColumn(c, v.constant);
      if (isCoded(v)) return codedColumn(c, v.labels);
      if (isOffsetTimes(v)) return offsetTimesColumn(c, v.base);
      return v instanceof Int32Array && c.type === "int64" ? wholeColumn(c) : typedColumn(c);
    }),
  );
}

/**
 * How a file read in small pieces is written: in row groups of `rowGroupRows` rows (each with
 * its statistics), so a reader filtering on a column that is constant within each group decodes
 * only the groups it needs; compressed with `compression`.
 */
export interface RowGroupLayout {
  rowGroupRows: number;
  compression: "zstd" | "lz4";
}

/**
 * Writes a frame as one Parquet file, creating its folder: zstd-compressed in one row group, or
 * as `layout` says.
 *
 * @example
 * ```ts
 * writeParquetFile(minuteBarFrame(ids, bars), "data/x/eq-taq-1min/aggregation_logic=core/TradeDate=2024-01-02.parquet", { rowGroupRows: MINUTES_PER_DAY, compression: "lz4" });
 * ```
 */
export function writeParquetFile(frame: pl.DataFrame, path: string, layout?: RowGroupLayout): void {
  mkdirSync(dirname(path), { recursive: true });
  if (layout === undefined) frame.writeParquet(path, { compression: "zstd" });
  // The eager writer takes no row group size; the lazy sink does, with statistics on.
  else {frame.lazy().sinkParquet(path, { compression: layout.compression, rowGroupSize: layout.rowGroupRows, statistics: true })
      .collectSync();}
}

/** One record of a dataset: column name to a number, bigint (date-times) or string (dates too). */
export type Row = Record<string, number | bigint | string | readonly string[]>;

/**
 * Strings as codes into their distinct values, in order of first appearance. Rows come in runs
 * of one value (a root's ticker, a contract's side): a run is looked up once.
 */
function coded(strings: readonly string[]): CodedStrings {
  const index = new Map<string, number>();
  const codes = new Int32Array(strings.length);
  let last: string | undefined, lastCode = -1;
  for (let i = 0; i < strings.length; i++) {
    const v = strings[i];
    if (v !== last) {
      let code = index.get(v);
      if (code === undefined) index.set(v, code = index.size);
      last = v;
      lastCode = code;
    }
    codes[i] = lastCode;
  }
  return { codes, labels: [...index.keys()] };
}

/** Epoch days of `YYYY-MM-DD` dates; a day's rows repeat a few (trade date, expiries): each is parsed once. */
function epochDays(dates: readonly string[]): Int32Array {
  const days = new Map<string, number>();
  const out = new Int32Array(dates.length);
  let last: string | undefined, lastDay = 0;
  for (let i = 0; i < dates.length; i++) {
    const date = dates[i];
    if (date !== last) {
      let day = days.get(date);
      if (day === undefined) days.set(date, day = epochDay(date));
      last = date;
      lastDay = day;
    }
    out[i] = lastDay;
  }
  return out;
}

/** Each row's value of one column, in one pass (a missing value names the column). */
function columnOf(rows: readonly Row[], name: string): Row[string][] {
  const out = new Array<Row[string]>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i][name];
    if (v === undefined) throw new Error(`Row ${i} has no value for column '${name}'`);
    out[i] = v;
  }
  return out;
}

/**
 * A frame of `rows` with exactly the schema's columns: dates from `YYYY-MM-DD` strings,
 * date-times from bigint epoch values in the column's unit, lists of strings as they are.
 *
 * @example
 * ```ts
 * rowsFrame(EQ_LOOKUP_FILES_COLUMNS, [{ Ticker: "SQ", EndDate: "2024-01-04", SecId: 100013 }]);
 * ```
 */
export function rowsFrame(schema: readonly Column[], rows: readonly Row[]): pl.DataFrame {
  const values: Record<string, ColumnValues> = {};
  for (const c of schema) {
    const column = columnOf(rows, c.name);
    switch (c.type) {
      case "date":
        values[c.name] = epochDays(column as string[]);
        break;
      case "datetime_ns":
      case "datetime_ms":
        values[c.name] = BigInt64Array.from(column as bigint[]);
        break;
      case "int64":
        values[c.name] = wholeNumbers(Float64Array.from(column as number[]));
        break;
      case "float64":
        values[c.name] = Float64Array.from(column as number[]);
        break;
      case "string":
        values[c.name] = coded(column as string[]);
        break;
      default:
        values[c.name] = column as never;
    }
  }
  return buildFrame(schema, values);
}

/**
 * Whole numbers as an Int32Array when every one fits (share counts always do), else as they
 * are: Polars then copies half the bytes and has no NaN to look for.
 *
 * @example
 * ```ts
 * wholeNumbers(Float64Array.of(100, 200)); // Int32Array [100, 200]
 * wholeNumbers(Float64Array.of(100, NaN)); // the Float64Array itself
 * ```
 */
export function wholeNumbers(values: Float64Array): Int32Array | Float64Array {
  const out = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out[i] = v;
    // NaN, fractions and values past int32 fail the round trip.
    if (out[i] !== v) return values;
  }
  return out;
}
