/**
 * Nothing served that is not what was fetched: a lake partition truncated or replaced is found
 * when the download runs again (fetched again, named in a warning) and when the folder is
 * scanned (a LakeDamagedError naming the file); a damaged cache entry is never served (fetched
 * again, said) and `verify()` finds it; a failed write names the path and cause and leaves no
 * temporary file; one download at a time writes a folder.
 */
import pl from "nodejs-polars";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { connect, FolderInUseError, LakeDamagedError, StorageError } from "../../workbench/mod.ts";
import { lockFolder, writeAtomically, writeAtomicallyAsync } from "../../workbench/runtime/files.ts";
import { withFullAccess } from "./support/fullAccess.ts";

const local = withFullAccess();
const scratch = mkdtempSync(join(tmpdir(), "integrity-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const RANGE = { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-22" };
const part = (dir: string, date: string) => join(dir, "Ticker=AAPL", `TradeDate=${date}`, "part.parquet");

describe("a lake that checks what it reuses", () => {
  it("a truncated and a replaced partition fail the scan by name, and a re-run fetches them again with a warning", async () => {
    const dir = join(scratch, "lake");
    const first = await local.wb.download("eq-taq-1min", RANGE, dir);
    expect(first.fetched).toBe(3);
    const whole = local.wb.scan(dir).collectSync();
    truncateSync(part(dir, "2023-11-20"), 3000);
    const replaced = pl.readParquet(part(dir, "2023-11-21")).head(100);
    replaced.writeParquet(part(dir, "2023-11-21"), { compression: "snappy" }); // still valid Parquet
    expect(() => local.wb.scan(dir)).toThrow(LakeDamagedError);
    try {
      local.wb.scan(dir);
    } catch (e) {
      expect((e as LakeDamagedError).path).toBe(part(dir, "2023-11-20"));
      expect((e as Error).message).toMatch(/its file is 3,000 bytes where [\d,]+ were written/);
    }
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const again = await local.wb.download("eq-taq-1min", RANGE, dir);
    warn.mockRestore();
    expect(again.fetched).toBe(2);
    expect(again.warnings).toHaveLength(2);
    expect(again.warnings.join("\n")).toMatch(/TradeDate=2023-11-20 .* was damaged \(its file is 3,000 bytes/);
    expect(again.warnings.join("\n")).toMatch(/TradeDate=2023-11-21 .* was damaged/);
    expect(local.wb.scan(dir).collectSync().height).toBe(whole.height);
  });

  it("a missing partition file is fetched again too", async () => {
    const dir = join(scratch, "lake-missing");
    await local.wb.download("eq-taq-1min", RANGE, dir);
    rmSync(part(dir, "2023-11-22"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const again = await local.wb.download("eq-taq-1min", RANGE, dir);
    warn.mockRestore();
    expect(again.fetched).toBe(1);
    expect(again.warnings[0]).toMatch(/its file is missing/);
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
      expect(warnings.join("\n")).toMatch(/was damaged \(its file cannot be read/);
      fresh.head(10).writeParquet(join(cache, file)); // a valid file of the wrong rows
      expect((await wb.data.eqTaq1Min("AAPL", query)).height).toBe(fresh.height);
      expect(warnings.join("\n")).toMatch(/holds 10 rows and \d+ columns where \d+ and \d+ were cached/);
      fresh.head(10).writeParquet(join(cache, file));
      const check = await wb.cache.verify();
      expect(check.stale.map((e) => e.reason).join("\n")).toMatch(/the cached file is damaged: its file holds 10 rows/);
      expect(check.fresh).toHaveLength(0);
    } finally {
      warn.mockRestore();
    }
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
    const error = await writeAtomicallyAsync(file, async (tmp) => {
      writeFileSync(tmp, "half");
      throw new Error(POLARS_DISK_FULL);
    }).then(() => undefined, (e: unknown) => e);
    expectDiskFullError(error, file, dir);
  });

  it("a partition written as the download writes it leaves the event loop free meanwhile", async () => {
    const dir = join(scratch, "off-loop");
    mkdirSync(dir);
    const file = join(dir, "part.parquet");
    const n = 2_000_000;
    const frame = pl.DataFrame({ a: Array.from({ length: n }, (_, i) => i), b: Array.from({ length: n }, (_, i) => `row ${i}`) });
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
      writeFileSync(join(dir, "_download.lock"), String(holder.pid));
      expect(() => lockFolder(dir)).toThrow(FolderInUseError);
      await expect(local.wb.download("eq-taq-1min", RANGE, dir)).rejects.toThrow(new RegExp(`being written by another download \\(process ${holder.pid}\\)`));
    } finally {
      holder.kill("SIGKILL");
      await new Promise((r) => holder.once("exit", r));
    }
    const release = lockFolder(dir); // the holder is gone: its lock is taken over
    expect(() => lockFolder(dir)).toThrow(FolderInUseError); // and this process holds it now
    release();
    expect(existsSync(join(dir, "_download.lock"))).toBe(false);
  });
});
