/**
 * The figures a notebook's HTML report shows. The report is nbconvert's `lab` HTML (markdown
 * rendered, code highlighted, every output inline, charts as inline SVG), so it opens offline
 * with nothing else; the Python process that executed the notebook writes it
 * (scripts/jupyter-run/execute.py, through `executeNotebook`'s `report` option).
 */
/** The parts of an nbformat notebook the reports read. */
// deno-lint-ignore no-explicit-any
export type Notebook = { cells: { cell_type: string; outputs?: any[] }[] };

// A Plot mark is a `<g aria-label="line">` (or dot, bar, cell, ...) holding shapes; axes,
// grids and the frame are labelled too and do not count.
const MARK = /<g\b[^>]*\baria-label="(?![^"]*(?:axis|grid))(?!frame")[^"]*"[^>]*>\s*<(?:path|rect|circle|line|polyline|polygon|text|g)\b/;

/**
 * Whether markup holds an SVG chart with at least one mark.
 *
 * @example
 * svgWithMarks('<svg><g aria-label="dot"><circle r="3"></circle></g></svg>'); // true
 */
export function svgWithMarks(markup: string): boolean {
  const svg = markup.indexOf("<svg");
  return svg >= 0 && MARK.test(markup.slice(svg));
}

/** How many outputs of the notebook show a chart (an SVG with marks). */
export function figureCount(notebook: Notebook): number {
  const text = (value: unknown) => (Array.isArray(value) ? value.join("") : typeof value === "string" ? value : "");
  return notebook.cells
    .flatMap((cell) => cell.outputs ?? [])
    .filter((out) => out.data && svgWithMarks(text(out.data["image/svg+xml"]) || text(out.data["text/html"])))
    .length;
}
