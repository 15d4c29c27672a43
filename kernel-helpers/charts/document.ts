/**
 * Makes `Plot.plot()` work in a Deno kernel cell: Plot needs a `document`, which Deno has not.
 * A global `document` (jsdom, created on first use so kernel start stays fast) is provided in
 * the kernel only, and the element Plot returns displays as its SVG (see `richBundle`).
 */
import { createRequire } from "node:module";

/**
 * Defines `globalThis.document` lazily when there is none (idempotent).
 *
 * @example
 * ```ts
 * provideDocument();
 * Plot.plot({ marks: [Plot.dot([{ x: 1, y: 2 }], { x: "x", y: "y" })] }); // an SVG element
 * ```
 */
export function provideDocument(): void {
  const global = globalThis as { document?: unknown };
  if ("document" in global) return;
  let made: unknown;
  Object.defineProperty(globalThis, "document", {
    configurable: true,
    get() {
      if (made === undefined) {
        const { JSDOM } = createRequire(import.meta.url)("jsdom") as typeof import("jsdom");
        made = new JSDOM("").window.document;
      }
      return made;
    },
  });
}

/** Whether `value` is a DOM element (jsdom's) holding a chart: an `<svg>` or Plot's `<figure>`. */
export function isChartElement(value: unknown): value is Element {
  const el = value as { tagName?: unknown; outerHTML?: unknown; querySelector?: unknown } | null;
  return !!el && typeof el === "object" && typeof el.tagName === "string" && typeof el.outerHTML === "string" &&
    ["svg", "figure"].includes(el.tagName.toLowerCase());
}
