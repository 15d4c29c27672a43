/**
 * Writes a page in the requested format. Dates are `YYYY-MM-DD`; date-times ISO 8601 in New
 * York time with their offset and the column's precision; nulls are JSON null or an empty CSV
 * field; integers stay exact (also beyond 2^53); list columns are JSON arrays (in CSV, a JSON
 * array in one quoted field).
 */
import pl, { type CsvWriterOptions } from "nodejs-polars";
import { Buffer } from "node:buffer";
import { Writable } from "node:stream";
import { gzipSync } from "node:zlib";
import type { Dataset } from "../../market/catalog.ts";
import type { ResponseFormat } from "./parse.ts";
import { RESPONSE_CONTENT_TYPES } from "../../../contract/formats.ts";
import type { ResultSlice } from "./resultCache.ts";
import { csvPage, jsonPage, writeResult, type WrittenResult, writtenResult } from "./writtenResults.ts";

export interface Rendered {
  /**
   * The body in the chunks Polars wrote it in (one for most answers), to be sent one after the
   * other: joining a page of megabytes into one buffer copied it into fresh memory, whose page
   * faults cost the sandbox about a third of writing the CSV.
   */
  chunks: Uint8Array[];
  /** Bytes of the body: of its chunks together. */
  byteLength: number;
  contentType: string;
  headers: Record<string, string>;
}

/** A Writable that keeps what Polars writes into it as it comes, chunk by chunk. */
class Chunks extends Writable {
  readonly chunks: Uint8Array[] = [];
  byteLength = 0;

  // Polars calls write synchronously, once a batch of rows, with a buffer it does not reuse.
  override write(chunk: Uint8Array): boolean {
    this.chunks.push(bytesOf(chunk as Buffer));
    this.byteLength += chunk.byteLength;
    return true;
  }
}

/** A frame's CSV (header line included) as Polars writes it, in its chunks: the bytes of `frame.writeCSV(options)`. */
function csvChunks(frame: pl.DataFrame, options: CsvWriterOptions = {}): Chunks {
  const out = new Chunks();
  frame.writeCSV(out, options);
  return out;
}

/** A frame's rows as one JSON array, as Polars writes it, in its chunks: the bytes of `frame.writeJSON({ format: "json" })`. */
function jsonChunks(frame: pl.DataFrame): Chunks {
  const out = new Chunks();
  frame.writeJSON(out, { format: "json" });
  return out;
}

/** One body of one chunk. */
const single = (body: Uint8Array): Pick<Rendered, "chunks" | "byteLength"> => ({ chunks: [body], byteLength: body.byteLength });

const FORMAT_OF = { date: "%Y-%m-%d", datetime_ns: "%Y-%m-%dT%H:%M:%S%.9f%:z", datetime_ms: "%Y-%m-%dT%H:%M:%S%.3f%:z" } as const;

/**
 * The date and date-time columns among `columns` as text, as the page writes them. The engine
 * applies these inside the query (see execute.ts), where they cost less than on the page.
 */
export function temporalAsText(columns: readonly string[], dataset: Dataset): pl.Expr[] {
  const types = new Map(dataset.columns.map((c) => [c.name, c.type]));
  return columns.flatMap((name) => {
    const type = types.get(name);
    return type === "date" || type === "datetime_ns" || type === "datetime_ms" ? [pl.col(name).dt.strftime(FORMAT_OF[type])] : [];
  });
}

/** Frames whose date and date-time columns the engine already turned into text. */
const temporalText = new WeakSet<pl.DataFrame>();

/** Notes that a frame's temporal columns are text already (see temporalAsText); returns it. */
export function markTemporalAsText(frame: pl.DataFrame): pl.DataFrame {
  temporalText.add(frame);
  return frame;
}

/**
 * The first `rows` rows of a page, its temporal columns still known as text when they were.
 *
 * @example
 * ```ts
 * renderPage(firstRowsOf(frame, 100), dataset, "json", pagination);
 * ```
 */
export function firstRowsOf(frame: pl.DataFrame, rows: number): pl.DataFrame {
  if (rows >= frame.height) return frame;
  const head = frame.head(rows);
  return temporalText.has(frame) ? markTemporalAsText(head) : head;
}

/**
 * How a page is written as CSV: the CSV writer formats dates, and date-times of one precision,
 * itself (the same bytes as the text of `temporalAsText`, for less CPU than making that
 * text first); date-times of another precision in the same page become text, as do lists.
 */
function csvWriting(frame: pl.DataFrame, dataset: Dataset): { frame: pl.DataFrame; options: CsvWriterOptions } {
  if (temporalText.has(frame)) return { frame: textual(frame, dataset, true), options: {} };
  const types = new Map(dataset.columns.map((c) => [c.name, c.type]));
  const firstDatetime = frame.columns.map((name) => types.get(name)).find((t) => t === "datetime_ns" || t === "datetime_ms");
  const options: CsvWriterOptions = { dateFormat: FORMAT_OF.date, ...(firstDatetime ? { datetimeFormat: FORMAT_OF[firstDatetime] } : {}) };
  return { frame: textual(frame, dataset, true, (type) => type === "date" || type === firstDatetime), options };
}

/**
 * The page with temporal columns as text (unless marked so already, or `written` says the
 * writer formats that type) and, for CSV, lists as JSON text.
 */
