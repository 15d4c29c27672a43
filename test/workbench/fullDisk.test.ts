/**
 * Storage errors on real file systems: a download into a full 1.6 MB tmpfs, a cached call into a full 64 KB one,
 * and into a read-only bind mount (root ignores chmod). Mounting needs root (CAP_SYS_ADMIN);
 * where it is not permitted the tests are skipped and their title says why.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import process from "node:process";
import { afterAll, describe, expect, it, vi } from "vitest";
import { connect, StorageError } from "../../workbench/mod.ts";
import { withFullAccess } from "./support/fullAccess.ts";
import { journalPartitions, lakeBooks } from "./support/lakeBooks.ts";

const scratch = mkdtempSync(join(tmpdir(), "full-disk-"));
const mounts: string[] = [];

function mount(args: string[], dir: string): void {
  execFileSync("mount", [...args, dir], { stdio: "pipe" });
  if (!mounts.includes(dir)) mounts.push(dir);
}

/** Why this process cannot mount a tmpfs, or undefined when it can (tried on a probe folder). */
function cannotMount(): string | undefined {
  if (process.platform !== "linux") return `mounting a tmpfs needs Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return "mounting a tmpfs needs root (CAP_SYS_ADMIN)";
  const probe = join(scratch, "probe");
  mkdirSync(probe);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], { stdio: "pipe" });
  } catch (error) {
    return `mount is not permitted here (${String((error as { stderr?: unknown }).stderr ?? error).trim()})`;
  }
  execFileSync("umount", [probe]);
  return undefined;
}

const why = cannotMount();
afterAll(() => {
  for (const dir of mounts.reverse()) {
    try {
      execFileSync("umount", [dir], { stdio: "pipe" });
    } catch {
      execFileSync("umount", ["-l", dir], { stdio: "pipe" }); // busy: detached now, freed when released
    }
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) =>
    relative(dir, join(e.parentPath, e.name))
  ).sort();
}

/** The partitions the download's journal records, each with the file it names. */
function journalRecords(dir: string): Map<string, string | undefined> {
  return new Map(journalPartitions(dir).map((r) => [r.path, r.file]));
}

/** Lake files and their sizes: what a later run must keep. */
function lakeFiles(dir: string): Map<string, number> {
  return new Map(filesUnder(dir).filter((f) => f.endsWith(".parquet")).map((f) => [f, statSync(join(dir, f)).size]));
}

const UNIVERSE = { tickers: ["AAPL", "MSFT", "SPY", "QQQ"], start: "2023-11-20", end: "2023-11-28", concurrency: 1 };

describe.skipIf(why !== undefined)(`on a real tmpfs${why ? ` (skipped: ${why})` : ""}`, () => {
  const local = withFullAccess();

  it("a download into a full 1.6 MB tmpfs is a StorageError naming the path and 'no space', leaves no temporary file, and resumes with space losing nothing", async () => {
    const whole = await local.wb.download("eq-taq-1min", UNIVERSE, join(scratch, "reference"));
    const disk = join(scratch, "disk");
    mkdirSync(disk);
    mount(["-t", "tmpfs", "-o", "size=1600k", "tmpfs"], disk);
    const dir = join(disk, "lake");

    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let error: unknown;
    try {
      await local.wb.download("eq-taq-1min", UNIVERSE, dir);
    } catch (e) {
      error = e;
    } finally {
      warn.mockRestore();
    }
    expect(error).toBeInstanceOf(StorageError);
    const storage = error as StorageError;
    expect(storage.code, `${storage.path}: ${storage.message}`).toBe("ENOSPC");
    expect(storage.path.startsWith(dir), `${storage.path}: ${storage.message}`).toBe(true);
    expect(storage.message).toContain(`'${storage.path}'`);
    expect(storage.message).toMatch(/no space/i);
    const left = filesUnder(dir);
    expect(left.filter((f) => /\.tmp$|\.partial$/.test(f))).toEqual([]);
    expect(left).not.toContain("_download.lock");
    expect(filesUnder(lakeBooks(dir).books).filter((f) => /\.tmp$|_download\.lock$/.test(f))).toEqual([]);
    // What the journal recorded before the disk filled: reused by the resume, never fetched again.
    // Units are written at once, so the disk may fill before any file is in place; a file whose
    // journal line found no room is recorded by no partition: removed by the resume, said, and
    // its partitions fetched again.
    const recorded = journalRecords(dir);
    const recordedFiles = new Set([...recorded.values()].filter(Boolean));
    const before = new Map([...lakeFiles(dir)].filter(([file]) => recordedFiles.has(file)));
    const unrecorded = [...lakeFiles(dir).keys()].filter((file) => !recordedFiles.has(file));
    expect(recorded.size).toBeLessThan(whole.partitions);
    // Files of about 0.7 MB, one unit at a time: the first ones fit, and the resume keeps them.
    expect(before.size).toBeGreaterThan(0);

    // A re-run on the disk still full stops before sending any request.
    const used = (await local.wb.account.quotasRaw()).quotas_usage.monthly_requests;
    const said: string[] = [];
    const quiet = vi.spyOn(console, "warn").mockImplementation((m: unknown) => void said.push(String(m).replace(/^Warning: /, "")));
    const stillFull = await local.wb.download("eq-taq-1min", UNIVERSE, dir).then(() => undefined, (e: unknown) => e).finally(() =>
      quiet.mockRestore()
    );
    expect(stillFull).toBeInstanceOf(StorageError);
    expect((stillFull as StorageError).code).toBe("ENOSPC");
    expect((stillFull as Error).message).toMatch(
      /no space left on the device \(ENOSPC\): its disk has [\d.]+ MB free where the next request's \d+ partition\(s\) need about [\d.]+ MB; nothing was sent/,
    );
    expect((await local.wb.account.quotasRaw()).quotas_usage.monthly_requests).toBe(used);

    mount(["-o", "remount,size=20m"], disk);
    const again = await local.wb.download("eq-taq-1min", UNIVERSE, dir);
    // Files no partition records are removed by the first run that finds them (the one on the full disk).
    expect([...said, ...again.warnings]).toEqual(
      unrecorded.map((file) => `File ${file} of '${dir}' was recorded by no partition (left by an interrupted download): removed`),
    );
    expect(again.resumed).toBe(recorded.size > 0);
    expect(again.partitions).toBe(whole.partitions);
    expect(again.fetched).toBe(whole.partitions - recorded.size); // what was recorded before is reused, not fetched again
    const after = lakeFiles(dir);
    for (const [file, size] of before) expect(after.get(file), file).toBe(size);
    expect(local.wb.scan(dir).collectSync().frameEqual(local.wb.scan(join(scratch, "reference")).collectSync(), true)).toBe(true);
  });

  it("a download checks the free space before each request: it stops where the disk fills, and every request it sent has its rows written", async () => {
    const disk = join(scratch, "chunks-disk");
    mkdirSync(disk);
    mount(["-t", "tmpfs", "-o", "size=3000k", "tmpfs"], disk);
    const dir = join(disk, "lake");
    const sent: string[] = [];
    const fetch = (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes("/api/v1/data/us-equity/eq-taq-1min/")) sent.push(url); // the bars' requests (not the lookup files')
      return local.sb.fetch(input, init);
    };
    const wb = await connect({ baseUrl: local.sb.baseUrl, fetch, apiKey: "demo-full-access" });
    // 32 requests of two or three days (8 in flight): about 0.2 MB each, far more than the disk holds.
    const universe = { tickers: ["AAPL", "MSFT", "SPY", "QQQ", "JPM", "CVX", "TSM", "SIRI"], start: "2023-11-20", end: "2023-11-28" };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = await wb.download("eq-taq-1min", universe, dir, { chunkDays: 2 }).then(() => undefined, (e: unknown) => e).finally(() =>
      warn.mockRestore()
    );
    expect(error).toBeInstanceOf(StorageError);
    // The check's refusal, not a write that failed after its request was paid for.
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Cannot write into '${dir}': no space left on the device \\(ENOSPC\\): its disk has [\\d.]+ MB free where the next request's \\d+ partition\\(s\\)( and the \\d+ of requests in flight)? need about [\\d.]+ MB; nothing was sent`,
      ),
    );
    const written = lakeFiles(dir);
    const recorded = new Set([...journalRecords(dir).values()].filter(Boolean));
    expect([...written.keys()].filter((file) => !recorded.has(file))).toEqual([]);
    // Each request here is one page of one ticker's days: one file each, none fetched in vain.
    expect(written.size).toBeGreaterThan(0);
    expect(sent.length).toBe(written.size);
  });

  it("a cached call into a full tmpfs returns its frame with a warning naming the path and 'no space', leaves no partial file, and caches once there is space", async () => {
    const disk = join(scratch, "cache-disk");
    mkdirSync(disk);
    mount(["-t", "tmpfs", "-o", "size=64k", "tmpfs"], disk);
    const cache = join(disk, "frames");
    const warnings: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((m: unknown) => void warnings.push(String(m)));
    try {
      const wb = await connect({ baseUrl: local.sb.baseUrl, fetch: local.sb.fetch, apiKey: "demo-full-access", cache });
      const query = { start: "2023-11-20", end: "2023-11-28" };
      const fetched = await wb.data.eqTaq1Min("AAPL", query);
      expect(fetched.height).toBeGreaterThan(0);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        new RegExp(`Cannot cache the frame in '${cache}/eq-taq-1min-[0-9a-f]{32}\\.parquet': .*no space.* \\(ENOSPC\\)`, "i"),
      );
      expect(filesUnder(cache)).toEqual([]); // neither the frame nor its provenance, nor a partial file
      expect(wb.cache.hits).toBe(0);

      mount(["-o", "remount,size=20m"], disk);
      expect((await wb.data.eqTaq1Min("AAPL", query)).frameEqual(fetched, true)).toBe(true);
      expect((await wb.data.eqTaq1Min("AAPL", query)).frameEqual(fetched, true)).toBe(true);
      expect(wb.cache.hits).toBe(1);
      expect(warnings).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });

  it("a read-only folder is a StorageError naming it, for a new download and a complete one alike; its lake still scans", async () => {
    const source = join(scratch, "writable");
    const readOnly = join(scratch, "read-only");
    mkdirSync(readOnly);
    const range = { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-22" };
    const complete = await local.wb.download("eq-taq-1min", range, join(source, "lake"));
    mount(["--bind", source], readOnly);
    mount(["-o", "remount,bind,ro"], readOnly);
    expect(() => writeFileSync(join(readOnly, "probe"), "")).toThrow(/EROFS/); // root ignores modes, not a read-only mount

    for (const dir of [join(readOnly, "new-lake"), join(readOnly, "lake")]) {
      const error = await local.wb.download("eq-taq-1min", range, dir).then(() => undefined, (e: unknown) => e);
      expect(error, dir).toBeInstanceOf(StorageError);
      expect((error as StorageError).code).toBe("EROFS");
      expect((error as StorageError).path).toBe(dir);
      expect((error as Error).message).toMatch(new RegExp(`'${dir}': the file system is read-only \\(EROFS\\)`));
    }
    expect(existsSync(join(readOnly, "new-lake"))).toBe(false);
    expect(local.wb.scan(join(readOnly, "lake")).collectSync().height).toBe(complete.rows);
    expect(JSON.parse(readFileSync(lakeBooks(join(readOnly, "lake")).manifest, "utf8")).dataset).toBe("eq-taq-1min");
  });
});
