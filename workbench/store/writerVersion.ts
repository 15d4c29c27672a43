/**
 * The version of the workbench writing a lake folder, from its package.json (recorded in each
 * manifest, so a reader knows which writer made the files).
 */
import { readFileSync } from "node:fs";

let version: string | undefined;

/**
 * This workbench's version (`package.json`), or "unknown" when it cannot be read.
 *
 * @example
 * ```ts
 * writerVersion(); // "0.2.0"
 * ```
 */
export function writerVersion(): string {
  if (version === undefined) {
    version = "unknown";
    // The package's root is two folders up from this module (three from a build's copy of it).
    for (const up of ["../../package.json", "../../../package.json"]) {
      try {
        const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as { name?: string; version?: string };
        if (pkg.name === "market-workbench" && typeof pkg.version === "string") {
          version = pkg.version;
          break;
        }
      } catch {
        // not there: the next candidate
      }
    }
  }
  return version;
}