function textual(frame: pl.DataFrame, dataset: Dataset, forCsv: boolean, written: (type: string) => boolean = () => false): pl.DataFrame {
  const types = new Map(dataset.columns.map((c) => [c.name, c.type]));
  const done = temporalText.has(frame);
  const exprs = frame.columns.flatMap((name) => {
    const type = types.get(name)!;
    if (type === "date" || type === "datetime_ns" || type === "datetime_ms") {
      return done || written(type) ? [] : [pl.col(name).dt.strftime(FORMAT_OF[type])];
    }
    if (type === "list_string" && forCsv) {
      // List items are plain codes (no quotes or backslashes), so quoting them makes valid JSON.
      const joined = pl.concatString([pl.lit('["'), pl.col(name).lst.join('","'), pl.lit('"]')], "");
      return [pl.when(pl.col(name).lst.lengths().eq(0)).then(pl.lit("[]")).otherwise(joined).alias(name)];
    }
    return [];
  });
  return exprs.length > 0 ? frame.withColumns(...exprs) : frame;
}

/** The Content-Type of each response format (the contract's). */
export const CONTENT_TYPES: Readonly<Record<ResponseFormat, string>> = RESPONSE_CONTENT_TYPES;

/** The whole result of `slice`, written in the format's lines (from `whole` when this worker has not written it yet). */
export function writtenLines(slice: { key: string; whole?: pl.DataFrame }, dataset: Dataset, json: boolean): WrittenResult | undefined {
  const key = `${slice.key}\u0000${json ? "json" : "csv"}`;
  const { whole } = slice;
  if (!whole) return writtenResult(key);
  return writeResult(
    key,
    () => (json ? textual(whole, dataset, false).writeJSON({ format: "lines" }) : textual(whole, dataset, true).writeCSV()),
    json ? 0 : 1,
  );
}

/**
 * A page cut from its query's written whole result, as the body of its answer.
 *
 * @example
 * ```ts
 * const written = writtenLines({ key }, dataset, false);
 * if (written) renderWritten(written, dataset, "csv", { from: 0, rows: 100 }, { offset: 0, limit: 100, next_offset: 100 });
 * ```
 */
export function renderWritten(
  written: WrittenResult,
  dataset: Dataset,
  format: ResponseFormat,
  slice: { from: number; rows: number },
  pagination: { offset: number; limit: number; next_offset: number | null },
): Rendered {
  if (format === "json") {
    const after = Buffer.from(`,"pagination":${JSON.stringify(pagination)}}`);
    return { ...single(jsonPage(written, slice.from, slice.rows, DATA_OPEN, after)), contentType: CONTENT_TYPES.json, headers: {} };
  }
  return csvBody(single(csvPage(written, slice.from, slice.rows)), dataset, format);
}

const DATA_OPEN = Buffer.from('{"data":');

/**
 * A Buffer's bytes as a plain Uint8Array, without copying them (`new Uint8Array(buffer)` copies,
 * which for a page of megabytes costs about a third of writing it).
 */
const bytesOf = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/**
 * The gzip level of `csv_gzip` pages. A client asks for them where bytes cost more than CPU (a
 * line slower than both ends can compress and decompress), and there the compressor must keep
 * ahead of the line on cores it shares with the client: the default level (6) costs several
 * times the CPU of level 2 for a few percent fewer bytes. Level 1 of Deno's zlib is a quick mode
 * of its own that gives up about a third of the ratio, more than it saves.
 */
const GZIP_LEVEL = 2;

function csvBody(csv: Pick<Rendered, "chunks" | "byteLength">, dataset: Dataset, format: ResponseFormat): Rendered {
  if (format === "csv") return { ...csv, contentType: CONTENT_TYPES.csv, headers: {} };
  return {
    ...single(bytesOf(gzipSync(csv.chunks.length === 1 ? csv.chunks[0] : Buffer.concat(csv.chunks), { level: GZIP_LEVEL }))),
    contentType: CONTENT_TYPES.csv_gzip,
    headers: { "Content-Disposition": `attachment; filename="${dataset.textId}.csv.gz"` },
  };
}

/**
 * A page as the body of its answer, in `format`; `slice` says where it lies in its query's
 * cached whole result, when it was cut from one (the page is then written from that
 * result's cached lines).
 *
 * @example
 * ```ts
 * const { body, contentType } = renderPage(page.frame, dataset, "csv", { offset: 0, limit: 100, next_offset: 100 }, page.slice);
 * ```
 */
export function renderPage(
  frame: pl.DataFrame,
  dataset: Dataset,
  format: ResponseFormat,
  pagination: { offset: number; limit: number; next_offset: number | null },
  slice?: ResultSlice,
): Rendered {
  if (slice) {
    // Cut from the whole result's written lines: the same bytes as writing the page alone.
    const written = writtenLines(slice, dataset, format === "json")!;
    return renderWritten(written, dataset, format, { from: slice.from, rows: frame.height }, pagination);
  }
  if (format === "json") {
    // Bytes end to end: decoding megabytes of JSON to a string and encoding it back costs more than writing it.
    const rows = frame.height === 0 ? single(Buffer.from("[]")) : jsonChunks(textual(frame, dataset, false));
    const after = Buffer.from(`,"pagination":${JSON.stringify(pagination)}}`);
    return {
      chunks: [DATA_OPEN, ...rows.chunks, after],
      byteLength: DATA_OPEN.byteLength + rows.byteLength + after.byteLength,
      contentType: CONTENT_TYPES.json,
      headers: {},
    };
  }
  const csv = csvWriting(frame, dataset);
  return csvBody(csvChunks(csv.frame, csv.options), dataset, format);
}
