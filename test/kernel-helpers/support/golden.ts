/**
 * Golden files, as Observable Plot keeps them: a render is compared byte for byte with
 * `golden/<name>.svg` (or `.html` when the chart is a figure holding a legend beside its SVG).
 * On a mismatch the render is written beside it as `<name>-changed.<ext>` and the test fails;
 * `UPDATE_GOLDEN=1` (re)writes the golden files instead.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const GOLDEN_DIR = fileURLToPath(new URL("../golden", import.meta.url));

export const goldenPath = (name: string, markup: string, suffix = "") =>
  join(GOLDEN_DIR, `${name}${suffix}.${markup.startsWith("<svg") ? "svg" : "html"}`);

/** Throws (after writing `<name>-changed.<ext>`) unless `markup` equals the golden file. */
export function expectGolden(name: string, markup: string): void {
  const path = goldenPath(name, markup), changed = goldenPath(name, markup, "-changed");
  if (process.env.UPDATE_GOLDEN === "1") {
    writeFileSync(path, markup);
    rmSync(changed, { force: true });
    return;
  }
  if (!existsSync(path)) throw new Error(`There is no golden file ${path}: run the test with UPDATE_GOLDEN=1 to write it`);
  if (readFileSync(path, "utf8") === markup) {
    rmSync(changed, { force: true });
    return;
  }
  writeFileSync(changed, markup);
  throw new Error(`The ${name} chart differs from ${path}; the new render is in ${changed}`);
}
