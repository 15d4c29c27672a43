/**
 * A Polars frame as a notebook shows it: shape and dtypes in the header, dates and times as
 * New York wall-clock text (nodejs-polars' own rendering turns dates into `{}`), nulls
 * visible, and long frames cut to their head and tail with a note saying how many rows are
 * hidden.
 */
import pl, { type DataType } from "nodejs-polars";
import type { MediaBundle } from "./jupyter.ts";

export interface FrameDisplayOptions {
  /** Rows shown before the frame is cut to head and tail (default 20). */
  maxRows?: number;
  /** Characters shown per cell (default 60). */
  maxCellChars?: number;
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const FRACTION: Record<string, string> = { ms: "%.3f", us: "%.6f", ns: "%.9f" };

/** Every column as display text (null stays null): temporal columns in their own time zone. */
function asText(frame: pl.DataFrame): pl.DataFrame {
  return frame.select(...frame.columns.map((name) => {
    const dtype = frame.getColumn(name).dtype as DataType & { timeUnit?: string; timeZone?: string };
    const c = pl.col(name);
    // Wall clock at the column's full precision; the zone's abbreviation only when it has one
    // (Polars refuses %Z for a naive column).
    const datetime = () => `%Y-%m-%d %H:%M:%S${FRACTION[dtype.timeUnit ?? "ns"] ?? "%.9f"}${dtype.timeZone ? " %Z" : ""}`;
    const text = dtype.variant === "Date" ? c.dt.strftime("%Y-%m-%d") : dtype.variant === "Datetime" ? c.dt.strftime(datetime()) : c.cast(pl.String);
    return text.alias(name);
  }));
}

/** A list column cannot cast to text in Polars; render it through JS values instead. */
function safeText(frame: pl.DataFrame): pl.DataFrame {
  const nested = (n: string) => ["List", "Struct", "Array"].includes(frame.getColumn(n).dtype.variant);
  const plain = frame.columns.filter((n) => !nested(n));
  const text = asText(frame.select(...plain));
  const series = frame.columns.map((n) =>
    plain.includes(n) ? text.getColumn(n) : pl.Series(n, frame.getColumn(n).toArray().map((v: unknown) => (v === null ? null : JSON.stringify(v))), pl.String)
  );
  return pl.DataFrame(series);
}

/** "List(String)" for Polars' "DataType(List(DataType(String)))", "Datetime(ms)" for a naive "Datetime(ms,)". */
function dtypeLabel(dtype: DataType): string {
  let s = String(dtype);
  for (let i = s.indexOf("DataType("); i >= 0; i = s.indexOf("DataType(")) {
    let depth = 0, j = i + 8;
    for (; j < s.length; j++) {
      if (s[j] === "(") depth++;
      else if (s[j] === ")" && --depth === 0) break;
    }
    s = s.slice(0, i) + s.slice(i + 9, j) + s.slice(j + 1);
  }
  return s.replace(/,\)/g, ")");
}

const count = (n: number, noun: string) => `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;

/**
 * The media bundle of a frame (HTML and plain text).
 *
 * @example
 * ```ts
 * const bundle = frameBundle(df, { maxRows: 10 });
 * ```
 */
export function frameBundle(frame: pl.DataFrame, options: FrameDisplayOptions = {}): MediaBundle {
  const maxRows = options.maxRows ?? 20;
  const maxChars = options.maxCellChars ?? 60;
  const cut = frame.height > maxRows;
  const headN = Math.ceil(maxRows / 2), tailN = Math.floor(maxRows / 2);
  const shown = cut ? pl.concat([frame.head(headN), frame.tail(tailN)]) : frame;
  const text = safeText(shown);
  const rows = text.toRecords() as Record<string, string | null>[];
  const clip = (v: string) => (v.length > maxChars ? `${v.slice(0, maxChars - 1)}…` : v);
  const cell = (v: string | null) => (v === null ? `<td class="wb-null">null</td>` : `<td>${escapeHtml(clip(v))}</td>`);
  const header = frame.columns.map((n) => `<th>${escapeHtml(n)}<br><span class="wb-dtype">${escapeHtml(dtypeLabel(frame.getColumn(n).dtype))}</span></th>`).join("");
  const body = rows.map((r, i) => {
    const gap = cut && i === headN ? `<tr class="wb-gap"><td colspan="${frame.width}">… ${(frame.height - maxRows).toLocaleString("en-US")} more rows …</td></tr>` : "";
    return `${gap}<tr>${frame.columns.map((n) => cell(r[n])).join("")}</tr>`;
  }).join("");
  const shape = `${count(frame.height, "row")} × ${count(frame.width, "column")}`;
  const note = cut ? `<div class="wb-note">showing the first ${headN} and last ${tailN} of ${frame.height.toLocaleString("en-US")} rows</div>` : "";
  const style = `<style>.wb-frame{border-collapse:collapse;font:12px monospace}.wb-frame th,.wb-frame td{border:1px solid #ddd;padding:2px 6px;text-align:right;white-space:nowrap}.wb-frame th{background:#f5f5f5}.wb-dtype{color:#888;font-weight:normal}.wb-null{color:#aaa;font-style:italic}.wb-gap td{text-align:center;color:#888}.wb-shape,.wb-note{font:12px sans-serif;color:#555;margin:2px 0}</style>`;
  const html = `${style}<div class="wb-shape">${shape}</div><table class="wb-frame"><thead><tr>${header}</tr></thead><tbody>${body}</tbody></table>${note}`;
  return { "text/html": html, "text/plain": plainText(frame, rows, cut, headN, maxChars) };
}

function plainText(frame: pl.DataFrame, rows: Record<string, string | null>[], cut: boolean, headN: number, maxChars: number): string {
  const names = frame.columns;
  const cells = rows.map((r) => names.map((n) => (r[n] === null ? "null" : r[n]!.length > maxChars ? `${r[n]!.slice(0, maxChars - 1)}…` : r[n]!)));
  const types = names.map((n) => dtypeLabel(frame.getColumn(n).dtype));
  const widths = names.map((n, j) => Math.max(n.length, types[j].length, ...cells.map((c) => c[j].length)));
  const line = (values: string[]) => values.map((v, j) => v.padStart(widths[j])).join("  ");
  const out = [`${count(frame.height, "row")} × ${count(frame.width, "column")}`, line(names), line(types)];
  cells.forEach((c, i) => {
    if (cut && i === headN) out.push(`… ${frame.height - rows.length} more rows …`);
    out.push(line(c));
  });
  return out.join("\n");
}
