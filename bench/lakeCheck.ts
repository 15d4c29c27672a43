/**
 * What checking reused partitions costs (issue 20, item 2; by content since issue 40, item 2): a
 * re-run of a complete 260-partition download (every `demo` ticker's eq-taq-1min over 20 trading
 * days) checks each file against its record before reusing it (`damageChecker`: its size at
 * every use, the SHA-256 of its bytes the first time a process uses it, size, modification
 * time and inode after). Timed in the same run, alternating: what the re-run reads anyway (the
 * folder's manifest with its journal, `readManifest`, and a listing of its tickers' folders),
 * the check by size and magic bytes alone (what formats 1 and 2 get, and what every folder got
 * before hashes), the first check in a process (every file hashed: `forgetCheckedFiles` first)
 * and the next ones; a folder written before sizes were recorded (each file's footer read by
 * Polars); the whole re-run (`wb.download`, nothing fetched) for scale; and `wb.scan`, which
 * checks every file too, first and next, against a plain `pl.scanParquet` of the folder. Files
 * are in the page cache for all of them (the download just wrote them), as for a re-run in the
 * same session.
 *
 *   deno run -A bench/lakeCheck.ts [rounds=7] [market folder, default data/demo]
 */
import pl from "nodejs-polars";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { tradingDays } from "../calendar/calendar.ts";
import { connect } from "../workbench/mod.ts";
import { damageChecker, forgetCheckedFiles, partitionDamage } from "../workbench/store/lakeCheck.ts";
import { partitionFile } from "../workbench/store/lakePlan.ts";
import { readManifest } from "../workbench/store/manifest.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { ensureDemoMarket } from "./support/sandboxMarkets.ts";
import { startSandboxProcess } from "./support/sandboxServer.ts";
import { median } from "./support/stats.ts";

const rounds = Number(Deno.args[0] ?? 7);
const demoDir = Deno.args[1] ?? join(REPO_ROOT, "data", "demo");
const manifest = ensureDemoMarket(demoDir, (line) => console.error(`bench: ${line}`));
const tickers: string[] = (JSON.parse(readFileSync(join(demoDir, "manifest.json"), "utf8")).securities as { ticker: string }[]).map((s) =>
  s.ticker
);
const days = tradingDays(manifest.start, manifest.end).map((d) => d.date).slice(0, 20);
const loadAtStart = loadavg()[0];
const sandbox = await startSandboxProcess(demoDir);
const scratch = mkdtempSync(join(tmpdir(), "bench-lake-check-"));

/** Seconds of `f`, run `repeat` times (the figures are small: several calls a timing). */
function seconds(f: () => unknown, repeat: number): number {
  const t = performance.now();
  for (let i = 0; i < repeat; i++) f();
  return (performance.now() - t) / 1000 / repeat;
}

