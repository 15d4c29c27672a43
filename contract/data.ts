/**
 * Data pages of /api/v1/data/...: the JSON envelope `{data: [record...], pagination}`, the
 * pagination headers, and `recordSchema(columns)`, which builds a record's schema from a
 * column list (the `/columns` answer or the catalog), so a record can never drift from it.
 */
import { z } from "zod";
import type { ColumnType } from "./meta.ts";
import { WireDate, WireDateTime, WireInteger } from "./wire.ts";

/** The `pagination` member of a JSON page. */
export const Pagination: z.ZodObject<
  { offset: typeof WireInteger; limit: typeof WireInteger; next_offset: z.ZodNullable<typeof WireInteger> }
> = z.object({
  offset: WireInteger.meta({ description: "Records skipped" }),
  limit: WireInteger.meta({ description: "Records asked for" }),
  next_offset: WireInteger.nullable().meta({ description: "Offset of the next page; null on the last page" }),
}).meta({ id: "Pagination", description: "Where this page sits and where the next starts" });

const digits = z.string().regex(/^\d+$/, { message: "Expected a whole number" });

/** The pagination headers the sandbox sends (a real service may send none: each is optional). */
export const PaginationHeaders: z.ZodObject<{
  "x-pagination-offset": z.ZodOptional<z.ZodString>;
  "x-pagination-limit": z.ZodOptional<z.ZodString>;
  "x-pagination-next-offset": z.ZodOptional<z.ZodUnion<readonly [z.ZodString, z.ZodLiteral<"">]>>;
}> = z.object({
  "x-pagination-offset": digits.optional(),
  "x-pagination-limit": digits.optional(),
  "x-pagination-next-offset": z.union([digits, z.literal("")]).optional().meta({ description: "Empty on the last page" }),
}).meta({ id: "PaginationHeaders", description: "X-Pagination-Offset, -Limit, -Next-Offset (lower-cased names)" });

/** A column as recordSchema needs it (the `/columns` record has these fields). */
export interface RecordColumn {
  /** The column's name, as records carry it. */
  name: string;
  /** Its type: the schema its values must fit. */
  data_type: ColumnType;
  /** What it holds, carried into the schema's metadata. */
  description?: string;
  /** Absent means the column may be null. */
  nullable?: boolean;
}

const VALUE_SCHEMAS: Record<ColumnType, () => z.ZodType> = {
  date: () => WireDate,
  datetime_ns: () => WireDateTime,
  datetime_ms: () => WireDateTime,
  int64: () => WireInteger,
  float64: () => z.number(),
  string: () => z.string(),
  list_string: () => z.array(z.string()),
};

/**
 * The schema of one record with these columns (in that order): every column present, a
 * nullable column also accepting null, no other key.
 *
 * @example
 * ```ts
 * const Bar = recordSchema([{ name: "Ticker", data_type: "string", nullable: false }, { name: "Volume", data_type: "int64" }]);
 * Bar.parse({ Ticker: "AAPL", Volume: null }); // ok: Volume's nullable is absent, so it may be null
 * ```
 */
export function recordSchema(columns: readonly RecordColumn[], id?: string): z.ZodObject<Record<string, z.ZodType>, z.core.$strict> {
  const shape = Object.fromEntries(columns.map((c) => {
    const value = VALUE_SCHEMAS[c.data_type]();
    const field = c.nullable === false ? value : value.nullable();
    return [c.name, c.description ? field.meta({ description: c.description }) : field];
  }));
  const schema = z.strictObject(shape);
  return id ? schema.meta({ id, description: `One record of ${id}` }) : schema;
}

/** A JSON page's schema: its records (checked by `T`, or any object) and its pagination. */
export type DataEnvelopeSchema<T extends z.ZodType = z.ZodType> = z.ZodObject<
  { data: z.ZodArray<T | z.ZodRecord<z.ZodString, z.ZodUnknown>>; pagination: typeof Pagination }
>;

/**
 * The JSON page envelope around a record schema (default: records not checked field by field).
 *
 * @example
 * ```ts
 * dataEnvelope(recordSchema(columns)).parse(JSON.parse(body));
 * ```
 */
export function dataEnvelope<T extends z.ZodType>(record?: T): DataEnvelopeSchema<T> {
  return z.object({
    data: z.array(record ?? z.record(z.string(), z.unknown())),
    pagination: Pagination,
  });
}

/** The envelope with records unchecked: what the workbench validates on every JSON page. */
export const DataEnvelope: DataEnvelopeSchema = dataEnvelope().meta({
  id: "DataEnvelope",
  description: "One page: data (records) and pagination",
});
