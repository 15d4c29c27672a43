/**
 * `Plot.plot()` in a cell: Plot needs a `document`, which Deno has not (and Deno hides any
 * global `window` from npm packages, so Plot's `window.document` default cannot be supplied).
 * The `Plot` the kernel helpers export fills in a jsdom document; the element it returns is
 * recognised here and displays as its SVG (see `richBundle`).
 */

/** Whether `value` is a DOM element (jsdom's) holding a chart: an `<svg>` or Plot's `<figure>`. */
export function isChartElement(value: unknown): value is Element {
  const el = value as { tagName?: unknown; outerHTML?: unknown } | null;
  return !!el && typeof el === "object" && typeof el.tagName === "string" && typeof el.outerHTML === "string" &&
    ["svg", "figure"].includes(el.tagName.toLowerCase());
}
