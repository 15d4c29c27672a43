/**
 * `frameHash(df)`: a content hash of a Polars frame. The same rows in the same order with the
 * same schema hash the same, whatever wire format, page size or concurrency fetched them; a
 * change in any value, a dtype, a column name, the column order or the row order changes it.
 * Two schemes: `rows` (the default, and what the provenance manifest records: Polars' native
 * row hashes digested by SHA-256, see rowHashes.ts) and `canonical` (a documented byte
 * encoding of every value, independent of the nodejs-polars version, and slower: see
 * canonicalHash.ts).
 */
import type pl from "nodejs-polars";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { QueryError } from "../errors/base.ts";
import { canonicalFrameHash } from "./canonicalHash.ts";
import { HASH_SCHEME, rowHashBytes, rowsDigest } from "./rowHashes.ts";

/**
 * How `frameHash` hashes a frame: `rows` (Polars' row hashes; fast, tied to the nodejs-polars
 * build) or `canonical` (a documented byte encoding of every value; slower, the same across
 * nodejs-polars versions).
 */
export type HashSchemeName = "rows" | "canonical";

/**
 * The content hash of a frame: `rows:<64 hex>` (default) or `sha256:<64 hex>` (`canonical`).
 *
 * @example
 * ```ts
 * import { frameHash } from "./workbench/mod.ts";
 * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
 * frameHash(daily);                           // "rows:3f1c…", as wb.provenance() records it
 * frameHash(daily, { scheme: "canonical" });  // "sha256:…", the same under any nodejs-polars version
 * ```
 */
export function frameHash(frame: pl.DataFrame, options: { scheme?: HashSchemeName } = {}): string {
  const scheme = options.scheme ?? "rows";
  if (scheme === "canonical") return canonicalFrameHash(frame);
  if (scheme !== "rows") throw new QueryError(`frameHash scheme '${String(scheme)}' is unknown: use "rows" (the default) or "canonical"`);
  return rowsDigest(frame, [rowHashBytes(frame)]);
}

let polarsVersion: string | null | undefined;

/**
 * The version of the nodejs-polars this process loaded, or undefined when it cannot be read.
 *
 * @example
 * ```ts
 * nodejsPolarsVersion(); // "0.26.1"
 * ```
 */
export function nodejsPolarsVersion(): string | undefined {
  if (polarsVersion === undefined) {
    try {
      const require = createRequire(import.meta.url);
      polarsVersion = String(JSON.parse(readFileSync(require.resolve("nodejs-polars/package.json"), "utf8")).version);
    } catch {
      polarsVersion = null;
    }
  }
  return polarsVersion ?? undefined;
}

/**
 * What the manifest says about its hashes: the scheme and the nodejs-polars version whose row
 * hashes it uses (a re-run under another version cannot compare `rows:` hashes).
 *
 * @example
 * ```ts
 * hashScheme(); // { scheme: "rows/1", nodejsPolars: "0.26.1" }
 * ```
 */
export function hashScheme(): { scheme: string; nodejsPolars: string } {
  return { scheme: HASH_SCHEME, nodejsPolars: nodejsPolarsVersion() ?? "unknown" };
}
