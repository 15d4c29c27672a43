/**
 * The one module that turns wire data into Polars frames, with one type policy for every
 * format: types come from the dataset's column schema (`/meta/datasets/{id}/columns`):
 * dates become Date, date-times Datetime in America/New_York with the column's precision,
 * integers Int64 (exact, also beyond 2^53), numbers Float64, text String, lists List(String).
 * Empty fields become null, never 0 or NaN. The same query gives identical frames in JSON,
 * CSV and gzip-compressed CSV.
 */
import pl, { type DataType } from "nodejs-polars";
import { Buffer } from "node:buffer";
import { gunzipSync } from "node:zlib";
import {
  type ColumnRecord as ColumnInfo,
  DataEnvelope,
  type ResponseFormat as WireFormat,
  wireDateTimeToEpochNs,
} from "../../contract/mod.ts";
import { polarsTypeOf, WIRE_TIME_ZONE } from "../../contract/polarsTypes.ts";
import { checkAnswer } from "../http/contractCheck.ts";

// The service's answer formats (contract/formats.ts: JSON, CSV, or gzip-compressed CSV; all
// give the same frame), under the workbench's name.
export type { WireFormat };

// A column as `/columns` describes it: the contract's column record (documented there),
// re-exported under the workbench's name.
export type { ColumnInfo };

/** The time zone of every date-time column of a frame. */
export const NEW_YORK: "America/New_York" = WIRE_TIME_ZONE;

/**
 * The Polars type of a column (the contract's one map).
 *
 * @example
 * ```ts
 * import { dtypeOf } from "./workbench/mod.ts";
 * dtypeOf({ data_type: "date" }); // Date
 * ```
 */
export function dtypeOf(column: Pick<ColumnInfo, "data_type">): DataType {
  return polarsTypeOf(column.data_type);
}

/** An empty Series of a type; nodejs-polars cannot build an empty List(String) directly. */
function emptySeries(column: ColumnInfo): pl.Series {
  if (column.data_type === "list_string") return pl.Series(column.name, [[""]], pl.List(pl.String)).head(0);
  return pl.Series(column.name, [], dtypeOf(column));
}

/** An empty frame with the schema's columns (in the order given), each of its proper type. */
export function emptyFrame(columns: readonly ColumnInfo[]): pl.DataFrame {
  return pl.DataFrame(columns.map(emptySeries));
}

/**
 * Frames of one schema stacked in order, their chunks kept (no copy). One native concat:
 * nodejs-polars' `pl.concat(frames)` stacks them pairwise, which re-appends every chunk so far
 * at each step: its cost grows with the square of the pages, this one's with their number.
 * Frames whose column names or types differ are refused, as a vertical concat refuses them.
 *
 * @example
 * ```ts
 * const both = stackFrames([monday, tuesday]);
 * ```
 */
export function stackFrames(frames: readonly pl.DataFrame[]): pl.DataFrame {
  if (frames.length === 1) return frames[0];
  // Compared, not formatted: every property of a nodejs-polars frame is read through a proxy
  // that lists the frame's column names first, so names and types are read once a frame.
  const schemas = frames.map((f) => ({ names: f.columns, dtypes: f.dtypes }));
  const [first] = schemas;
  const same = (s: typeof first) =>
    s.names.length === first.names.length && s.names.every((n, i) => n === first.names[i] && s.dtypes[i].equals(first.dtypes[i]));
  const odd = schemas.findIndex((s) => !same(s));
  if (odd >= 0) {
    const text = (s: typeof first) => s.names.map((n, i) => `${n}: ${String(s.dtypes[i]).replace(/^DataType\((.*)\)$/, "$1")}`).join(", ");
    throw new Error(`Cannot stack frames of different schemas: frame ${odd} has ${text(schemas[odd])} where frame 0 has ${text(first)}`);
  }
  return pl.concat(frames.map((f) => f.lazy()), { how: "vertical", rechunk: false }).collectSync();
}

/** `Z`, `+HH:MM`, `+HHMM` or `+HH` at the end of a date-time text. */
const OFFSET_RE = "(Z|[+-]\\d{2}(?::?\\d{2})?)$";

/**
 * Date-time text as epoch nanoseconds (UTC): with an offset, with `Z`, or naive (New York
 * wall time, the contract's reading), seconds optional, fraction up to nanoseconds.
 * nodejs-polars' strptime stops at microseconds, so the whole seconds and the fraction are
 * read apart and added as integer nanoseconds: exact at every precision.
 */
