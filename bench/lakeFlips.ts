/**
 * One-byte flips of a lake file (issue 40, item 2): a 5-day download of AAPL's 1-minute bars,
 * then for each of 10 offsets spread over its one data file a copy of the folder with that
 * byte flipped, read by `wb.scan` and re-run by `wb.download`, each in a child process
 * (bench/support/lakeFlipChild.ts) so a reader's panic shows as its exit code. Each outcome is
 * one of: served the same rows, served wrong rows, refused (the error's class), crashed (exit
 * code); a re-run says how many partitions it fetched again and whether it warned.
 *
 *   deno run -A bench/lakeFlips.ts [market folder, default data/demo]
 */
import { spawnSync } from "node:child_process";
import { closeSync, cpSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "./support/paths.ts";
import { ensureDemoMarket } from "./support/sandboxMarkets.ts";
import { startSandboxProcess } from "./support/sandboxServer.ts";

const demoDir = Deno.args[0] ?? join(REPO_ROOT, "data", "demo");
ensureDemoMarket(demoDir, (line) => console.error(`bench: ${line}`));
const sandbox = await startSandboxProcess(demoDir);
const scratch = mkdtempSync(join(tmpdir(), "bench-lake-flips-"));
const query = JSON.stringify({ tickers: ["AAPL"], start: "2023-11-13", end: "2023-11-17" });
const deno = join(REPO_ROOT, "node_modules", ".bin", "deno");

type Outcome = {
  ok: boolean;
  rows?: number;
  hash?: string;
  fetched?: number;
  warnings: string[];
  error?: string;
  message?: string;
  exit: number | null;
  signal: string | null;
};
function child(mode: "scan" | "download", dir: string): Outcome {
  const r = spawnSync(deno, ["run", "-A", join(REPO_ROOT, "bench", "support", "lakeFlipChild.ts"), mode, sandbox.baseUrl, dir, query], {
    encoding: "utf8",
    cwd: REPO_ROOT,
  });
  const line = r.stdout.trim().split("\n").filter((l) => l.startsWith("{")).at(-1);
  const parsed = line
    ? JSON.parse(line)
    : { ok: false, warnings: [], error: "no answer", message: r.stderr.trim().split("\n").slice(-2).join(" ") };
  return { ...parsed, exit: r.status, signal: r.signal };
}
const dataFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) =>
    e.isFile() && e.name.endsWith(".parquet") && !e.name.startsWith(".")
  ).map((e) => join(e.parentPath, e.name));

try {
  const base = join(scratch, "base");
  const reference = child("download", join(base, "lake"));
  if (!reference.ok) throw new Error(`the reference download failed: ${reference.message}`);
  const [file] = dataFiles(join(base, "lake"));
  const size = statSync(file).size;
  console.log(
    `lake-flips benchmark: ${reference.rows} rows in one file of ${size.toLocaleString("en-US")} bytes; reference ${reference.hash}`,
  );
  const offsets = [0.002, 0.05, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 0.97, 0.995].map((f) =>
    Math.max(4, Math.min(size - 5, Math.floor(f * size)))
  );
  const tally = { scan: new Map<string, number>(), download: new Map<string, number>() };
  const judge = (o: Outcome, mode: "scan" | "download") => {
    if (o.exit !== 0 || o.signal) return `crashed (exit ${o.exit ?? o.signal})`;
    if (!o.ok) return `refused (${o.error})`;
    const served = o.hash === reference.hash ? "served the same rows" : "served wrong rows";
    return mode === "download"
      ? `${o.fetched ? `fetched ${o.fetched} again` : "reused it"}${o.warnings.length ? " with a warning" : " silently"}, then ${served}`
      : served;
  };
  for (const [k, offset] of offsets.entries()) {
    const results: string[] = [];
    for (const mode of ["scan", "download"] as const) {
      const copy = join(scratch, `flip-${k}-${mode}`);
      cpSync(base, copy, { recursive: true });
      const target = join(copy, file.slice(base.length));
      const fd = openSync(target, "r+");
      const byte = new Uint8Array(1);
      readSync(fd, byte, 0, 1, offset);
      byte[0] ^= 0xff;
      writeSync(fd, byte, 0, 1, offset);
      closeSync(fd);
      const verdict = judge(child(mode, join(copy, "lake")), mode);
      tally[mode].set(verdict, (tally[mode].get(verdict) ?? 0) + 1);
      results.push(`${mode}: ${verdict}`);
      rmSync(copy, { recursive: true, force: true });
    }
    console.log(`offset ${offset.toLocaleString("en-US")} (${((offset / size) * 100).toFixed(1)}%): ${results.join("; ")}`);
  }
  for (const mode of ["scan", "download"] as const) {
    console.log(`${mode} of 10 flips: ${[...tally[mode]].map(([v, n]) => `${n} ${v}`).join(", ")}`);
  }
} finally {
  await sandbox.stop();
  rmSync(scratch, { recursive: true, force: true });
}
