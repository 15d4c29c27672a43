/**
 * Dates read out of a frame, one way for every reader. Polars hands a Date column's values to
 * JavaScript as Dates at midnight UTC (`toArray()`), and its `min()`/`max()` as days since
 * 1970 (`19713`); a Datetime column's as instants. `frameDates` gives either as ISO text
 * ("2023-12-15"; a Datetime as its wall clock with the offset, "2023-11-21T09:30:00-05:00")
 * or as JavaScript Dates: a day as its midnight UTC (read it with `toISOString()` or the
 * `getUTC…` methods, and the workbench takes it back as that day), an instant as itself.
 */
import pl from "nodejs-polars";
import { QueryError } from "../errors/base.ts";

/** How `frameDates` writes what it reads: ISO text, or JavaScript Dates. */
export type DatesAs = "iso" | "Date";

/** A value read out of a frame's date column: `min()`, `max()`, `toArray()[i]`, a record's field. */
export type DateValue = number | Date | string | null | undefined;

const DAY_MS = 86_400_000;
/** Days since 1970 below this are a Date column's `min()`/`max()` (to the year 29349); larger numbers are instants. */
const MOST_DAYS = 10_000_000;

const isSeries = (v: unknown): v is pl.Series =>
  v !== null && typeof v === "object" && typeof (v as { dtype?: unknown }).dtype === "object" &&
  typeof (v as { toArray?: unknown }).toArray === "function";

/** One value as a Date (a day at midnight UTC), refusing what is not a day. */
function dayOf(value: DateValue): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new QueryError("frameDates got an Invalid Date");
    return value;
  }
  if (typeof value === "number") {
    if (Number.isInteger(value) && Math.abs(value) < MOST_DAYS) return new Date(value * DAY_MS);
    throw new QueryError(
      `frameDates reads ${value} as days since 1970 (what a Date column's min() and max() give), and ${value} is not a whole number of days below ${MOST_DAYS}: for a Datetime column pass the column, e.g. frameDates(frame.select(pl.col("BarDateTime").min()).getColumn("BarDateTime"))`,
    );
  }
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value))) {
    return new Date(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value));
  }
  throw new QueryError(
    `frameDates cannot read ${
      JSON.stringify(value)
    } as a date: give a Date or Datetime column, or a value read out of one (a Date, days since 1970, or YYYY-MM-DD text)`,
  );
}

/** A Datetime column as ISO text in its own time zone (with the offset), fractions only where the column has them. */
function datetimeTexts(series: pl.Series): (string | null)[] {
  const name = series.name || "value";
  const zoned = String(series.dtype).includes(",");
  const frame = pl.DataFrame([series.rename(name)]);
  const full = frame.select(pl.col(name).dt.strftime(`%Y-%m-%dT%H:%M:%S%.9f${zoned ? "%:z" : ""}`)).getColumn(name)
    .toArray() as (string | null)[];
  // Keep the finest fraction any value needs, in steps of three digits.
  const fraction = (t: string) => t.slice(20, 29).replace(/0+$/, "").length;
  const digits = Math.ceil(Math.max(0, ...full.filter((t): t is string => t !== null).map(fraction)) / 3) * 3;
  return full.map((t) => (t === null ? null : `${t.slice(0, 19)}${digits ? `.${t.slice(20, 20 + digits)}` : ""}${t.slice(29)}`));
}

/** A Datetime column's instants as Dates, to the millisecond (cast in Polars: no float rounding on the way). */
function instants(series: pl.Series): (Date | null)[] {
  const name = series.name || "value";
  const zoned = String(series.dtype).includes(",");
  const at = zoned ? pl.col(name).dt.convertTimeZone("UTC").cast(pl.Datetime("ms", "UTC")) : pl.col(name).cast(pl.Datetime("ms"));
  return pl.DataFrame([series.rename(name)]).select(at).getColumn(name).toArray() as unknown as (Date | null)[];
}

/**
 * Dates read out of a frame, as ISO text (the default) or as JavaScript Dates: a whole Date or
 * Datetime column (a Series), or one value read out of one (`min()`, `max()`, `toArray()[i]`).
 *
 * @example
 * ```ts
 * const greeks = await wb.data.optGreeksDaily("AAPL", { date: "2023-12-15" });
 * frameDates(greeks.getColumn("ExpirationDate").min()); // "2023-12-22", not 19713
 * frameDates(greeks.getColumn("ExpirationDate").unique().sort()); // ["2023-12-22", "2023-12-29", ...]
 * frameDates(greeks.getColumn("TradeDate"), "Date")[0]; // a Date at midnight UTC of 2023-12-15
 * const bars = await wb.data.eqTaq1Min("AAPL", { date: "2023-11-21", columns: ["BarDateTime"] });
 * frameDates(bars.getColumn("BarDateTime"))[0]; // "2023-11-21T04:00:00-05:00"
 * ```
 */
export function frameDates(column: pl.Series, as?: "iso"): (string | null)[];
/**
 * A Date or Datetime column as JavaScript Dates: a day at its midnight UTC, an instant as itself.
 *
 * @example
 * ```ts
 * const daily = await wb.data.eqDailyOhlc("AAPL", { start: "2023-11-20", end: "2023-11-24" });
 * frameDates(daily.getColumn("TradeDate"), "Date")[0]?.toISOString(); // "2023-11-20T00:00:00.000Z"
 * ```
 */
export function frameDates(column: pl.Series, as: "Date"): (Date | null)[];
/**
 * One value read out of a date column (`min()`, `max()`, `toArray()[i]`) as YYYY-MM-DD.
 *
 * @example
 * ```ts
 * const daily = await wb.data.eqDailyOhlc("AAPL", { start: "2023-11-20", end: "2023-11-24" });
 * frameDates(daily.getColumn("TradeDate").max()); // "2023-11-24"
 * ```
 */
export function frameDates(value: DateValue, as?: "iso"): string | null;
/**
 * One value read out of a date column as a JavaScript Date (a day at its midnight UTC).
 *
 * @example
 * ```ts
 * const daily = await wb.data.eqDailyOhlc("AAPL", { start: "2023-11-20", end: "2023-11-24" });
 * frameDates(daily.getColumn("TradeDate").min(), "Date"); // 2023-11-20T00:00:00.000Z
 * ```
 */
export function frameDates(value: DateValue, as: "Date"): Date | null;
export function frameDates(source: pl.Series | DateValue, as: DatesAs = "iso"): unknown {
  if (as !== "iso" && as !== "Date") {
    throw new QueryError(`frameDates writes dates as "iso" (text) or "Date" (JavaScript Dates), not ${JSON.stringify(as)}`);
  }
  if (!isSeries(source)) {
    const day = dayOf(source);
    if (day === null || as === "Date") return day;
    return typeof source === "string" && source.length > 10 ? source : day.toISOString().slice(0, 10);
  }
  const variant = source.dtype.variant;
  if (variant === "Date") {
    const days = source.toArray() as unknown as (Date | null)[];
    return as === "Date" ? days : days.map((d) => (d === null ? null : d.toISOString().slice(0, 10)));
  }
  if (variant === "Datetime") return as === "Date" ? instants(source) : datetimeTexts(source);
  throw new QueryError(
    `frameDates reads a Date or Datetime column; '${source.name}' is ${variant}${
      variant === "String" ? ': parse it first, e.g. pl.col(name).str.strptime(pl.Date, "%Y-%m-%d")' : ""
    }`,
  );
}
