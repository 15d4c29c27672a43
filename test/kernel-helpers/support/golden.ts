/**
 * Golden files, as Observable Plot keeps them: a render is compared byte for byte with
 * `golden/<name>.svg` (or `.html` when the chart is a figure holding a legend beside its SVG).
 * On a mismatch the render is written beside it as `<name>-changed.<ext>` and the test fails;
 * `UPDATE_GOLDEN=1` (re)writes the golden files instead. Plot numbers its clip paths from a
 * counter of the process (`plot-clip-7`), so ids are compared by their order in the markup:
 * a render is the same whatever was drawn before it in the test process.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import process from "node:process";

const GOLDEN_DIR = fileURLToPath(new URL("../golden", import.meta.url));

const goldenPath = (name: string, markup: string, suffix = "") =>
  join(GOLDEN_DIR, `${name}${suffix}.${markup.startsWith("<svg") ? "svg" : "html"}`);

/** `markup` with Plot's counter-numbered ids renumbered from 1 in order of appearance. */
export function withPlotIdsInOrder(markup: string): string {
  const order = new Map<string, number>();
  return markup.replace(/plot-clip-(\d+)/g, (_, n: string) => {
    if (!order.has(n)) order.set(n, order.size + 1);
    return `plot-clip-${order.get(n)}`;
  });
}

/** Throws (after writing `<name>-changed.<ext>`) unless `markup` equals the golden file (ids in order). */
export function expectGolden(name: string, markup: string): void {
  const path = goldenPath(name, markup), changed = goldenPath(name, markup, "-changed");
  if (process.env.UPDATE_GOLDEN === "1") {
    writeFileSync(path, markup);
    rmSync(changed, { force: true });
    return;
  }
  if (!existsSync(path)) throw new Error(`There is no golden file ${path}: run the test with UPDATE_GOLDEN=1 to write it`);
  if (withPlotIdsInOrder(readFileSync(path, "utf8")) === withPlotIdsInOrder(markup)) {
    rmSync(changed, { force: true });
    return;
  }
  writeFileSync(changed, markup);
  throw new Error(`The ${name} chart differs from ${path}; the new render is in ${changed}`);
}
