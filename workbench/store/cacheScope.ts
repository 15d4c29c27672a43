/**
 * Cache entries of older workbenches: they kept the first 16 hex digits of
 * `sha256(baseUrl + "\n" + key)` as their scope, which lets anyone who reads the entry confirm a
 * guess of a weak key offline. Entries are now keyed by an HMAC under the user's local secret
 * (32 hex digits), so the old ones are never found again: they are removed, with their frames,
 * the first time a session uses the folder, and fetched again when asked for.
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ENTRY_SUFFIX, readEntry } from "./cacheEntries.ts";

/** The scope of an entry written before scopes were keyed by the local secret. */
const UNKEYED_SCOPE = /^[0-9a-f]{16}$/;

/**
 * Removes the entries (and their frames) whose scope is a digest of the key alone; says how many
 * through `warn`. Returns how many were removed.
 *
 * @example
 * ```ts
 * removeUnkeyedEntries(".cache/frames", console.warn); // 0 on a folder this workbench wrote
 * ```
 */
export function removeUnkeyedEntries(dir: string, warn: (message: string) => void): number {
  if (!existsSync(dir)) return 0;
  let removed = 0;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(ENTRY_SUFFIX)) continue;
    const entryPath = join(dir, name);
    const scope = readEntry(entryPath)?.scope;
    if (typeof scope !== "string" || !UNKEYED_SCOPE.test(scope)) continue;
    try {
      rmSync(join(dir, name.slice(0, -ENTRY_SUFFIX.length) + ".parquet"), { force: true });
      rmSync(entryPath, { force: true });
      removed++;
    } catch {
      // a folder this user may not change: its old entries stay, found by no workbench
    }
  }
  if (removed > 0) {
    warn(
      `Warning: removed ${removed} cached frame${
        removed === 1 ? "" : "s"
      } from '${dir}' that an older workbench keyed by a digest of the API key; they are fetched again when asked for`,
    );
  }
  return removed;
}
