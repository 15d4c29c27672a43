/** Records of /api/v1/meta/datasets, /{id}/status and /{id}/columns. */
import { z } from "zod";
import { WireDate, WireDateTime, WireInteger } from "./wire.ts";

/** One entry of GET /api/v1/meta/datasets. */
export const DatasetRecord: z.ZodObject<
  { dataset_id: z.ZodString; dataset_text_id: z.ZodString; dataset_name: z.ZodString; data_group: z.ZodString; vendor: z.ZodString }
> = z.object({
  dataset_id: z.string(),
  dataset_text_id: z.string().meta({ description: "The id used in URLs, e.g. eq-taq-1min" }),
  dataset_name: z.string(),
  data_group: z.string(),
  vendor: z.string(),
}).meta({ id: "Dataset", description: "A dataset this identity may reach" });

/** GET /api/v1/meta/datasets. */
export const DatasetList: z.ZodArray<typeof DatasetRecord> = z.array(DatasetRecord).meta({
  id: "DatasetList",
  description: "Datasets this identity may reach",
});

/**
 * GET /api/v1/meta/datasets/{id}/status. Fields beyond these are allowed (a service may add some).
 *
 * @ignore the schema itself stays out of the workbench's docs (deno doc cannot type a zod
 * schema); the type of the same name documents the record.
 */
export const DatasetStatus = z.looseObject({
  dataset_id: z.string(),
  dataset_text_id: z.string(),
  status: z.string().meta({ description: "e.g. available" }),
  first_available_date: WireDate.nullable().meta({ description: "First date with data; null when empty" }),
  last_available_date: WireDate.nullable().meta({ description: "Last date with data; null when empty" }),
  last_updated: WireDateTime.meta({ description: "When the data last changed" }),
  row_count: WireInteger.meta({ description: "Rows in the dataset (the default variant's)" }),
  ticker_count: WireInteger.optional().meta({
    description: "Distinct tickers (option roots for option datasets), renamed ones included, within the identity's access rule",
  }),
  variants: z.record(z.string(), z.array(z.string())).optional().meta({
    description: "Variant parameter to its values, e.g. {aggregation_logic: [core, no_finra_trf]}",
  }),
}).meta({ id: "DatasetStatus", description: "Availability and last update of a dataset" });

/** The column types the service reports. */
export const COLUMN_TYPES = ["date", "datetime_ns", "datetime_ms", "int64", "float64", "string", "list_string"] as const;
/** A column's type as the service names it. */
export const ColumnType: z.ZodEnum<{ [K in (typeof COLUMN_TYPES)[number]]: K }> = z.enum(COLUMN_TYPES).meta({
  id: "ColumnType",
  description: "date (YYYY-MM-DD), datetime_ns/datetime_ms (New York time), int64, float64, string, list_string",
});

/**
 * One entry of GET /api/v1/meta/datasets/{id}/columns.
 *
 * @ignore the schema itself stays out of the workbench's docs (deno doc cannot type a zod
 * schema); the type of the same name documents the record.
 */
export const ColumnRecord = z.object({
  name: z.string().meta({ description: "Case-sensitive column name" }),
  data_type: ColumnType,
  description: z.string().optional(),
  nullable: z.boolean().optional().meta({ description: "Whether values may be null (absent: may be)" }),
  time_zone: z.string().optional().meta({ description: "Time zone of a date-time column, e.g. America/New_York" }),
}).meta({ id: "Column", description: "One column of a dataset's schema" });

/** GET /api/v1/meta/datasets/{id}/columns. */
export const ColumnList: z.ZodArray<typeof ColumnRecord> = z.array(ColumnRecord).meta({
  id: "ColumnList",
  description: "A dataset's column schema",
});

/** One dataset this identity may reach: `dataset_id`, `dataset_text_id` (the id in URLs), `dataset_name`, `data_group`, `vendor`. */
export type DatasetRecord = z.infer<typeof DatasetRecord>;
/**
 * A dataset's availability (GET /api/v1/meta/datasets/{id}/status): `dataset_id`,
 * `dataset_text_id`, `status` (e.g. `available`), `first_available_date` and
 * `last_available_date` (null when empty), `last_updated` (when the data last changed),
 * `row_count`, and when given `ticker_count` and `variants` (e.g. `{ aggregation_logic:
 * ["core", "no_finra_trf"] }`). A service may add fields.
 */
export type DatasetStatus = z.infer<typeof DatasetStatus>;
/** A column type the service reports: `date`, `datetime_ns`, `datetime_ms`, `int64`, `float64`, `string` or `list_string`. */
export type ColumnType = z.infer<typeof ColumnType>;
/**
 * One column of a dataset's schema (GET /api/v1/meta/datasets/{id}/columns): `name`
 * (case-sensitive), `data_type` (`date`, `datetime_ns`, `datetime_ms`, `int64`, `float64`,
 * `string` or `list_string`), and when given `description`, `nullable` (absent: may be null)
 * and `time_zone` (of a date-time column, e.g. America/New_York).
 */
export type ColumnRecord = z.infer<typeof ColumnRecord>;
