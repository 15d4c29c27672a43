/**
 * The wording `--verify` shares between calls and downloads: shortened hashes, row counts,
 * outcomes and hash schemes, so every line reads the same way.
 */
import type { CallFailure, HashSchemeRecord } from "./manifest.ts";

/** A hash shortened for a line: its scheme prefix and the first hex digits. */
export const short = (hash?: string) => (hash ? `${hash.slice(0, hash.indexOf(":") + 13)}…` : "no hash");

/** `1 row`, `1,234 rows`. */
export const rows = (n: number) => `${n.toLocaleString("en-US")} row${n === 1 ? "" : "s"}`;

/** What a call or download ended with: its rows, or its error. */
export const outcome = (r: { rows: number; error?: CallFailure }) => (r.error ? `failed (${r.error.name}: ${r.error.message})` : `returned ${rows(r.rows)}`);

/** Whether two failures are the same failure (same class, same message). */
export const sameFailure = (a?: CallFailure, b?: CallFailure) => Boolean(a && b && a.name === b.name && a.message === b.message);

/** The hash scheme as a line says it (a version 1 manifest names none: SHA-256 canonical). */
export const schemeText = (h?: HashSchemeRecord) => (h ? `${h.scheme} under nodejs-polars ${h.nodejsPolars}` : "sha256 canonical (manifest version 1)");

/** The two runs' hash schemes, or undefined when their hashes can be compared. */
export function schemeClash(hashes: { before?: HashSchemeRecord; after?: HashSchemeRecord }): string | undefined {
  const [then, now] = [schemeText(hashes.before), schemeText(hashes.after)];
  return then === now ? undefined : `hashed with ${then} then, ${now} now`;
}
