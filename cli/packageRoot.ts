/**
 * The folder of the market-workbench package this code runs from: the repository in a checkout,
 * `node_modules/market-workbench` when installed. Found by its package.json rather than by a
 * fixed depth, as the sources and the built files sit at different depths below it.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package's folder and its package.json's version. */
export interface PackageRoot {
  /** The package's folder. */
  dir: string;
  /** Its version, from its package.json. */
  version: string;
}

/**
 * The nearest folder above this module whose package.json is market-workbench's.
 *
 * @example
 * ```ts
 * import { packageRoot } from "./cli/packageRoot.ts";
 * packageRoot().dir; // e.g. "/home/me/project/node_modules/market-workbench"
 * ```
 */
export function packageRoot(): PackageRoot {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "market-workbench") return { dir, version: String(pkg.version) };
    }
    if (dirname(dir) === dir) throw new Error(`No package.json of market-workbench above ${fileURLToPath(import.meta.url)}`);
    dir = dirname(dir);
  }
}
