/**
 * Column types of the market's datasets: the one definition that drives both the types the
 * generator writes to Parquet and the `/columns` answer of the service.
 */
import type pl from "nodejs-polars";
import type { ColumnType } from "../../contract/meta.ts";
import { polarsTypeOf, WIRE_TIME_ZONE } from "../../contract/polarsTypes.ts";

export type { ColumnType } from "../../contract/meta.ts";

/** One column of a dataset's schema. */
export interface Column {
  name: string;
  type: ColumnType;
  description: string;
  nullable: boolean;
}

/** The time zone every date-time of the market is expressed in. */
export const MARKET_TIME_ZONE = WIRE_TIME_ZONE;

/** The Polars data type a column type is stored as (the contract's one map, shared with the workbench). */
export function polarsType(type: ColumnType): pl.DataType {
  return polarsTypeOf(type);
}

/** Shorthand used by the catalog: `col("Volume", "int64", "shares excluding TRF trades")`. */
export function col(name: string, type: ColumnType, description: string, nullable = false): Column {
  return { name, type, description, nullable };
}
