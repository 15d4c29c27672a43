/**
 * Compact dtype names for a table header, as Python Polars prints them: `f64`, `i64`, `str`,
 * `date`, `datetime[ns, America/New_York]`, `list[str]`.
 */
import type { DataType } from "nodejs-polars";

const SHORT: Record<string, string> = {
  Float64: "f64",
  Float32: "f32",
  Int64: "i64",
  Int32: "i32",
  Int16: "i16",
  Int8: "i8",
  UInt64: "u64",
  UInt32: "u32",
  UInt16: "u16",
  UInt8: "u8",
  String: "str",
  Utf8: "str",
  Bool: "bool",
  Boolean: "bool",
  Date: "date",
  Null: "null",
  Categorical: "cat",
  Object: "object",
};

/** The dtype's time unit and zone, when it has them (nodejs-polars keeps them on the instance). */
interface TemporalType {
  timeUnit?: string;
  /** The time zone, e.g. `America/New_York`. */
  timeZone?: string;
}

/**
 * "datetime[ns, America/New_York]" for Polars' Datetime(ns, America/New_York), "list[str]" for List(String).
 *
 * @example
 * ```ts
 * dtypeLabel(df.getColumn("BarDateTime").dtype); // "datetime[ns, America/New_York]"
 * ```
 */
export function dtypeLabel(dtype: DataType): string {
  const d = dtype as DataType & TemporalType & { inner?: DataType | DataType[]; __inner?: unknown };
  if (d.variant === "Datetime") return `datetime[${d.timeUnit ?? "ns"}${d.timeZone ? `, ${d.timeZone}` : ""}]`;
  if (d.variant === "Duration") return `duration[${d.timeUnit ?? "ns"}]`;
  if (d.variant === "List" || d.variant === "FixedSizeList") {
    const inner = Array.isArray(d.inner) ? d.inner[0] : d.inner;
    return `list[${inner ? dtypeLabel(inner) : "?"}]`;
  }
  if (d.variant === "Struct") return "struct";
  return SHORT[d.variant] ?? d.variant.toLowerCase();
}
