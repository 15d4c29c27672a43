// The suite's CPU budget: runs `node scripts/test.mjs` (arguments go to vitest) with each test
// file's CPU seconds logged (test/cpuProbe.ts), then prints the files by CPU, most first, and
// the totals. On 2 cores the suite is CPU-bound: its wall time is about its CPU seconds over
// two, so this table, not the files' wall times, says what a change to a file saves.
//   node scripts/testCpu.mjs [vitest arguments]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "./paths.mjs";
import process from "node:process";

/**
 * Rows of a TEST_CPU_LOG (file, wall, own and children's CPU seconds), summed per file and
 * sorted by CPU, most first, with the totals.
 *
 * @param {string} log the log's text
 * @returns {{ rows: { file: string, wall: number, own: number, children: number, cpu: number }[], total: { wall: number, own: number, children: number, cpu: number } }}
 */
export function cpuTable(log) {
  const byFile = new Map();
  for (const line of log.split("\n").filter(Boolean)) {
    const [file, ...numbers] = line.split("\t");
    const [wall, own, children] = numbers.map(Number);
    if (numbers.length !== 3 || ![wall, own, children].every(Number.isFinite)) {
      throw new Error(`Not a line of TEST_CPU_LOG (file, wall, own and children's CPU seconds, tab-separated): '${line}'`);
    }
    const row = byFile.get(file) ?? { file, wall: 0, own: 0, children: 0 };
    row.wall += wall;
    row.own += own;
    row.children += children;
    byFile.set(file, row);
  }
  const rows = [...byFile.values()].map((r) => ({ ...r, cpu: r.own + r.children })).sort((a, b) => b.cpu - a.cpu);
  const sum = (key) => rows.reduce((s, r) => s + r[key], 0);
  return { rows, total: { wall: sum("wall"), own: sum("own"), children: sum("children"), cpu: sum("cpu") } };
}

// Run, not imported (the test imports cpuTable): compared as URLs, so a path with spaces or a
// symbolic link still matches.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const dir = mkdtempSync(join(tmpdir(), "test-cpu-"));
  const log = join(dir, "cpu.tsv");
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(repoRoot, "scripts", "test.mjs"), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, TEST_CPU_LOG: log },
  });
  const wall = (performance.now() - started) / 1000;
  let text = "";
  try {
    text = readFileSync(log, "utf8");
  } catch {
    console.error("testCpu: no test file finished, so there is nothing to show");
  }
  rmSync(dir, { recursive: true, force: true });
  if (text) {
    const { rows, total } = cpuTable(text);
    const cells = (r) => [r.cpu, r.own, r.children, r.wall].map((v) => v.toFixed(1).padStart(10)).join("");
    console.log(`\n${"CPU s".padStart(10)}${"worker".padStart(10)}${"children".padStart(10)}${"wall s".padStart(10)}  file`);
    for (const r of rows) console.log(`${cells(r)}  ${relative(repoRoot, r.file)}`);
    console.log(`${cells(total)}  all ${rows.length} files (the global setup and vitest's own work not included)`);
    console.log(`the run: ${wall.toFixed(0)} s of wall time`);
  }
  process.exit(run.status ?? 1);
}
