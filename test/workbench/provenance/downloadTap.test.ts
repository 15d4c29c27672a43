/**
 * A download's partitions are hashed once per fetched unit when they lie end to end in it
 * (their hashes digested from runs of the unit's row hashes), one by one otherwise; either way
 * each recorded hash must be `frameHash` of the partition's own rows. Hand-built frames, no
 * service: the runs, an empty partition, rows of a date never written, and interleaved dates.
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { frameHash } from "../../../workbench/mod.ts";
import { DownloadTap } from "../../../workbench/provenance/downloadTap.ts";
import { runDeferred } from "../../../workbench/provenance/deferred.ts";
import type { WrittenPartition } from "../../../workbench/events/callEvents.ts";
import type { DownloadRecord } from "../../../workbench/provenance/manifest.ts";

const status = Promise.resolve({ last_updated: "2024-01-01T00:00:00Z", first_available_date: null, last_available_date: null });

/** The download record a tap ends with, after it heard the partitions of one unit. */
async function recorded(frame: pl.DataFrame, parts: WrittenPartition[], contiguous: boolean): Promise<DownloadRecord> {
  let record: DownloadRecord | undefined;
  const tap = new DownloadTap({ addDownload: (r) => void (record = r), redact: (text) => text }, 1, {
    dataset: "eq-taq-1min",
    query: {},
    dir: "/tmp/x",
  }, status);
  tap.hear({ type: "partitions", unit: 0, frame, parts, contiguous });
  await tap.hear({ type: "ended", requests: [] });
  runDeferred(); // the deferred hashing and the record, now
  return record!;
}

const unit = (dates: string[]) =>
  pl.DataFrame({ TradeDate: dates, Price: dates.map((_, i) => 100 + i / 4), Size: dates.map((_, i) => i * 100) }).withColumns(
    pl.col("TradeDate").str.strptime(pl.Date, "%Y-%m-%d"),
  );
const part = (frame: pl.DataFrame, date: string) => frame.filter(pl.col("TradeDate").cast(pl.String).eq(pl.lit(date)));

describe("DownloadTap hearing a unit's partitions", () => {
  it("partitions lying end to end: hashes from the unit's row hashes equal each partition's frameHash", async () => {
    const frame = unit(["2023-11-20", "2023-11-20", "2023-11-21", "2023-11-22", "2023-11-22", "2023-11-22"]);
    const parts = ["2023-11-20", "2023-11-21", "2023-11-22"].map((d) => part(frame, d));
    const record = await recorded(frame, [{ path: "d=20", frame: parts[0] }, { frame: parts[1] }, { path: "d=22", frame: parts[2] }, {
      path: "d=23",
    }], true);
    expect(record.fetched).toEqual([
      { path: "d=20", rows: 2, frameHash: frameHash(parts[0]) },
      { path: "d=22", rows: 3, frameHash: frameHash(parts[2]) }, // after the unwritten rows of d=21
      { path: "d=23", rows: 0 },
    ]);
    expect(record.rows).toBe(5);
  });

  it("interleaved dates: each partition hashed on its own, the same hashes", async () => {
    const frame = unit(["2023-11-20", "2023-11-21", "2023-11-20", "2023-11-21"]);
    const parts = ["2023-11-20", "2023-11-21"].map((d) => part(frame, d));
    const record = await recorded(frame, [{ path: "a", frame: parts[0] }, { path: "b", frame: parts[1] }], false);
    expect(record.fetched).toEqual([
      { path: "a", rows: 2, frameHash: frameHash(parts[0]) },
      { path: "b", rows: 2, frameHash: frameHash(parts[1]) },
    ]);
    // Had they been taken as runs, b would have hashed rows 3-4 of the unit: not its rows.
    expect(frameHash(frame.slice(2, 2))).not.toBe(frameHash(parts[1]));
  });
});
