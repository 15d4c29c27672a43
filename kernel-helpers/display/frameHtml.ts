/**
 * A Polars frame as a notebook shows it: shape, warnings and the truncation note above the
 * table, a compact dtype under each name, New York wall clock at the precision the column
 * needs, readable numbers, text left-aligned; long frames cut to their head and tail, wide ones
 * scrolling inside their box with sticky headers. The styles are specific enough to win over
 * JupyterLab's own table rules (right-aligned, wrapping, fixed layout), which otherwise push
 * the "… N more rows …" marker of a wide frame to its far right, out of view.
 */
import pl from "nodejs-polars";
import { columnTexts } from "./cellText.ts";
import { wholeRowsOf } from "./wholeRows.ts";
import { dtypeLabel } from "./dtypeLabel.ts";
import { frameWarnings } from "../../workbench/mod.ts";
import { count, escapeHtml } from "./html.ts";
import type { MediaBundle } from "./jupyter.ts";

/** How `frameBundle` shows a frame: how many rows and characters, and what it is called. */
export interface FrameDisplayOptions {
  /** Rows shown before the frame is cut to head and tail (default 20). */
  maxRows?: number;
  /** Characters shown per cell (default 60). */
  maxCellChars?: number;
  /** Words before the shape, e.g. "Series" (default none). */
  kind?: string;
}

const STYLE = `<style>
.wb-box{max-width:100%;max-height:560px;overflow:auto;border:1px solid #e3e3e3}
.wb-box table.wb-frame{border-collapse:separate;border-spacing:0;table-layout:auto;margin:0;font:12px ui-monospace,Menlo,Consolas,monospace}
.wb-box .wb-frame th,.wb-box .wb-frame td{border:none;border-bottom:1px solid #eee;border-right:1px solid #f3f3f3;padding:2px 8px;white-space:nowrap;line-height:normal}
.wb-box .wb-frame thead th{position:sticky;top:0;background:#f7f7f7;text-align:left;z-index:1;border-bottom:1px solid #ccc}
.wb-box .wb-frame td.wb-r{text-align:right}.wb-box .wb-frame td.wb-l{text-align:left}
.wb-dtype{color:#888;font-weight:normal}.wb-null{color:#aaa;font-style:italic}
.wb-box .wb-frame tr.wb-gap td{color:#555;background:#f0f0f0;text-align:left;font-style:italic}.wb-gap span{display:inline-block;position:sticky;left:8px}
.wb-shape,.wb-note{font:12px sans-serif;color:#555;margin:2px 0}.wb-warn{font:12px sans-serif;color:#8a5300;background:#fff6e0;border-left:3px solid #f0a500;padding:2px 6px;margin:2px 0}
</style>`;

interface Shown {
  names: string[];
  types: string[];
  cells: (string | null)[][];
  align: ("left" | "right")[];
  /** Index of the first tail row when the frame is cut. */
  gapAt?: number;
  hidden: number;
}

function shown(frame: pl.DataFrame, maxRows: number, maxChars: number): Shown {
  const cut = frame.height > maxRows;
  const headN = Math.ceil(maxRows / 2), tailN = Math.floor(maxRows / 2);
  // vstack of two slices: zero-copy, where pl.concat rechunks (tens of ms on a wide frame).
  const part = cut ? frame.slice(0, headN).vstack(frame.slice(frame.height - tailN, tailN)) : frame;
  // The marked count rows of the frame, by their index among the rows shown.
  const marked = wholeRowsOf(frame), tailStart = frame.height - tailN;
  const wholeRows = new Set(
    Array.from({ length: part.height }, (_, i) => i).filter((i) => marked.has(!cut || i < headN ? i : tailStart + i - headN)),
  );
  const columns = columnTexts(part, { wholeRows });
  const clip = (v: string | null) => (v !== null && v.length > maxChars ? `${v.slice(0, maxChars - 1)}…` : v);
  return {
    names: frame.columns,
    types: frame.columns.map((n) => dtypeLabel(frame.getColumn(n).dtype)),
    cells: Array.from({ length: part.height }, (_, i) => columns.map((c) => clip(c.values[i]))),
    align: columns.map((c) => c.align),
    gapAt: cut ? headN : undefined,
    hidden: frame.height - part.height,
  };
}

/**
 * The media bundle of a frame (HTML and plain text).
 *
 * @example
 * ```ts
 * const bundle = frameBundle(df, { maxRows: 10 });
 * ```
 */
export function frameBundle(frame: pl.DataFrame, options: FrameDisplayOptions = {}): MediaBundle {
  const s = shown(frame, options.maxRows ?? 20, options.maxCellChars ?? 60);
  const headN = s.gapAt ?? 0;
  const shape = `${options.kind ? `${options.kind}: ` : ""}${count(frame.height, "row")} × ${count(frame.width, "column")}`;
  const note = s.gapAt !== undefined
    ? `showing the first ${headN} and last ${s.cells.length - headN} of ${frame.height.toLocaleString("en-US")} rows`
    : "";
  const warnings = frameWarnings(frame);
  const header = s.names.map((n, j) => `<th>${escapeHtml(n)}<br><span class="wb-dtype">${escapeHtml(s.types[j])}</span></th>`).join("");
  const td = (
    v: string | null,
    j: number,
  ) => (v === null ? `<td class="wb-null wb-${s.align[j][0]}">null</td>` : `<td class="wb-${s.align[j][0]}">${escapeHtml(v)}</td>`);
  const body = s.cells.map((row, i) => {
    const gap = i === s.gapAt
      ? `<tr class="wb-gap"><td colspan="${s.names.length}"><span>… ${s.hidden.toLocaleString("en-US")} more rows …</span></td></tr>`
      : "";
    return `${gap}<tr>${row.map(td).join("")}</tr>`;
  }).join("");
  const html = `${STYLE}${
    warnings.map((w) => `<div class="wb-warn"><b>warning</b> ${escapeHtml(w)}</div>`).join("")
  }<div class="wb-shape">${escapeHtml(shape)}${
    note ? ` · <span class="wb-note">${note}</span>` : ""
  }</div><div class="wb-box"><table class="wb-frame"><thead><tr>${header}</tr></thead><tbody>${body}</tbody></table></div>`;
  return { "text/html": html, "text/plain": plainText(s, shape, note, warnings) };
}

function plainText(s: Shown, shape: string, note: string, warnings: string[]): string {
  const cells = s.cells.map((row) => row.map((v) => v ?? "null"));
  const widths = s.names.map((n, j) => Math.max(n.length, s.types[j].length, ...cells.map((c) => c[j].length)));
  const line = (values: string[]) =>
    values.map((v, j) => (s.align[j] === "right" ? v.padStart(widths[j]) : v.padEnd(widths[j]))).join("  ").trimEnd();
  const out = [...warnings.map((w) => `warning: ${w}`), note ? `${shape} (${note})` : shape, line(s.names), line(s.types)];
  cells.forEach((c, i) => {
    if (i === s.gapAt) out.push(`… ${s.hidden.toLocaleString("en-US")} more rows …`);
    out.push(line(c));
  });
  return out.join("\n");
}
