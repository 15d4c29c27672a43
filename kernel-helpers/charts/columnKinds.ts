/**
 * What kind of values a chart's column must hold, checked before drawing: a time series over a
 * Strike column draws nothing but its axes, so it is refused by name with the chart that fits.
 */
import type pl from "nodejs-polars";
import { ChartOptionError } from "./chartOptionError.ts";

/** The kinds of column a chart axis takes. */
export type ColumnKind = "temporal" | "number";

const KINDS: Record<ColumnKind, { variants: RegExp; says: string }> = {
  temporal: { variants: /^(Date|Datetime)$/, says: "a Date or Datetime column" },
  number: { variants: /^(Int|UInt|Float)\d+$|^Decimal$/, says: "a number column" },
};

/**
 * Refuses a column of the wrong kind for `option`, naming its type and what fits instead
 * (`hint`). A column the frame lacks is left to `records`, which lists the frame's columns.
 *
 * @example
 * ```ts
 * checkColumnKind(smile, "Strike", "temporal", "timeSeriesChart", "x", "for a value by strike use smileChart");
 * // ChartOptionError: timeSeriesChart draws over time: x 'Strike' is a Float64 column, not a Date or Datetime column; for a value by strike ...
 * ```
 */
export function checkColumnKind(frame: pl.DataFrame, column: string, kind: ColumnKind, helper: string, option: string, hint: string): void {
  if (!frame.columns.includes(column)) return;
  const variant = frame.getColumn(column).dtype.variant;
  if (KINDS[kind].variants.test(variant)) return;
  const purpose = kind === "temporal" ? `${helper} draws over time` : `${helper} places ${option} by its value`;
  throw new ChartOptionError(
    option,
    `${purpose}: ${option} '${column}' is a${/^[AEIOU]/.test(variant) ? "n" : ""} ${variant} column, not ${KINDS[kind].says}; ${hint}`,
  );
}
