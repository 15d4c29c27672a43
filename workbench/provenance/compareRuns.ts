/**
 * `--verify`: compares a re-run's calls with a manifest's, in order. A call is the same when it
 * asked the same dataset with the same requests and got a frame of the same hash (or failed
 * with the same error both times); anything else (another frame, another request, another
 * outcome, a call missing or added, hashes of another scheme) is a difference. Downloads
 * follow, compared partition by partition (compareDownloads.ts).
 */
import type { CallRecord, DownloadRecord, HashSchemeRecord, RequestRecord } from "./manifest.ts";
import { firstDifference } from "./rowBlocks.ts";
import { outcome, rows, sameFailure, schemeClash, short, sideBySide } from "./compareText.ts";
import { compareDownloads } from "./compareDownloads.ts";

/** What `compareRuns` finds: a line per call and download, and how many differ. */
export interface RunComparison {
  /** One line per call, then per download: `call 1 eq-daily-ohlc: same (4 rows, rows:…)`. */
  lines: string[];
  /** Calls and downloads that differ (0: the re-run reproduced the manifest). */
  differences: number;
}

const asked = (c: CallRecord) => JSON.stringify([c.dataset, c.requests]);

/**
 * What changed between two calls' requests, told by the first request that differs: its
 * parameters that are not in both (`TradeDate.le=2023-11-22 then, TradeDate.le=2023-11-24 now`),
 * or its whole path and query when the path or dataset changed.
 */
function requestChange(before: CallRecord, after: CallRecord): string {
  const url = (r?: RequestRecord) => (r ? `${r.path}?${new URLSearchParams(r.params)}` : "no request");
  const count = before.requests.length === after.requests.length
    ? ""
    : ` (${before.requests.length} requests then, ${after.requests.length} now)`;
  if (before.dataset !== after.dataset) {
    return `${before.dataset} ${url(before.requests[0])} then, ${after.dataset} ${url(after.requests[0])} now${count}`;
  }
  const i = Math.max(0, before.requests.findIndex((r, k) => JSON.stringify(r) !== JSON.stringify(after.requests[k])));
  const [b, a] = [before.requests[i], after.requests[i]];
  const which = before.requests.length > 1 ? `request ${i + 1} of ${before.requests.length}: ` : "";
  if (!b || !a || b.path !== a.path) return `${before.dataset} ${which}${url(b)} then, ${url(a)} now${count}`;
  const only = (x: RequestRecord, y: RequestRecord) =>
    x.params.filter(([k, v]) => !y.params.some(([k2, v2]) => k === k2 && v === v2)).map(([k, v]) => `${k}=${v}`).join("&") ||
    "nothing more";
  return `${before.dataset} ${which}${b.path} asked ${only(b, a)} then, ${only(a, b)} now${count}`;
}

/** Why two calls at the same place differ, or undefined when they are the same. */
function difference(
  before: CallRecord,
  after: CallRecord,
  hashes: { before?: HashSchemeRecord; after?: HashSchemeRecord },
): string | undefined {
  if (asked(before) !== asked(after)) return `another call: ${requestChange(before, after)}`;
  if (before.error || after.error) {
    return sameFailure(before.error, after.error) ? undefined : `${outcome(before)} then, ${outcome(after)} now`;
  }
  if (before.frameHash === after.frameHash) return undefined;
  const clash = schemeClash(hashes);
  if (clash) {
    return `cannot compare the frames: ${clash} (${rows(before.rows)} then, ${
      rows(after.rows)
    } now; re-run the manifest's notebook under the same nodejs-polars)`;
  }
  const count = before.rows === after.rows
    ? `${rows(before.rows)} both times, other values`
    : `${rows(before.rows)} then, ${rows(after.rows)} now`;
  const where = firstDifference(before.rowBlocks, after.rowBlocks);
  const updated = before.status.last_updated !== after.status.last_updated
    ? `; the dataset was updated ${before.status.last_updated} then, ${after.status.last_updated} now`
    : "";
  return `${count}${where ? `, first differing at ${where}` : ""} (${short(before.frameHash)} then, ${
    short(after.frameHash)
  } now)${updated}`;
}

/** What can be compared: a run manifest, or a workbench's `wb.provenance()`. */
export type Comparable = { calls: CallRecord[]; downloads?: DownloadRecord[]; hash?: HashSchemeRecord };

/**
 * Compares the calls of `before` (the manifest) and `after` (the re-run), in order, then their
 * `wb.download` runs (partition by partition: see compareDownloads.ts).
 *
 * @example
 * ```ts
 * const saved = wb.provenance();            // or JSON.parse(await Deno.readTextFile("x.provenance.json"))
 * const again = await connect();
 * await again.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
 * const { lines, differences } = compareRuns(saved, again.provenance());
 * lines.forEach((l) => console.log(l));
 * ```
 */
export function compareRuns(before: Comparable, after: Comparable): RunComparison {
  const hashes = { before: before.hash, after: after.hash };
  const calls = sideBySide("call", before.calls, after.calls, {
    size: (c) => rows(c.rows),
    difference: (b, a) => difference(b, a, hashes),
    same: (_b, a) => `same (${a.error ? `failed both times: ${a.error.name}` : `${rows(a.rows)}, ${short(a.frameHash)}`})`,
  });
  const downloads = compareDownloads(before.downloads ?? [], after.downloads ?? [], hashes);
  const none = calls.lines.length === 0 && downloads.lines.length === 0 ? ["no data call in the manifest nor in the re-run"] : [];
  return { lines: [...calls.lines, ...none, ...downloads.lines], differences: calls.differences + downloads.differences };
}
