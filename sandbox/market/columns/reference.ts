/** Column schema of the equity reference dataset. */
import { col, type Column } from "../schema.ts";

export const EQ_LOOKUP_FILES_COLUMNS: Column[] = [
  col("Ticker", "string", "equity ticker"),
  col("EndDate", "date", "last calendar day the ticker maps to SecId; 2999-12-31 while in use"),
  col("SecId", "int64", "persistent security identifier (the ASID of the equity datasets)"),
];
