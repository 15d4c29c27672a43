/**
 * Reads a data response body the way a client would (JSON, CSV parsed by Polars with every
 * column as text, gzip-compressed CSV) into the canonical rows of polarsExpected.ts. Every
 * cell is checked against its column type on the way: a date that is not `YYYY-MM-DD`, a
 * date-time that is not ISO 8601 with the column's fractional digits and an offset, an
 * integer written with a point or an exponent, or a JSON value of the wrong kind throws,
 * naming the column, the row and the value.
 *
 * The check runs when the body is read, vectorised (wireValid.ts); only a body that fails it
 * is read cell by cell, which throws the error naming the first bad cell. Canonical rows are
 * built only when asked for (`rows`): fastRows.ts compares the usual, equal case without them.
 */
import { Buffer } from "node:buffer";
import { gunzipSync } from "node:zlib";
import pl from "nodejs-polars";
import type { Dataset } from "../../../../sandbox/market/catalog.ts";
import type { ColumnType } from "../../../../sandbox/market/schema.ts";
import { columnTypes, rowTexts } from "./polarsExpected.ts";
import { csvCellsValid, jsonCellsValid } from "./wireValid.ts";

export const FORMATS = ["json", "csv", "csv_gzip"] as const;
export type Format = (typeof FORMATS)[number];

/** The media type each format is served with (parameters such as charset aside). */
export const MEDIA_TYPES: Record<Format, string> = { json: "application/json", csv: "text/csv", csv_gzip: "application/gzip" };

interface Pagination {
  offset: number;
  limit: number;
  next_offset: number | null;
}

/** A response body as columns and canonical rows; `pagination` and `keys` only for JSON. */
export interface WireTable {
  format: Format;
  dataset: Dataset;
  columns: string[];
  /** Number of rows. */
  height: number;
  /** Canonical rows, built on first use (they are costly and rarely needed). */
  readonly rows: string[];
  /** JSON only: the records of `data`, as parsed. */
  records?: Record<string, unknown>[];
  /** CSV only: the body as Polars read it, every column as text. */
  frame?: pl.DataFrame;
  pagination?: Pagination;
  /** Top-level keys of the JSON envelope. */
  keys?: string[];
  /** The body as text (decompressed for csv_gzip). */
  text: string;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d+)([+-])(\d{2}):(\d{2})$/;

/**
 * Epoch nanoseconds and the UTC offset of an ISO 8601 date-time with fractional seconds and
 * a `±HH:MM` offset, as the service writes them; throws on anything else.
 *
 * @example
 * ```ts
 * isoDateTime("2023-11-20T04:00:00.000000000-05:00"); // { epochNs: 1700470800000000000n, offset: "-05:00", digits: 9 }
 * ```
 */
export function isoDateTime(text: string): { epochNs: bigint; offset: string; digits: number } {
  const m = ISO.exec(text);
  if (!m) throw new Error(`'${text}' is not an ISO 8601 date-time with fractional seconds and an offset`);
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const offsetMinutes = (m[8] === "-" ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10]));
  const utcMs = Date.UTC(y, mo - 1, d, h, mi, s) - offsetMinutes * 60_000;
  return {
    epochNs: BigInt(utcMs) * 1_000_000n + BigInt(m[7].padEnd(9, "0").slice(0, 9)),
    offset: `${m[8]}${m[9]}:${m[10]}`,
    digits: m[7].length,
  };
}

const FLOAT_TEXT = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** One cell in canonical form; `where` names it in errors. */
function canonicalCell(type: ColumnType, value: unknown, fromCsv: boolean, where: () => string): string | null {
  if (value === null) return null;
  const bad = (why: string): never => {
    throw new Error(`${where()}: ${why}: ${JSON.stringify(value)}`);
  };
  switch (type) {
    case "date":
      if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) bad("not a YYYY-MM-DD date");
      return value as string;
    case "datetime_ns":
    case "datetime_ms": {
      if (typeof value !== "string") return bad("not a date-time string");
      let parsed: ReturnType<typeof isoDateTime>;
      try {
        parsed = isoDateTime(value);
      } catch {
        return bad("not an ISO 8601 date-time with fractional seconds and an offset");
      }
      if (parsed.digits !== (type === "datetime_ns" ? 9 : 3)) bad(`fractional seconds are not ${type === "datetime_ns" ? 9 : 3} digits`);
      return String(parsed.epochNs);
    }
    case "int64":
      if (fromCsv) return /^-?\d+$/.test(value as string) ? (value as string) : bad("not an integer literal");
      return typeof value === "number" && Number.isSafeInteger(value) ? String(value) : bad("not an exact integer");
    case "float64":
      if (fromCsv) return FLOAT_TEXT.test(value as string) ? String(Number(value)) : bad("not a number literal");
      return typeof value === "number" ? String(value) : bad("not a number");
    case "string":
      return typeof value === "string" ? value : bad("not a string");
    case "list_string":
      if (fromCsv) return JSON.stringify(JSON.parse(value as string));
      return Array.isArray(value) ? JSON.stringify(value) : bad("not an array");
  }
}

