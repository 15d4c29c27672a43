/**
 * `--verify`: compares a re-run's calls with a manifest's, in order. A call is the same when it
 * asked the same dataset with the same requests and got a frame of the same hash (or failed
 * with the same error both times); anything else (another frame, another request, another
 * outcome, a call missing or added, hashes of another scheme) is a difference.
 */
import type { CallRecord, HashSchemeRecord, RunManifest } from "../../workbench/provenance/manifest.ts";
import { firstDifference } from "../../workbench/provenance/rowBlocks.ts";

export interface Verdict {
  /** One line per call: `call 1 eq-daily-ohlc: same (4 rows)`. */
  lines: string[];
  differences: number;
}

/** A hash shortened for a line: its scheme prefix and the first hex digits. */
const short = (hash?: string) => (hash ? `${hash.slice(0, hash.indexOf(":") + 13)}…` : "no hash");
const rows = (n: number) => `${n.toLocaleString("en-US")} row${n === 1 ? "" : "s"}`;
const asked = (c: CallRecord) => JSON.stringify([c.dataset, c.requests]);

const outcome = (c: CallRecord) => (c.error ? `failed (${c.error.name}: ${c.error.message})` : `returned ${rows(c.rows)}`);
const schemeText = (h?: HashSchemeRecord) => (h ? `${h.scheme} under nodejs-polars ${h.nodejsPolars}` : "sha256 canonical (manifest version 1)");

/** Why two calls at the same place differ, or undefined when they are the same. */
function difference(before: CallRecord, after: CallRecord, hashes: { before?: HashSchemeRecord; after?: HashSchemeRecord }): string | undefined {
  if (asked(before) !== asked(after)) {
    const paths = (c: CallRecord) => c.requests.map((r) => `${r.path}?${new URLSearchParams(r.params)}`).join(", ") || "no request";
    return `another call: ${before.dataset} ${paths(before)} then, ${after.dataset} ${paths(after)} now`;
  }
  if (before.error || after.error) {
    const same = before.error && after.error && before.error.name === after.error.name && before.error.message === after.error.message;
    return same ? undefined : `${outcome(before)} then, ${outcome(after)} now`;
  }
  if (before.frameHash === after.frameHash) return undefined;
  if (schemeText(hashes.before) !== schemeText(hashes.after)) {
    return `cannot compare the frames: hashed with ${schemeText(hashes.before)} then, ${schemeText(hashes.after)} now (${rows(before.rows)} then, ${rows(after.rows)} now; re-run the manifest's notebook under the same nodejs-polars)`;
  }
  const count = before.rows === after.rows ? `${rows(before.rows)} both times, other values` : `${rows(before.rows)} then, ${rows(after.rows)} now`;
  const where = firstDifference(before.rowBlocks, after.rowBlocks);
  const updated = before.status.last_updated !== after.status.last_updated ? `; the dataset was updated ${before.status.last_updated} then, ${after.status.last_updated} now` : "";
  return `${count}${where ? `, first differing at ${where}` : ""} (${short(before.frameHash)} then, ${short(after.frameHash)} now)${updated}`;
}

/**
 * Compares the calls of `before` (the manifest) and `after` (the re-run), in order.
 *
 * @example
 * const { lines, differences } = compareRuns(saved, rerun);
 * lines.forEach((l) => console.log(l));
 */
export function compareRuns(before: Pick<RunManifest, "calls" | "hash">, after: Pick<RunManifest, "calls" | "hash">): Verdict {
  const lines: string[] = [];
  let differences = 0;
  const n = Math.max(before.calls.length, after.calls.length);
  for (let i = 0; i < n; i++) {
    const [b, a] = [before.calls[i], after.calls[i]];
    const name = `call ${i + 1} ${(b ?? a).dataset}`;
    let why: string | undefined;
    if (!a) why = `missing from the re-run (${rows(b.rows)} in the manifest)`;
    else if (!b) why = `not in the manifest (${rows(a.rows)} in the re-run)`;
    else why = difference(b, a, { before: before.hash, after: after.hash });
    if (why) differences++;
    lines.push(why ? `${name}: DIFFERENT: ${why}` : `${name}: same (${a.error ? `failed both times: ${a.error.name}` : `${rows(a.rows)}, ${short(a.frameHash)}`})`);
  }
  if (n === 0) lines.push("no data call in the manifest nor in the re-run");
  return { lines, differences };
}
