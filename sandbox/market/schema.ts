/**
 * Column types of the market's datasets: the one definition that drives both the types the
 * generator writes to Parquet (through the contract's one map, contract/polarsTypes.ts) and the
 * `/columns` answer of the service. Without Polars: the catalog is read where no frame is made
 * (the serving process's main thread, the demo accounts' set-up).
 */
import type { ColumnType } from "../../contract/meta.ts";

export type { ColumnType } from "../../contract/meta.ts";

/** One column of a dataset's schema. */
export interface Column {
  name: string;
  type: ColumnType;
  description: string;
  nullable: boolean;
}

/** Shorthand used by the catalog: `col("Volume", "int64", "shares excluding TRF trades")`. */
export function col(name: string, type: ColumnType, description: string, nullable = false): Column {
  return { name, type, description, nullable };
}
