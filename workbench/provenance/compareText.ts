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
export const outcome = (
  r: { rows: number; error?: CallFailure },
) => (r.error ? `failed (${r.error.name}: ${r.error.message})` : `returned ${rows(r.rows)}`);

/** Whether two failures are the same failure (same class, same message). */
export const sameFailure = (a?: CallFailure, b?: CallFailure) => Boolean(a && b && a.name === b.name && a.message === b.message);

/** The hash scheme as a line says it (a version 1 manifest names none: SHA-256 canonical). */
const schemeText = (
  h?: HashSchemeRecord,
) => (h ? `${h.scheme} under nodejs-polars ${h.nodejsPolars}` : "sha256 canonical (manifest version 1)");

/** The two runs' hash schemes, or undefined when their hashes can be compared. */
export function schemeClash(hashes: { before?: HashSchemeRecord; after?: HashSchemeRecord }): string | undefined {
  const [then, now] = [schemeText(hashes.before), schemeText(hashes.after)];
  return then === now ? undefined : `hashed with ${then} then, ${now} now`;
}

/** How a comparison tells one kind of record: its size, why two differ, and the words when the same. */
export interface RecordWords<T> {
  /** The record's size in words (rows, files). */
  size: (record: T) => string;
  /** Why `after` differs from `before`, or undefined when they agree. */
  difference: (before: T, after: T) => string | undefined;
  /** The words that say two records agree. */
  same: (before: T, after: T) => string;
}

/**
 * Two runs' records of one kind set side by side in order, a line each (`call 2 eq-taq:
 * DIFFERENT: …`, `download 1 eq-daily-ohlc: same (…)`), a record on one side only counted as a
 * difference; and how many differ.
 *
 * @example
 * ```ts
 * sideBySide("call", saved.calls, again.calls, { size: (c) => rows(c.rows), difference, same: () => "same" });
 * ```
 */
export function sideBySide<T extends { dataset: string }>(
  kind: string,
  before: readonly T[],
  after: readonly T[],
  words: RecordWords<T>,
): { lines: string[]; differences: number } {
  const lines: string[] = [];
  let differences = 0;
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const [b, a] = [before[i], after[i]];
    const why = !a
      ? `missing from the re-run (${words.size(b)} in the manifest)`
      : !b
      ? `not in the manifest (${words.size(a)} in the re-run)`
      : words.difference(b, a);
    if (why) differences++;
    lines.push(`${kind} ${i + 1} ${(b ?? a).dataset}: ${why ? `DIFFERENT: ${why}` : words.same(b, a)}`);
  }
  return { lines, differences };
}