function dateTimeTextToUtcNs(c: pl.Expr): pl.Expr {
  const offset = c.str.extract(OFFSET_RE, 1);
  const wall = c.str.replace(OFFSET_RE, "").str.replace(" ", "T").str.replace("\\.\\d+", "").str.replace("T(\\d{2}:\\d{2})$", "T$1:00")
    .str.strptime(pl.Datetime("ms"), "%Y-%m-%dT%H:%M:%S").cast(pl.Datetime("ns"));
  const nanos = c.str.extract("\\.(\\d{1,9})", 1).str.padEnd(9, "0").cast(pl.Int64).fillNull(pl.lit(0).cast(pl.Int64));
  const digits = offset.str.replace(":", "");
  const minutes = digits.str.slice(1, 2).cast(pl.Int64).mul(60).add(digits.str.slice(3, 2).cast(pl.Int64, false).fillNull(0));
  const offsetNs = pl.when(offset.eq(pl.lit("Z"))).then(pl.lit(0)).otherwise(
    pl.when(offset.str.startsWith("-")).then(minutes.mul(-1)).otherwise(minutes),
  )
    .cast(pl.Int64).mul(60_000_000_000);
  const fromOffset = wall.cast(pl.Int64).sub(offsetNs);
  const fromNaive = wall.dt.replaceTimeZone(NEW_YORK).dt.convertTimeZone("UTC").cast(pl.Int64);
  // A when/otherwise result is added as Float64 unless cast first, which would lose nanoseconds.
  return pl.when(offset.isNull()).then(fromNaive).otherwise(fromOffset).cast(pl.Int64).add(nanos);
}

/**
 * Casts already built, by column, schema type and arriving type. Each nodejs-polars expression
 * is a large JavaScript object, and a date-time column's parse is about forty of them: built
 * afresh for every page, they cost more than typing the page itself. The same few recur (a
 * dataset's columns, as JSON or CSV delivers them), so they are kept, up to a bound.
 */
const casts = new Map<string, pl.Expr>();
const CASTS_KEPT = 1024;

/** Casts one column, arriving as text (JSON), typed by the CSV reader, or as JSON's own types, to its schema type. */
function castExpr(column: ColumnInfo, arrived: DataType): pl.Expr {
  const key = `${column.name}\u0000${column.data_type}\u0000${String(arrived)}`;
  let cast = casts.get(key);
  if (cast === undefined) {
    cast = buildCast(column, arrived);
    if (casts.size >= CASTS_KEPT) casts.clear();
    casts.set(key, cast);
  }
  return cast;
}

function buildCast(column: ColumnInfo, arrived: DataType): pl.Expr {
  const c = pl.col(column.name);
  if (arrived.equals(dtypeOf(column))) return c;
  const fromText = arrived.equals(pl.String);
  switch (column.data_type) {
    case "date":
      return (fromText ? c.str.strptime(pl.Date, "%Y-%m-%d") : c.cast(pl.Date)).alias(column.name);
    case "datetime_ns":
    case "datetime_ms": {
      // Text from JSON, or from a CSV the reader could not parse (naive date-times).
      const parsed = dateTimeTextToUtcNs(c).cast(pl.Datetime("ns", "UTC")).dt.convertTimeZone(NEW_YORK);
      return parsed.cast(dtypeOf(column)).alias(column.name);
    }
    case "list_string":
      return (fromText ? c.str.jsonDecode(pl.List(pl.String)) : c.cast(pl.List(pl.String))).alias(column.name);
    default:
      return c.cast(dtypeOf(column)).alias(column.name);
  }
}

/** Types a frame by the schema, in the schema's column order (only the columns present). */
function typeFrame(frame: pl.DataFrame, columns: readonly ColumnInfo[]): pl.DataFrame {
  // Names and types are read once: each `frame.columns` or `getColumn` crosses into Polars.
  const [names, dtypes] = [frame.columns, frame.dtypes];
  const arrived = new Map(names.map((name, i) => [name, dtypes[i]]));
  const present = columns.filter((c) => arrived.has(c.name));
  const unknown = names.filter((name) => !columns.some((c) => c.name === name));
  if (unknown.length > 0) throw new Error(`The answer has columns the dataset's schema does not list: ${unknown.join(", ")}`);
  if (frame.height === 0) return emptyFrame(present);
  // A page the reader typed whole, in schema order (CSV without lists), is returned as it is.
  const typed = present.length === names.length && present.every((c, i) => c.name === names[i] && arrived.get(c.name)!.equals(dtypeOf(c)));
  return typed ? frame : frame.select(...present.map((c) => castExpr(c, arrived.get(c.name)!)));
}

/**
 * The rows of a JSON page envelope as an untyped frame, after checking the envelope and its
 * pagination against the contract (the records themselves are typed by the schema below).
 */
