/**
 * `--verify`'s comparison of downloads, on hand-made records: partitions fetched or reused
 * count alike, a changed partition is named with its rows and hashes, another query, a failure,
 * a download missing or added, a manifest whose reused partitions carry no hash. (The real runs,
 * same market and another seed, are in test/scripts/provenance.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { compareRuns } from "../../../workbench/provenance/compareRuns.ts";
import { compareDownloads } from "../../../workbench/provenance/compareDownloads.ts";
import type { DownloadRecord, PartitionRecord } from "../../../workbench/provenance/manifest.ts";

const part = (day: number, hash = `rows:${String(day).repeat(16)}`, rows = 960): PartitionRecord => ({
  path: `Ticker=AAPL/TradeDate=2023-11-${day}`,
  rows,
  frameHash: hash,
});
const download = (over: Partial<DownloadRecord> = {}): DownloadRecord => ({
  seq: 1,
  dataset: "eq-taq-1min",
  query: { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-21" },
  dir: "/tmp/lake",
  status: { last_updated: "2023-11-28T00:00:00Z" },
  reused: 0,
  fetched: [part(20), part(21)],
  reusedPartitions: [],
  rows: 1920,
  requestIds: ["r1"],
  bytes: 100,
  startedAt: "",
  seconds: 0,
  ...over,
});
/** The same partitions found in the folder (another folder, too: the path is not compared). */
const reusedAll = (over: Partial<DownloadRecord> = {}) =>
  download({ dir: "/elsewhere", fetched: [], reused: 2, reusedPartitions: [part(20), part(21)], rows: 0, requestIds: [], ...over });

describe("compareDownloads", () => {
  it("fetched then and reused now, with the same rows and hashes: the same", () => {
    expect(compareDownloads([download()], [reusedAll()])).toEqual({
      lines: ["download 1 eq-taq-1min: same (2 partitions, 1,920 rows; fetched then, reused from the folder now)"],
      differences: 0,
    });
    const mixed = download({ fetched: [part(21)], reusedPartitions: [part(20)], reused: 1 });
    expect(compareDownloads([download()], [mixed]).lines[0]).toBe(
      "download 1 eq-taq-1min: same (2 partitions, 1,920 rows; fetched then, 1 fetched, 1 reused now)",
    );
  });

  it("a partition with other values or rows is named, first differing first, with both hashes", () => {
    const now = download({ fetched: [part(20, "rows:ffffffffffffffff"), part(21, "rows:eeeeeeeeeeeeeeee", 959)] });
    const { lines, differences } = compareDownloads([download()], [now]);
    expect(differences).toBe(1);
    expect(lines[0]).toBe(
      "download 1 eq-taq-1min: DIFFERENT: 2 of 2 partitions differ (Ticker=AAPL/TradeDate=2023-11-20, Ticker=AAPL/TradeDate=2023-11-21), 1,920 rows then, 1,919 rows now (fetched then, fetched now); first differing: Ticker=AAPL/TradeDate=2023-11-20: 960 rows both times, other values (rows:202020202020… then, rows:ffffffffffff… now)",
    );
  });

  it("a partition missing, an unreadable reused file, a changed last_updated", () => {
    const lost = reusedAll({
      reusedPartitions: [part(20), { path: part(21).path, rows: 960, error: "its file is missing" }],
      status: { last_updated: "2023-11-29T00:00:00Z" },
    });
    expect(compareDownloads([download()], [lost]).lines[0]).toBe(
      "download 1 eq-taq-1min: DIFFERENT: 1 of 2 partitions differ (Ticker=AAPL/TradeDate=2023-11-21), 1,920 rows then, 1,920 rows now (fetched then, reused from the folder now); first differing: Ticker=AAPL/TradeDate=2023-11-21: 960 rows then, unreadable now (its file is missing); the dataset was updated 2023-11-28T00:00:00Z then, 2023-11-29T00:00:00Z now",
    );
    expect(compareDownloads([download()], [download({ fetched: [part(20)] })]).lines[0]).toContain(
      "first differing: Ticker=AAPL/TradeDate=2023-11-21: missing from the re-run (960 rows in the manifest)",
    );
  });

  it("the same partitions reused after the service's data changed: the same, with a note that they were not fetched again", () => {
    const line = compareDownloads([download()], [reusedAll({ status: { last_updated: "2023-11-29T00:00:00Z" } })]).lines[0];
    expect(line).toMatch(
      /^download 1 eq-taq-1min: same \(2 partitions, 1,920 rows; fetched then, reused from the folder now\); note: eq-taq-1min was updated 2023-11-28T00:00:00Z then, 2023-11-29T00:00:00Z now, and the 2 reused partitions were not fetched again/,
    );
  });

  it("another query, another outcome, a download missing or added, reused partitions without hashes", () => {
    const wider = download({ query: { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-22" } });
    expect(compareDownloads([download()], [wider]).lines[0]).toBe(
      'download 1 eq-taq-1min: DIFFERENT: another download: eq-taq-1min asked end="2023-11-21" then, end="2023-11-22" now',
    );
    const failed = download({ fetched: [], rows: 0, error: { name: "QuotaExceededError", message: "Monthly quota spent" } });
    expect(compareDownloads([download()], [failed]).lines[0]).toBe(
      "download 1 eq-taq-1min: DIFFERENT: returned 1,920 rows then, failed (QuotaExceededError: Monthly quota spent) now",
    );
    expect(compareDownloads([failed], [failed]).lines[0]).toBe("download 1 eq-taq-1min: same (failed both times: QuotaExceededError)");
    expect(compareDownloads([download()], []).lines[0]).toBe(
      "download 1 eq-taq-1min: DIFFERENT: missing from the re-run (2 partitions, 1,920 rows in the manifest)",
    );
    expect(compareDownloads([], [download()]).lines[0]).toBe(
      "download 1 eq-taq-1min: DIFFERENT: not in the manifest (2 partitions, 1,920 rows in the re-run)",
    );
    const older = download({ fetched: [], reused: 2, reusedPartitions: undefined });
    expect(compareDownloads([older], [reusedAll()]).lines[0]).toMatch(
      /^download 1 eq-taq-1min: DIFFERENT: cannot compare the partitions: the manifest's download reused 2 partitions without hashing them/,
    );
  });

  it("compareRuns counts downloads after the calls, and hashes of another scheme cannot be compared", () => {
    const then = { calls: [], downloads: [download()], hash: { scheme: "rows/1", nodejsPolars: "0.26.1" } };
    const now = {
      calls: [],
      downloads: [download({ fetched: [part(20, "rows:ffffffffffffffff"), part(21)] })],
      hash: { scheme: "rows/1", nodejsPolars: "0.27.0" },
    };
    const verdict = compareRuns(then, now);
    expect(verdict.differences).toBe(1);
    expect(verdict.lines).toEqual([
      expect.stringMatching(
        /^download 1 eq-taq-1min: DIFFERENT: cannot compare the partitions: hashed with rows\/1 under nodejs-polars 0.26.1 then, rows\/1 under nodejs-polars 0.27.0 now/,
      ),
    ]);
    expect(compareRuns(then, { ...then, downloads: [reusedAll()] })).toEqual({ lines: [expect.stringContaining("same")], differences: 0 });
  });
});
