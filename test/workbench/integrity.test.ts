/**
 * Nothing served that is not what was fetched: a lake file truncated, replaced or missing is
 * found when the download runs again (its partitions fetched again, named in a warning) and
 * when the folder is scanned (a LakeDamagedError naming the file), and so is a file no
 * partition records; a damaged cache entry is never served (fetched
 * again, said) and `verify()` finds it; a failed write names the path and cause and leaves no
 * temporary file; one download at a time writes a folder.
 */
import pl from "nodejs-polars";
import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { connect, FolderInUseError, LakeDamagedError, StorageError } from "../../workbench/mod.ts";
import { lockFolder, writeAtomically, writeAtomicallyAsync } from "../../workbench/runtime/files.ts";
import { withFullAccess } from "./support/fullAccess.ts";
import { lakeBooks } from "./support/lakeBooks.ts";
import { setImmediate } from "node:timers";

const local = withFullAccess();
const scratch = mkdtempSync(join(tmpdir(), "integrity-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The pid of a process that has ended (a writer that died). */
const deadPid = () => spawnSync("true").pid!;

const RANGE = { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-22" };
/** A download of RANGE in two runs: one file of two days, one of one day. */
const twoFiles = async (dir: string) => {
  await local.wb.download("eq-taq-1min", { ...RANGE, end: "2023-11-21" }, dir);
  await local.wb.download("eq-taq-1min", RANGE, dir);
  return {
    twoDays: join(dir, "Ticker=AAPL", "part-2023-11-20_2023-11-21.parquet"),
    oneDay: join(dir, "Ticker=AAPL", "part-2023-11-22_2023-11-22.parquet"),
  };
};
const quietly = async <T>(run: () => Promise<T>) => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    return await run();
  } finally {
    warn.mockRestore();
  }
};

describe("a lake that checks what it reuses", () => {
  it("a truncated and a replaced file fail the scan by name, and a re-run fetches their partitions again with a warning", async () => {
    const dir = join(scratch, "lake");
    const { twoDays, oneDay } = await twoFiles(dir);
    const whole = local.wb.scan(dir).collectSync();
    expect(whole.height).toBe(3 * 960);
    truncateSync(twoDays, 3000);
    const replaced = pl.readParquet(oneDay).head(100);
    replaced.writeParquet(oneDay, { compression: "snappy" }); // still valid Parquet
    expect(() => local.wb.scan(dir)).toThrow(LakeDamagedError);
    try {
      local.wb.scan(dir);
    } catch (e) {
      expect((e as LakeDamagedError).path).toBe(twoDays);
      expect((e as Error).message).toMatch(
        /Ticker=AAPL\/TradeDate=2023-11-20 .* is damaged: its file is 3,000 bytes where [\d,]+ were written/,
      );
    }
    const again = await quietly(() => local.wb.download("eq-taq-1min", RANGE, dir));
    expect(again.fetched).toBe(3);
    expect(again.warnings).toHaveLength(2);
    expect(again.warnings[0]).toMatch(
      /File Ticker=AAPL\/part-2023-11-20_2023-11-21.parquet of .* was damaged \(its file is 3,000 bytes .*\): removed; its partitions Ticker=AAPL\/TradeDate=2023-11-20 to Ticker=AAPL\/TradeDate=2023-11-21 \(2\) fetched again$/,
    );
    expect(again.warnings[1]).toMatch(
      /File Ticker=AAPL\/part-2023-11-22_2023-11-22.parquet .* was damaged .*: removed; its partition Ticker=AAPL\/TradeDate=2023-11-22 fetched again$/,
    );
    // Fetched again as one request, one file; the damaged ones are gone, so no row is read twice.
    expect(readdirSync(join(dir, "Ticker=AAPL")).filter((f) => !f.startsWith("."))).toEqual(["part-2023-11-20_2023-11-22.parquet"]);
    expect(local.wb.scan(dir).collectSync().sort("BarDateTime").frameEqual(whole.sort("BarDateTime"))).toBe(true);
  });

  it("a missing file is fetched again for the range asked; its days outside the range leave the record, said", async () => {
    const dir = join(scratch, "lake-missing");
    const { twoDays } = await twoFiles(dir);
    rmSync(twoDays);
    const again = await quietly(() => local.wb.download("eq-taq-1min", { ...RANGE, end: "2023-11-20" }, dir));
    expect(again.fetched).toBe(1);
    expect(again.warnings).toEqual([
      expect.stringMatching(
        /was damaged \(its file is missing\): removed; its partition Ticker=AAPL\/TradeDate=2023-11-20 fetched again; its partition Ticker=AAPL\/TradeDate=2023-11-21, outside this range, left for a download of their range$/,
      ),
    ]);
    const days = local.wb.scan(dir).select(pl.col("TradeDate").cast(pl.String)).unique().sort("TradeDate").collectSync().getColumn(
      "TradeDate",
    ).toArray();
    expect(days).toEqual(["2023-11-20", "2023-11-22"]);
  });

  it("a file no partition records (a download killed between writing and recording) fails the scan, and a re-run removes it", async () => {
    const dir = join(scratch, "lake-unrecorded");
    const { oneDay } = await twoFiles(dir);
    const stray = join(dir, "Ticker=AAPL", "part-2023-11-21_2023-11-22.parquet");
    pl.readParquet(oneDay).writeParquet(stray);
    expect(() => local.wb.scan(dir)).toThrow(
      /holds 1 Parquet file\(s\) no partition records \(Ticker=AAPL\/part-2023-11-21_2023-11-22.parquet\): left by an interrupted download/,
    );
    const again = await quietly(() => local.wb.download("eq-taq-1min", RANGE, dir));
    expect(again.fetched).toBe(0);
    expect(again.warnings).toEqual([
      expect.stringMatching(/File Ticker=AAPL\/part-2023-11-21_2023-11-22.parquet of .* was recorded by no partition .*: removed/),
    ]);
    expect(existsSync(stray)).toBe(false);
    expect(local.wb.scan(dir).collectSync().height).toBe(3 * 960);
  });
});

describe("a cache that checks what it serves", () => {
  it("a truncated entry and a replaced one are fetched again, said, and found by verify()", async () => {
    const cache = join(scratch, "cache");
    const warnings: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((m: string) => void warnings.push(String(m)));
    try {
      const wb = await connect({ baseUrl: local.sb.baseUrl, fetch: local.sb.fetch, apiKey: "demo-full-access", cache });
      const query = { date: "2023-11-21" };
      const fresh = await wb.data.eqTaq1Min("AAPL", query);
      const file = readdirSync(cache).find((f) => f.endsWith(".parquet"))!;
      truncateSync(join(cache, file), 200);
      const afterTruncation = await wb.data.eqTaq1Min("AAPL", query);
      expect(afterTruncation.height).toBe(fresh.height);
      expect(warnings.join("\n")).toMatch(/was damaged \(its file is 200 bytes where [\d,]+ were written\)/);
      fresh.head(10).writeParquet(join(cache, file)); // a valid file of the wrong rows
      expect((await wb.data.eqTaq1Min("AAPL", query)).height).toBe(fresh.height);
      expect(warnings.join("\n")).toMatch(/was damaged \(its file is [\d,]+ bytes where [\d,]+ were written\)/);
      fresh.head(10).writeParquet(join(cache, file));
      const check = await wb.cache.verify();
      expect(check.stale.map((e) => e.reason).join("\n")).toMatch(/the cached file is damaged: its file is [\d,]+ bytes/);
      expect(check.fresh).toHaveLength(0);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("a cache entry without readable provenance", () => {
  it("is fetched again, said, and never served unverified, whether its provenance is deleted or garbled; a one-byte flip is refused before Polars reads it", async () => {
    const cache = join(scratch, "cache-provenance");
    const warnings: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((m: string) => void warnings.push(String(m)));
    try {
      const wb = await connect({ baseUrl: local.sb.baseUrl, fetch: local.sb.fetch, apiKey: "demo-full-access", cache });
      const query = { date: "2023-11-21" };
      const fresh = await wb.data.eqTaq1Min("AAPL", query);
      const entry = readdirSync(cache).find((f) => f.endsWith(".provenance.json"))!;
      const file = readdirSync(cache).find((f) => f.endsWith(".parquet"))!;
      // A foreign frame of the same shape where the cached one was: only its missing provenance tells.
      const swap = () => fresh.withColumns(pl.col("Volume").mul(2)).writeParquet(join(cache, file));
      swap();
      rmSync(join(cache, entry));
      expect((await wb.data.eqTaq1Min("AAPL", query)).frameEqual(fresh)).toBe(true);
      expect(warnings.at(-1)).toMatch(/was damaged \(its provenance beside it is missing\): removed and fetched again/);
      swap();
      writeFileSync(join(cache, entry), "{ garbled");
      expect((await wb.data.eqTaq1Min("AAPL", query)).frameEqual(fresh)).toBe(true);
      expect(warnings.at(-1)).toMatch(/was damaged \(its provenance beside it is unreadable\): removed and fetched again/);
      // A byte flipped inside the cached file: refused by its hash, fetched again.
      const fd = openSync(join(cache, file), "r+");
      writeSync(fd, new Uint8Array([0xff]), 0, 1, Math.floor(statSync(join(cache, file)).size / 2));
      closeSync(fd);
      expect((await wb.data.eqTaq1Min("AAPL", query)).frameEqual(fresh)).toBe(true);
      expect(warnings.at(-1)).toMatch(/was damaged \(its bytes are not those written/);
      expect(wb.cache.hits).toBe(0);
      expect(wb.cache.misses).toBe(4);
      expect((await wb.data.eqTaq1Min("AAPL", query)).frameEqual(fresh)).toBe(true);
      expect(wb.cache.hits).toBe(1);
    } finally {
      warn.mockRestore();
    }
  });

  it("temporary files of cache writes whose process died are removed by the next write", async () => {
    const cache = join(scratch, "cache-partials");
    mkdirSync(cache);
    const dead = deadPid();
    const stale = [`.eq-taq-1min-${"0".repeat(32)}.parquet.${dead}.tmp`, `.eq-taq-1min-${"0".repeat(32)}.entry.json.${dead}.tmp`];
    for (const name of stale) writeFileSync(join(cache, name), "half");
    const wb = await connect({ baseUrl: local.sb.baseUrl, fetch: local.sb.fetch, apiKey: "demo-full-access", cache });
    await wb.data.eqTaq1Min("AAPL", { date: "2023-11-21" });
    expect(readdirSync(cache).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});

describe("storage errors", () => {
  /** What Polars throws when a Parquet write meets a full disk. */
  const POLARS_DISK_FULL = "parquet: External format error: underlying IO error: No space left on device (os error 28)";
  /** The write failed as a StorageError naming the file and the cause, and left nothing in its folder. */
  const expectDiskFullError = (error: unknown, file: string, dir: string) => {
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).path).toBe(file);
    expect((error as Error).message).toBe(`Cannot write '${file}': no space left on the device (ENOSPC)`);
    expect(readdirSync(dir)).toEqual([]);
  };

  it("a full disk during a write is a StorageError naming the path and cause, and leaves no temporary file", () => {
    const dir = join(scratch, "full");
    mkdirSync(dir);
    const file = join(dir, "part.parquet");
    let error: unknown;
    try {
      writeAtomically(file, (tmp) => {
        writeFileSync(tmp, "half");
        throw new Error(POLARS_DISK_FULL);
      });
    } catch (e) {
      error = e;
    }
    expectDiskFullError(error, file, dir);
    expect((error as StorageError).code).toBe("ENOSPC");
  });

  it("a failed write on Polars' threads is the same StorageError, and leaves no temporary file", async () => {
    const dir = join(scratch, "full-async");
    mkdirSync(dir);
    const file = join(dir, "part.parquet");
    const error = await writeAtomicallyAsync(file, (tmp) => {
      writeFileSync(tmp, "half");
      // Rejected, not thrown: as Polars' asynchronous writers fail.
      return Promise.reject(new Error(POLARS_DISK_FULL));
    }).then(() => undefined, (e: unknown) => e);
    expectDiskFullError(error, file, dir);
  });

  it("a partition written as the download writes it leaves the event loop free meanwhile", async () => {
    const dir = join(scratch, "off-loop");
    mkdirSync(dir);
    const file = join(dir, "part.parquet");
    const n = 2_000_000;
    // Large enough that the write outlasts a turn of the loop; its text column made by Polars,
    // not from two million JavaScript strings.
    const frame = pl.DataFrame([pl.Series("a", new Float64Array(n).map((_, i) => i))]).withColumns(
      pl.concatString([pl.lit("row "), pl.col("a").cast(pl.Int64).cast(pl.Utf8)], "").alias("b"),
    );
    const order: string[] = [];
    setImmediate(() => order.push("event loop turned"));
    await writeAtomicallyAsync(file, async (tmp) => {
      await frame.lazy().sinkParquet(tmp, { compression: "snappy" }).collect();
    });
    order.push("written");
    // A write on the JavaScript thread (writeParquet) ends before the loop turns: "written" first.
    expect(order).toEqual(["event loop turned", "written"]);
    expect(pl.readParquet(file).height).toBe(n);
  });

  it("one download at a time in a folder, across processes: a live holder refuses, a dead one is taken over", async () => {
    const dir = join(scratch, "locked");
    mkdirSync(dir);
    const holder = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      mkdirSync(lakeBooks(dir).books, { recursive: true });
      writeFileSync(lakeBooks(dir).lock, String(holder.pid));
      expect(() => lockFolder(lakeBooks(dir).books)).toThrow(FolderInUseError);
      await expect(local.wb.download("eq-taq-1min", RANGE, dir)).rejects.toThrow(
        new RegExp(`being written by another download: process ${holder.pid} on host ${hostname()}`),
      );
    } finally {
      holder.kill("SIGKILL");
      await new Promise((r) => holder.once("exit", r));
    }
    const release = lockFolder(lakeBooks(dir).books); // the holder is gone: its lock is taken over
    expect(() => lockFolder(lakeBooks(dir).books)).toThrow(FolderInUseError); // and this process holds it now
    release();
    expect(existsSync(lakeBooks(dir).lock)).toBe(false);
  });
});
