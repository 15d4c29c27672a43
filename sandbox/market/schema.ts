/**
 * Column types of the market's datasets: the one definition that drives both the types the
 * generator writes to Parquet and the `/columns` answer of the service.
 */
import pl from "nodejs-polars";

/** The column types the service knows, named as the `/columns` endpoint reports them. */
export type ColumnType =
  | "date"
  | "datetime_ns" // New York time, nanosecond precision
  | "datetime_ms" // New York time, millisecond precision
  | "int64"
  | "float64"
  | "string"
  | "list_string";

/** One column of a dataset's schema. */
export interface Column {
  name: string;
  type: ColumnType;
  description: string;
  nullable: boolean;
}

/** The time zone every date-time of the market is expressed in. */
export const MARKET_TIME_ZONE = "America/New_York";

/** The Polars data type a column type is stored as. */
export function polarsType(type: ColumnType): pl.DataType {
  switch (type) {
    case "date":
      return pl.Date;
    case "datetime_ns":
      return pl.Datetime("ns", MARKET_TIME_ZONE);
    case "datetime_ms":
      return pl.Datetime("ms", MARKET_TIME_ZONE);
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

/** Shorthand used by the catalog: `col("Volume", "int64", "shares excluding TRF trades")`. */
export function col(name: string, type: ColumnType, description: string, nullable = false): Column {
  return { name, type, description, nullable };
}
