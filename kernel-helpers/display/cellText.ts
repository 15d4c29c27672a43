/**
 * The text of each shown cell, column by column, as a researcher reads it: New York wall clock
 * at the precision the column needs (no trailing zero nanoseconds; the zone is in the header),
 * floats with the decimals the column needs (at most six, the same in every row) and
 * thousands separators, integers exact with separators (identifiers such as ASID without), nulls
 * as null.
 */
import pl from "nodejs-polars";

/** One column's display text (null for a null cell) and how it aligns. */
export interface ColumnText {
  /** Each cell's text, null for a null cell. */
  values: (string | null)[];
  /** Numbers align right, text left. */
  align: "left" | "right";
}

const NUMERIC = /^(Int|UInt)\d+$/;
const FLOAT = /^Float\d+$/;
const NESTED = ["List", "Struct", "Array"];
/** Integer columns that name things: ASID, SecId, UnderSecId, dataset_id, identity_id ... */
const IDENTIFIER = /(_id|Id|ID)$/;

/** "1234567" to "1,234,567" (exact for any length, so Int64 beyond 2^53 stays right). */
const groupThousands = (digits: string) => digits.replace(/^(-?\d+)/, (int) => int.replace(/\B(?=(\d{3})+(?!\d))/g, ","));

/** Significant digits a float type carries: beyond them the digits are binary noise (0.1 + 0.2). */
const SIGNIFICANT = { Float64: 15, Float32: 7 } as Record<string, number>;

/** Most decimals a float column shows. */
const MAX_DECIMALS = 6;

/** Decimals `x` needs (0-6), once rounded to the significant digits its type carries. */
function decimalsNeeded(x: number, significant: number): number {
  if (!Number.isFinite(x) || x === 0) return 0;
  const text = Number(x.toPrecision(significant)).toFixed(MAX_DECIMALS).replace(/\.?0+$/, "");
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : text.length - dot - 1;
}

/**
 * Float texts: one number of decimals for the whole column, as many as its most precise value
 * needs (at most six), so decimal points line up and no digit is lost below a billion; rows in
 * `whole` (counts in a summary) show integers without decimals.
 */
function floatTexts(values: (number | null)[], significant: number, whole: ReadonlySet<number> = new Set()): (string | null)[] {
  // Magnitudes fixed notation cannot show in a readable width go to exponent notation, one by one.
  const extreme = (v: number) => v !== 0 && (Math.abs(v) < 1e-6 || Math.abs(v) >= 1e15);
  const measured = values.filter((v, i): v is number => v !== null && Number.isFinite(v) && !extreme(v) && !whole.has(i));
  const decimals = Math.max(0, ...measured.map((v) => decimalsNeeded(v, significant)));
  const format = new Intl.NumberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
  return values.map((v, i) => {
    if (v === null) return null;
    if (Number.isNaN(v)) return "NaN";
    if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
    if (extreme(v)) return v.toExponential(6).replace(/\.?0+e/, "e");
    return whole.has(i) && Number.isInteger(v) ? integer.format(v) : format.format(v);
  });
}

/** Wall-clock texts cut to the finest unit any value of the column uses. */
export function datetimeTexts(full: (string | null)[]): (string | null)[] {
  const present = full.filter((v): v is string => v !== null);
  // full is "YYYY-MM-DD HH:MM:SS.fffffffff"
  const fraction = Math.max(0, ...present.map((v) => v.slice(20).replace(/0+$/, "").length));
  const digits = fraction === 0 ? 0 : Math.ceil(fraction / 3) * 3;
  const seconds = digits > 0 || present.some((v) => v.slice(17, 19) !== "00");
  const cut = digits > 0 ? 20 + digits : seconds ? 19 : 16;
  return full.map((v) => (v === null ? null : v.slice(0, cut)));
}

/** A temporal column as text in its own time zone (Polars' strftime works on expressions only). */
const strftime = (frame: pl.DataFrame, name: string, format: string) =>
  frame.select(pl.col(name).dt.strftime(format)).getColumn(name).toArray() as (string | null)[];

/** What `columnTexts` needs to know beyond the frame. */
export interface ColumnTextOptions {
  /** Rows whose float values are counts, shown as integers (the count rows of `describe`). */
  wholeRows?: ReadonlySet<number>;
}

/**
 * Display text of every column of a (small, already cut) frame.
 *
 * @example
 * ```ts
 * const [price] = columnTexts(df.head(5).select("Price")); // { values: ["190.64", ...], align: "right" }
 * ```
 */
export function columnTexts(frame: pl.DataFrame, options: ColumnTextOptions = {}): ColumnText[] {
  return frame.columns.map((name) => {
    const series = frame.getColumn(name);
    const variant = series.dtype.variant;
    if (FLOAT.test(variant)) {
      return { values: floatTexts(series.toArray() as (number | null)[], SIGNIFICANT[variant] ?? 15, options.wholeRows), align: "right" };
    }
    if (NUMERIC.test(variant)) {
      const text = series.cast(pl.String).toArray() as (string | null)[];
      // Identifiers (ASID, SecId, identity_id ...) are names, not quantities: no separators.
      return { values: text.map((v) => (v === null || IDENTIFIER.test(name) ? v : groupThousands(v))), align: "right" };
    }
    if (variant === "Date") return { values: strftime(frame, name, "%Y-%m-%d"), align: "right" };
    if (variant === "Datetime") return { values: datetimeTexts(strftime(frame, name, "%Y-%m-%d %H:%M:%S%.9f")), align: "right" };
    if (NESTED.includes(variant)) {
      return {
        values: (series.toArray() as unknown[]).map((v) => (v === null || v === undefined ? null : JSON.stringify(v))),
        align: "left",
      };
    }
    return {
      values: series.cast(pl.String).toArray() as (string | null)[],
      align: variant === "Bool" || variant === "Duration" ? "right" : "left",
    };
  });
}
