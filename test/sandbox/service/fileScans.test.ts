/**
 * Kept scans (fileScans.ts): a file's lazy scan is made once and reused, so its Parquet footer
 * is read once; a file of another size (regenerated) gets a scan of its own; at most
 * SCANS_KEPT are kept, the least recently used going first; a kept scan answers as a fresh one.
 */
import pl from "nodejs-polars";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { fileScan, SCANS_KEPT } from "../../../sandbox/service/query/fileScans.ts";
import type { MarketFile } from "../../../sandbox/service/query/marketFiles.ts";

const dir = join(inject("tinyMarketDir"), "eq-daily-ohlc");
const path = join(dir, readdirSync(dir).find((f) => f.endsWith(".parquet"))!);
const file = (bytes = statSync(path).size): MarketFile => ({ path, bytes, partition: {} });

describe("kept scans of market files", () => {
  it("reuses a file's scan, and it answers as a fresh scan does", () => {
    const scan = fileScan(file());
    expect(fileScan(file())).toBe(scan);
    const aapl = pl.col("Ticker").eq(pl.lit("AAPL"));
    expect(scan.filter(aapl).collectSync().frameEqual(pl.scanParquet(path).filter(aapl).collectSync())).toBe(true);
    expect(scan.filter(aapl).collectSync().height).toBe(1);
  });

  it("gives a file of another size a scan of its own", () => {
    expect(fileScan(file(1))).not.toBe(fileScan(file()));
  });

  it(`keeps at most ${SCANS_KEPT}, the least recently used going first`, () => {
    const first = fileScan(file(10));
    const second = fileScan(file(11));
    for (let k = 0; k < SCANS_KEPT - 2; k++) fileScan(file(100 + k));
    expect(fileScan(file(10))).toBe(first); // used again: now the most recent
    fileScan(file(99)); // one more than the bound: the least recently used (second) goes
    expect(fileScan(file(10))).toBe(first);
    expect(fileScan(file(11))).not.toBe(second);
  });
});
