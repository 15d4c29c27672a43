/** Content hashes of a market folder's files, for byte-for-byte comparisons of generated markets. */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * Content hash of every file of a market, by relative path.
 *
 * @example
 * ```ts
 * expect(fingerprint(again)).toEqual(fingerprint(tinyMarketDir()));
 * ```
 */
export function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      // A sandbox started on the market keeps its state beside it by default: not market data.
      else if (!e.name.startsWith("sandbox-state")) out[relative(dir, p)] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return out;
}
