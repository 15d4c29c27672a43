/**
 * The one map from the service's column types to Polars types: the sandbox writes its Parquet
 * files with it and the workbench types every page with it, so the two cannot drift apart.
 */
import pl from "nodejs-polars";
import type { ColumnType } from "./meta.ts";

/** The time zone every date-time of the service is expressed in. */
export const WIRE_TIME_ZONE = "America/New_York";

/**
 * The Polars data type of a column type.
 *
 * @example
 * ```ts
 * import { polarsTypeOf } from "./contract/polarsTypes.ts";
 * polarsTypeOf("datetime_ns"); // Datetime("ns", "America/New_York")
 * ```
 */
export function polarsTypeOf(type: ColumnType): pl.DataType {
  switch (type) {
    case "date":
      return pl.Date;
    case "datetime_ns":
      return pl.Datetime("ns", WIRE_TIME_ZONE);
    case "datetime_ms":
      return pl.Datetime("ms", WIRE_TIME_ZONE);
    case "int64":
      return pl.Int64;
    case "float64":
      return pl.Float64;
    case "string":
      return pl.String;
    case "list_string":
      return pl.List(pl.String);
  }
}
