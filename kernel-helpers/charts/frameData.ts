/**
 * Frames to the plain records Plot draws. Date-times become their New York wall clock as UTC
 * instants, and charts use UTC scales, so axes read in New York time whatever the machine's
 * time zone (and renders are the same on every machine).
 */
import pl from "nodejs-polars";
import { ChartOptionError } from "./chartOptionError.ts";
import { shownValues, valueText } from "./numberText.ts";

/** Where a record keeps its numbers as the table shows them (hover titles read them with `shown`). */
const SHOWN = Symbol("shown");

/**
 * The rows of `columns` as records; `asText` columns holding dates become "YYYY-MM-DD" (facets
 * and series are labelled by day). Each record also keeps its numbers as the table shows them,
 * for hover titles (`shown`).
 *
 * @example
 * ```ts
 * records(bars, ["BarDateTime", "ClosePrice"]); // [{ BarDateTime: Date(wall clock as UTC), ClosePrice: 190.6 }, ...]
 * ```
 */
export function records(frame: pl.DataFrame, columns: readonly string[], asText: readonly string[] = []): Record<string, unknown>[] {
  const missing = [...new Set(columns)].filter((c) => !frame.columns.includes(c));
  if (missing.length) {
    throw new ChartOptionError(
      missing[0],
      `The frame has no column ${missing.map((m) => `'${m}'`).join(", ")}: it has ${frame.columns.join(", ")}`,
    );
  }
  const exprs = columns.map((c) => {
    const dtype = frame.getColumn(c).dtype;
    if (dtype.variant === "Datetime") {
      const zoned = String(dtype).includes(",");
      return (zoned ? pl.col(c).dt.replaceTimeZone("UTC") : pl.col(c)).cast(pl.Datetime("ms", "UTC")).alias(c);
    }
    return pl.col(c);
  });
  const rows = frame.select(...[...new Map(columns.map((c, i) => [c, exprs[i]])).values()]).toRecords();
  const dated = asText.filter((c) => frame.getColumn(c).dtype.variant === "Date" || frame.getColumn(c).dtype.variant === "Datetime");
  const texts = shownValues(frame, columns);
  return rows.map((r, i) => {
    const out: Record<string | symbol, unknown> = { ...r };
    for (const c of dated) if (out[c] instanceof Date) out[c] = (out[c] as Date).toISOString().slice(0, 10);
    if (texts.size > 0) out[SHOWN] = Object.fromEntries([...texts].map(([c, values]) => [c, values[i]]));
    return out as Record<string, unknown>;
  });
}

/**
 * A record's value of `column` as the table shows it (the column's decimals, separators), for
 * hover titles: "3.8", never "3.8000000000000003".
 *
 * @example
 * ```ts
 * const [first] = records(frame, ["TradeDate", "Range"]);
 * shown(first, "Range"); // "3.80"
 * ```
 */
export function shown(record: Record<string, unknown>, column: string): string {
  const texts = (record as Record<symbol, Record<string, string | null> | undefined>)[SHOWN];
  return valueText(record[column], texts?.[column]);
}

/** Minutes after midnight (with their fraction) of a New York wall-clock UTC instant. */
export const minuteOfDay = (d: Date) =>
  d.getUTCHours() * 60 + d.getUTCMinutes() + (d.getUTCSeconds() * 1000 + d.getUTCMilliseconds()) / 60_000;

/** "09:30" for 570 minutes after midnight. */
export const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(Math.round(minutes % 60)).padStart(2, "0")}`;