function jsonRows(body: Uint8Array, endpoint: string): pl.DataFrame {
  let envelope: pl.DataFrame;
  try {
    envelope = pl.readJSON(Buffer.from(body), { format: "json" } as never);
  } catch {
    return checkAnswer(DataEnvelope, new TextDecoder().decode(body.subarray(0, 80)), endpoint) as never;
  }
  const has = (name: string) => envelope.columns.includes(name);
  const dataType = has("data") ? String(envelope.getColumn("data").dtype) : "";
  checkAnswer(DataEnvelope, {
    data: !has("data") ? undefined : /^DataType\(List\(DataType\((Struct|Null)/.test(dataType) ? [] : `a column of ${dataType}`,
    pagination: has("pagination") ? envelope.select("pagination").unnest("pagination").toRecords()[0] : undefined,
  }, endpoint);
  const data = envelope.getColumn("data");
  if (data.dtype.equals(pl.List(pl.Null)) || envelope.select(pl.col("data").lst.lengths()).getColumn("data").get(0) === 0) {
    return pl.DataFrame({});
  }
  return envelope.select(pl.col("data").explode()).unnest("data");
}

/**
 * Types the CSV reader parses itself, on its threads, exactly (integers beyond 2^53,
 * nanoseconds, each value's UTC offset), which is faster than reading them as text and casting
 * afterwards.
 */
const PARSED_BY_READER = new Set<ColumnInfo["data_type"]>(["int64", "float64", "date", "datetime_ns", "datetime_ms"]);

/**
 * A CSV page as a frame: numbers, dates and date-times parsed by the reader (empty fields
 * null, a value that does not parse an error naming it), lists as text for typeFrame. The
 * reader ignores types of columns the page lacks; a column the header names but the schema
 * does not is read as text and reported by typeFrame.
 *
 * The parse runs on the calling thread and holds the event loop while it runs (Polars' own
 * threads do the work). The ways off that thread were tried and cost more than they save:
 * under Deno, nodejs-polars' asynchronous `collect()` also runs on the main thread (no timer
 * fires while it runs), and a Worker can only hand a frame back serialized, where writing
 * the page as Arrow IPC (to memory or to a file) costs more CPU than parsing its CSV.
 */
function readCsvPage(text: Uint8Array, columns: readonly ColumnInfo[]): pl.DataFrame {
  const dtypes = Object.fromEntries(columns.filter((c) => PARSED_BY_READER.has(c.data_type)).map((c) => [c.name, dtypeOf(c)]));
  const bytes = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  try {
    // One chunk a column: the parallel reader leaves about 33 on a 19,200-row page, which every
    // later pass (row hashes, the user's queries) walks one by one; joining them costs less.
    return pl.readCSV(bytes, { inferSchemaLength: 0, dtypes, rechunk: true } as never);
  } catch (error) {
    // The reader parses date-times with an offset or Z only; naive ones (New York time) are
    // read as text and parsed by typeFrame. Only this rare path pays for it.
    const textDateTimes = columns.filter((c) => c.data_type.startsWith("datetime")).map((c) => c.name);
    if (textDateTimes.length > 0 && /as dtype `datetime/.test(String((error as Error).message))) {
      for (const name of textDateTimes) delete dtypes[name];
      const frame = pl.readCSV(bytes, { inferSchemaLength: 0, dtypes, rechunk: true } as never);
      const wellFormed = (name: string) =>
        !frame.columns.includes(name) ||
        frame.getColumn(name).toArray().every((v) => v === null || wireDateTimeToEpochNs(v as string) !== undefined);
      if (textDateTimes.every(wellFormed)) return frame;
    }
    // Polars' message ends in advice about its own options; the first line names the value.
    const reason = String((error as Error).message ?? error).split("\n")[0];
    throw new Error(`The CSV page does not match the dataset's column schema: ${reason}`);
  }
}

/**
 * Turns one page as received into a typed frame.
 *
 * @example
 * ```ts
 * const frame = pageToFrame(body, "csv", columns, ["TradeDate", "Volume"]);
 * ```
 */
export function pageToFrame(
  body: Uint8Array,
  format: WireFormat,
  columns: readonly ColumnInfo[],
  selected?: readonly string[],
  endpoint = "a data request",
): pl.DataFrame {
  const wanted = selected ? selected.map((n) => columns.find((c) => c.name === n)!).filter(Boolean) : columns;
  let raw: pl.DataFrame;
  if (format === "json") raw = jsonRows(body, endpoint);
  else {
    const text = format === "csv_gzip" ? gunzipSync(body) : body;
    raw = text.byteLength === 0 ? pl.DataFrame({}) : readCsvPage(text, columns);
  }
  if (raw.width === 0 || raw.height === 0) return emptyFrame(wanted);
  return typeFrame(raw, wanted);
}

/** `next_offset` of a JSON page (read from the envelope's tail, not a full parse). */
export function jsonNextOffset(body: Uint8Array): number | null | undefined {
  const tail = new TextDecoder().decode(body.subarray(Math.max(0, body.byteLength - 200)));
  const m = /"next_offset"\s*:\s*(null|\d+)/.exec(tail);
  if (!m) return undefined;
  return m[1] === "null" ? null : Number(m[1]);
}
