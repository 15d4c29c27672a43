/**
 * The filter operators of a column by its type: what the query parser accepts and what the
 * OpenAPI document lists for each filter parameter (api/params.ts, api/routes.ts).
 */
import type { ColumnType } from "../../market/schema.ts";

/** Operators a column's type supports: like/ilike on text only, equality (containment) only on lists. */
export function operatorsOf(type: ColumnType): readonly string[] {
  if (type === "list_string") return ["eq"];
  return type === "string" ? ["eq", "gt", "ge", "lt", "le", "in", "like", "ilike"] : ["eq", "gt", "ge", "lt", "le", "in"];
}