try {
  const lake = join(scratch, "lake");
  const wb = await connect({ baseUrl: sandbox.baseUrl, apiKey: "demo-full-access", quotaGuard: false, provenance: false });
  const query = { tickers, start: days[0], end: days.at(-1)! };
  const started = performance.now();
  const first = await wb.download("eq-taq-1min", query, lake);
  const firstSeconds = (performance.now() - started) / 1000;
  const records = Object.entries(readManifest(lake)!.partitions);
  if (records.length !== 260) console.error(`bench: ${records.length} partitions, not 260 (market ${demoDir})`);

  const baseline = () => {
    const m = readManifest(lake)!;
    const listed = tickers.reduce((n, t) => n + readdirSync(join(lake, `Ticker=${t}`)).length, 0);
    if (listed < tickers.length || Object.keys(m.partitions).length === 0) throw new Error("the listing misses files");
  };
  const manifest = readManifest(lake)!;
  const check = () => {
    const damage = damageChecker(lake, manifest); // as a re-run checks: each file once
    for (const [path, record] of records) if (damage(path, record) !== undefined) throw new Error(`${path} found damaged`);
  };
  const checkFirst = () => {
    forgetCheckedFiles(); // as a new process: every file hashed
    check();
  };
  // By size and magic bytes alone: formats 1 and 2, and every folder before content hashes.
  const checkSizes = () => {
    const damage = damageChecker(lake, { files: undefined });
    for (const [path, record] of records) {
      if (damage(path, { ...record, bytes: manifest.files![record.file!]?.bytes }) !== undefined) {
        throw new Error(`${path} found damaged`);
      }
    }
  };
  // A folder of format 1 records no sizes: each file's footer is read for its rows (a file of several days: theirs summed).
  const rowsByFile = new Map<string, number>();
  for (const [path, record] of records) {
    rowsByFile.set(partitionFile(path, record), (rowsByFile.get(partitionFile(path, record)) ?? 0) + record.rows);
  }
  const checkFooters = () => {
    for (const [file, rows] of rowsByFile) {
      if (partitionDamage(lake, "", { rows, file }) !== undefined) throw new Error(`${file} found damaged`);
    }
  };
  const plainScan = () => pl.scanParquet(join(lake, "**", "*.parquet"), { hivePartitioning: true } as never);
  const scan = () => wb.scan(lake);
  const scanFirst = () => {
    forgetCheckedFiles();
    wb.scan(lake);
  };
  const times = {
    baseline: [] as number[],
    sizes: [] as number[],
    first: [] as number[],
    check: [] as number[],
    footers: [] as number[],
    rerun: [] as number[],
    plainScan: [] as number[],
    scan: [] as number[],
    scanFirst: [] as number[],
  };
  for (const f of [baseline, checkSizes, checkFirst, check, checkFooters, plainScan, scan]) f(); // warm
  for (let round = 0; round < rounds; round++) {
    times.baseline.push(seconds(baseline, 10));
    times.sizes.push(seconds(checkSizes, 10));
    times.first.push(seconds(checkFirst, 3));
    times.scanFirst.push(seconds(scanFirst, 3));
    times.check.push(seconds(check, 10));
    times.footers.push(seconds(checkFooters, 2));
    times.plainScan.push(seconds(plainScan, 10));
    times.scan.push(seconds(scan, 10));
    const t = performance.now();
    const again = await wb.download("eq-taq-1min", query, lake);
    times.rerun.push((performance.now() - t) / 1000);
    if (again.fetched !== 0 || again.warnings.length) {
      throw new Error(`the re-run fetched ${again.fetched} partitions (${again.warnings.join("; ")}); expected every one reused`);
    }
  }
  const ms = (s: number) => `${(s * 1000).toFixed(2)} ms`;
  const [b, c, f, r] = [median(times.baseline), median(times.check), median(times.footers), median(times.rerun)];
  console.log(
    `lake-check benchmark: ${tickers.length} tickers x ${days.length} days of eq-taq-1min, ${records.length} partitions, ${
      first.rows.toLocaleString("en-US")
    } rows; ${cpus()[0]?.model ?? "?"}, ${cpus().length} cores; load ${loadAtStart.toFixed(2)} at start, ${
      loadavg()[0].toFixed(2)
    } at end; medians of ${rounds} alternating rounds`,
  );
  console.log(`manifest and journal read + partition listing (needed anyway): ${ms(b)}`);
  const [sz, fc] = [median(times.sizes), median(times.first)];
  const megabytes = Object.values(manifest.files!).reduce((n, f) => n + f.bytes, 0) / 1e6;
  console.log(
    `check by size and magic bytes only (formats 1 and 2; every folder before content hashes): ${ms(sz)}, ${
      (sz / b).toFixed(2)
    }x the read it follows`,
  );
  console.log(
    `first check in a process (SHA-256 of every file, ${Object.keys(manifest.files!).length} files, ${megabytes.toFixed(1)} MB): ${
      ms(fc)
    }, ${(fc / b).toFixed(2)}x the read, ${(megabytes / fc / 1000).toFixed(2)} GB/s`,
  );
  console.log(
    `next checks in that process (size, modification time, inode): ${ms(c)}, ${(c / b).toFixed(2)}x the read it follows, ${
      ((c / records.length) * 1e6).toFixed(1)
    } us a partition`,
  );
  console.log(`check without recorded sizes (footer read by Polars): ${ms(f)}, ${(f / b).toFixed(2)}x`);
  const [ps, ws] = [median(times.plainScan), median(times.scan)];
  console.log(
    `wb.scan (checks every file, then plans the scan): first in a process ${ms(median(times.scanFirst))}, next ${ms(ws)}, against ${
      ms(ps)
    } for pl.scanParquet of the same files unchecked`,
  );
  console.log(
    `whole re-run (wb.download, nothing fetched): ${ms(r)}; the check is ${((c / r) * 100).toFixed(1)}% of it, ${
      ((c / firstSeconds) * 100).toFixed(2)
    }% of the first download (${firstSeconds.toFixed(2)} s)`,
  );
} finally {
  await sandbox.stop();
  rmSync(scratch, { recursive: true, force: true });
}