function typesOf(dataset: Dataset, columns: string[]): ColumnType[] {
  const types = columnTypes(dataset);
  return columns.map((c) =>
    types.get(c) ?? (() => {
      throw new Error(`Response column '${c}' is not in the catalog of ${dataset.textId}`);
    })()
  );
}

/** Canonical rows of JSON records; throws naming the first bad cell (column by column). */
function jsonRows(data: Record<string, unknown>[], columns: string[], dataset: Dataset): string[] {
  const types = typesOf(dataset, columns);
  const cells = columns.map((name, j) =>
    data.map((record, i) => {
      if (!(name in record)) throw new Error(`${dataset.textId} row ${i}: column ${name} is missing`);
      return canonicalCell(types[j], record[name], false, () => `${dataset.textId} row ${i} column ${name}`);
    })
  );
  data.forEach((record, i) => {
    if (Object.keys(record).length !== columns.length) {
      throw new Error(`${dataset.textId} row ${i} has columns ${Object.keys(record).join(",")}`);
    }
  });
  return rowTexts(cells, data.length);
}

/** A table whose canonical rows are computed once, when first read. */
function lazyRows<T extends Omit<WireTable, "rows">>(table: T, compute: () => string[]): T & WireTable {
  let rows: string[] | undefined;
  return Object.defineProperty(table, "rows", { get: () => (rows ??= compute()), enumerable: true }) as T & WireTable;
}

/** A JSON envelope `{data, pagination}` as a table. */
function jsonTable(text: string, dataset: Dataset): WireTable {
  const body = JSON.parse(text) as { data: Record<string, unknown>[]; pagination: Pagination };
  const columns = body.data.length > 0 ? Object.keys(body.data[0]) : [];
  const types = typesOf(dataset, columns);
  const compute = () => jsonRows(body.data, columns, dataset);
  // A body the quick check doubts is read cell by cell now, which throws naming the bad cell.
  if (!jsonCellsValid(body.data, columns, types)) compute();
  const table = {
    format: "json" as const,
    dataset,
    columns,
    height: body.data.length,
    records: body.data,
    pagination: body.pagination,
    keys: Object.keys(body),
    text,
  };
  return lazyRows(table, compute);
}

/** Canonical rows of a CSV body read as text; throws naming the first bad cell (column by column). */
function csvRows(frame: pl.DataFrame, dataset: Dataset): string[] {
  const types = typesOf(dataset, frame.columns);
  const cells = frame.columns.map((name, j) =>
    (frame.getColumn(name).toArray() as (string | null)[]).map((v, i) =>
      canonicalCell(types[j], v, true, () => `${dataset.textId} CSV row ${i} column ${name}`)
    )
  );
  return rowTexts(cells, frame.height);
}

/** A CSV body as a table, parsed by Polars with every column as text (empty field = null). */
function csvTable(body: Uint8Array | string, dataset: Dataset, format: "csv" | "csv_gzip" = "csv"): WireTable {
  const bytes = typeof body === "string" ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const frame = pl.readCSV(bytes, { inferSchemaLength: 0 });
  const types = typesOf(dataset, frame.columns);
  const compute = () => csvRows(frame, dataset);
  // A body the vectorised check doubts is read cell by cell now, which throws naming the bad cell.
  if (!csvCellsValid(frame, types)) compute();
  const table = { format, dataset, columns: frame.columns, height: frame.height, frame, text: "" };
  let text: string | undefined;
  Object.defineProperty(table, "text", {
    get: () => (text ??= typeof body === "string" ? body : new TextDecoder().decode(body)),
    enumerable: true,
  });
  return lazyRows(table, compute);
}

/** The body of a response in a format as a table. */
export function wireTable(bytes: Uint8Array, format: Format, dataset: Dataset): WireTable {
  if (format === "json") return jsonTable(new TextDecoder().decode(bytes), dataset);
  return csvTable(format === "csv_gzip" ? gunzipSync(bytes) : bytes, dataset, format);
}
