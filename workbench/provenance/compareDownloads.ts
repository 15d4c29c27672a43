/**
 * `--verify` for `wb.download` runs, compared in order. A download is the same when it asked
 * the same dataset with the same query and every partition of its range holds the same rows
 * with the same hash, whether this run fetched the partition or found it in the folder (a
 * reused partition is hashed from its file read back, which gives the hash of the fetch that
 * wrote it). The folder's path is not compared: a re-run may download elsewhere.
 */
import type { DownloadRecord, HashSchemeRecord, PartitionRecord } from "./manifest.ts";
import { outcome, rows, sameFailure, schemeClash, short, sideBySide } from "./compareText.ts";

/** How many differing partitions a line names before it says how many more. */
const NAMED = 5;

type Partitions = Map<string, PartitionRecord>;

/** Every partition of a run's range, fetched or found in the folder, by path. */
const partitionsOf = (d: DownloadRecord): Partitions => new Map([...(d.reusedPartitions ?? []), ...d.fetched].map((p) => [p.path, p]));

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
const total = (parts: Partitions) => [...parts.values()].reduce((n, p) => n + p.rows, 0);

/** Where a run's partitions came from: `fetched`, `reused from the folder`, or both counted. */
function source(d: DownloadRecord): string {
  const [fetched, reused] = [d.fetched.length, d.reusedPartitions?.length ?? 0];
  if (reused === 0) return "fetched";
  return fetched === 0 ? "reused from the folder" : `${fetched} fetched, ${reused} reused`;
}

/** The query keys whose values differ: `end="2023-11-22" then, end="2023-11-24" now`. */
function queryChange(before: DownloadRecord, after: DownloadRecord): string {
  if (before.dataset !== after.dataset) return `${before.dataset} then, ${after.dataset} now`;
  const [b, a] = [before.query ?? {}, after.query ?? {}] as Record<string, unknown>[];
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]));
  const said = (q: Record<string, unknown>) =>
    keys.filter((k) => k in q).map((k) => `${k}=${JSON.stringify(q[k])}`).join(", ") || "nothing more";
  return `${before.dataset} asked ${said(b)} then, ${said(a)} now`;
}

/** Why one partition differs, or undefined when it is the same. */
function partitionChange(b?: PartitionRecord, a?: PartitionRecord): string | undefined {
  if (!b) return `not in the manifest (${rows(a!.rows)} now)`;
  if (!a) return `missing from the re-run (${rows(b.rows)} in the manifest)`;
  if (b.error || a.error) {
    return `${b.error ? `unreadable then (${b.error})` : rows(b.rows) + " then"}, ${
      a.error ? `unreadable now (${a.error})` : rows(a.rows) + " now"
    }`;
  }
  if (b.rows === a.rows && b.frameHash === a.frameHash) return undefined;
  const count = b.rows === a.rows ? `${rows(b.rows)} both times, other values` : `${rows(b.rows)} then, ${rows(a.rows)} now`;
  return `${count} (${short(b.frameHash)} then, ${short(a.frameHash)} now)`;
}

/** Why two downloads at the same place differ, or undefined when they are the same. */
function difference(
  before: DownloadRecord,
  after: DownloadRecord,
  hashes: { before?: HashSchemeRecord; after?: HashSchemeRecord },
): string | undefined {
  if (before.dataset !== after.dataset || JSON.stringify(before.query) !== JSON.stringify(after.query)) {
    return `another download: ${queryChange(before, after)}`;
  }
  if (before.error || after.error) {
    return sameFailure(before.error, after.error) ? undefined : `${outcome(before)} then, ${outcome(after)} now`;
  }
  const unhashed = [before, after].findIndex((d) => d.reusedPartitions === undefined && d.reused > 0);
  if (unhashed >= 0) {
    return `cannot compare the partitions: the ${unhashed === 0 ? "manifest's" : "re-run's"} download reused ${
      plural([before, after][unhashed].reused, "partition")
    } without hashing them (recorded by an older workbench); run it into an empty folder to record every partition's hash`;
  }
  const [then, now] = [partitionsOf(before), partitionsOf(after)];
  const paths = [...new Set([...then.keys(), ...now.keys()])].sort();
  const changed = paths.map((path) => ({ path, why: partitionChange(then.get(path), now.get(path)) })).filter((c) => c.why);
  if (changed.length === 0) return undefined;
  const clash = schemeClash(hashes);
  if (clash) {
    return `cannot compare the partitions: ${clash} (${rows(total(then))} then, ${
      rows(total(now))
    } now; re-run the manifest's notebook under the same nodejs-polars)`;
  }
  const named = changed.slice(0, NAMED).map((c) => c.path || "the single file").join(", ") +
    (changed.length > NAMED ? `, …${changed.length - NAMED} more` : "");
  const updated = before.status.last_updated !== after.status.last_updated
    ? `; the dataset was updated ${before.status.last_updated} then, ${after.status.last_updated} now`
    : "";
  const first = changed[0];
  return `${changed.length} of ${plural(paths.length, "partition")} differ (${named}), ${rows(total(then))} then, ${
    rows(total(now))
  } now (${source(before)} then, ${source(after)} now); first differing: ${first.path || "the single file"}: ${first.why}${updated}`;
}

/**
 * A note for a re-run that found its partitions in the folder although the service's data was
 * updated since the manifest: the folder matches the manifest, the service may no longer.
 */
function staleReuse(before: DownloadRecord, after: DownloadRecord): string {
  const reused = after.reusedPartitions?.length ?? 0;
  if (reused === 0 || before.status.last_updated === after.status.last_updated) return "";
  return `; note: ${before.dataset} was updated ${before.status.last_updated} then, ${after.status.last_updated} now, and the ${
    plural(reused, "reused partition")
  } were not fetched again (download into an empty folder to check them against the service)`;
}

/**
 * Compares the downloads of a manifest (`before`) and its re-run (`after`), in order: one line
 * each (`download 1 eq-daily-ohlc: same (3 partitions, 6 rows; fetched then, reused from the folder now)`).
 *
 * @example
 * ```ts
 * const saved = JSON.parse(await Deno.readTextFile("x.provenance.json"));
 * compareDownloads(saved.downloads ?? [], wb.provenance().downloads ?? [], { before: saved.hash, after: wb.provenance().hash }).lines;
 * ```
 */
export function compareDownloads(
  before: DownloadRecord[],
  after: DownloadRecord[],
  hashes: { before?: HashSchemeRecord; after?: HashSchemeRecord } = {},
): { lines: string[]; differences: number } {
  const size = (d: DownloadRecord) => `${plural(partitionsOf(d).size, "partition")}, ${rows(total(partitionsOf(d)))}`;
  return sideBySide("download", before, after, {
    size,
    difference: (b, a) => difference(b, a, hashes),
    same: (b, a) =>
      `same (${a.error ? `failed both times: ${a.error.name}` : `${size(a)}; ${source(b)} then, ${source(a)} now`})${staleReuse(b, a)}`,
  });
}
