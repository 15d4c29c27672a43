/**
 * Reads a data response body the way a client would (JSON, CSV parsed by Polars with every
 * column as text, gzip-compressed CSV) into the canonical rows of polarsExpected.ts. Every
 * cell is checked against its column type on the way: a date that is not `YYYY-MM-DD`, a
 * date-time that is not ISO 8601 with the column's fractional digits and an offset, an
 * integer written with a point or an exponent, or a JSON value of the wrong kind throws,
 * naming the column, the row and the value.
 */
import { gunzipSync } from "node:zlib";
import pl from "nodejs-polars";
import type { Dataset } from "../../../../sandbox/market/catalog.ts";
import type { ColumnType } from "../../../../sandbox/market/schema.ts";
import { columnTypes, rowTexts } from "./polarsExpected.ts";

export const FORMATS = ["json", "csv", "csv_gzip"] as const;
export type Format = (typeof FORMATS)[number];

/** The media type each format is served with (parameters such as charset aside). */
export const MEDIA_TYPES: Record<Format, string> = { json: "application/json", csv: "text/csv", csv_gzip: "application/gzip" };

export interface Pagination {
  offset: number;
  limit: number;
  next_offset: number | null;
}

/** A response body as columns and canonical rows; `pagination` and `keys` only for JSON. */
export interface WireTable {
  columns: string[];
  rows: string[];
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
  return { epochNs: BigInt(utcMs) * 1_000_000n + BigInt(m[7].padEnd(9, "0").slice(0, 9)), offset: `${m[8]}${m[9]}:${m[10]}`, digits: m[7].length };
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
      const parsed = isoDateTime(value);
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
  return columns.map((c) => types.get(c) ?? (() => {
    throw new Error(`Response column '${c}' is not in the catalog of ${dataset.textId}`);
  })());
}

/** A JSON envelope `{data, pagination}` as a table. */
export function jsonTable(text: string, dataset: Dataset): WireTable {
  const body = JSON.parse(text) as { data: Record<string, unknown>[]; pagination: Pagination };
  const columns = body.data.length > 0 ? Object.keys(body.data[0]) : [];
  const types = typesOf(dataset, columns);
  const cells = columns.map((name, j) =>
    body.data.map((record, i) => {
      if (!(name in record)) throw new Error(`${dataset.textId} row ${i}: column ${name} is missing`);
      return canonicalCell(types[j], record[name], false, () => `${dataset.textId} row ${i} column ${name}`);
    })
  );
  body.data.forEach((record, i) => {
    if (Object.keys(record).length !== columns.length) throw new Error(`${dataset.textId} row ${i} has columns ${Object.keys(record).join(",")}`);
  });
  return { columns, rows: rowTexts(cells, body.data.length), pagination: body.pagination, keys: Object.keys(body), text };
}

/** A CSV body as a table, parsed by Polars with every column as text (empty field = null). */
export function csvTable(text: string, dataset: Dataset): WireTable {
  const frame = pl.readCSV(Buffer.from(text), { inferSchemaLength: 0 });
  const types = typesOf(dataset, frame.columns);
  const cells = frame.columns.map((name, j) =>
    (frame.getColumn(name).toArray() as (string | null)[]).map((v, i) => canonicalCell(types[j], v, true, () => `${dataset.textId} CSV row ${i} column ${name}`))
  );
  return { columns: frame.columns, rows: rowTexts(cells, frame.height), text };
}

/** The body of a response in a format as a table. */
export function wireTable(bytes: Uint8Array, format: Format, dataset: Dataset): WireTable {
  if (format === "json") return jsonTable(new TextDecoder().decode(bytes), dataset);
  const text = new TextDecoder().decode(format === "csv_gzip" ? gunzipSync(bytes) : bytes);
  return csvTable(text, dataset);
}
