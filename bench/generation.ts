/**
 * Market generation benchmark: time and peak memory per profile, each in a fresh process, on
 * one thread (as before generation used every core) and on one worker per core, alternating
 * in rounds so the machine's drifting load falls on both alike; beside them the Parquet I/O of
 * the same ticks (read back and rewrite), measured in the same process. Targets on the 2-core
 * machine: tiny within 15 s, demo within 60 s on every core, peak memory under 2.5 GB.
 *
 *   deno run -A bench/generation.ts [--profiles tiny,demo] [--rounds N] [--scale X]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "./support/paths.ts";
import { loadAverages } from "./support/stats.ts";
import process from "node:process";

const TARGET_SECONDS: Record<string, number> = { tiny: 15, demo: 60 };
const TARGET_PEAK_MB = 2560;
const CORES = navigator.hardwareConcurrency;

const { values } = parseArgs({
  options: { profiles: { type: "string", default: "tiny,demo" }, rounds: { type: "string", default: "1" }, scale: { type: "string" } },
});
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds '${values.rounds}' is not a whole number of 1 or more`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const scratch = mkdtempSync(join(tmpdir(), "bench-generation-"));

interface Run {
  wallSeconds: number;
  days: number;
  ticks: number;
  generateSeconds: number;
  generateCpuSeconds: number;
  generatePeakMb: number;
  baselineSeconds: number;
}

function generate(profile: string, workers: number): Run {
  const out = join(scratch, `${profile}-${workers}`);
  const wall0 = performance.now();
  const output = execFileSync(
    process.execPath,
    ["run", "-A", join(REPO_ROOT, "bench/support/generateOnce.ts"), profile, out, String(workers), ...(values.scale ? [values.scale] : [])],
    { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
  );
  const wallSeconds = (performance.now() - wall0) / 1000;
  rmSync(out, { recursive: true, force: true });
  return { wallSeconds, ...JSON.parse(output.trim().split("\n").at(-1)!) };
}

const rows: string[] = [];
let failed = false;
const startLoad = loadAverages();
try {
  for (const profile of values.profiles!.split(",")) {
    const single: Run[] = [], parallel: Run[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const workers of r % 2 === 0 ? [1, CORES] : [CORES, 1]) (workers === 1 ? single : parallel).push(generate(profile, workers));
    }
    const target = TARGET_SECONDS[profile];
    for (const [label, runs] of [["1 thread", single], [`${CORES} workers`, parallel]] as const) {
      const gen = median(runs.map((r) => r.generateSeconds)), wall = median(runs.map((r) => r.wallSeconds));
      const peak = Math.max(...runs.map((r) => r.generatePeakMb)), base = median(runs.map((r) => r.baselineSeconds));
      const judged = runs === parallel;
      const ok = (!judged || target === undefined || gen <= target) && peak <= TARGET_PEAK_MB;
      failed ||= !ok;
      rows.push([
        profile.padEnd(6),
        label.padEnd(9),
        String(runs[0].days).padStart(4),
        String(runs[0].ticks).padStart(10),
        gen.toFixed(1).padStart(8),
        median(runs.map((r) => r.generateCpuSeconds)).toFixed(1).padStart(8),
        wall.toFixed(1).padStart(8),
        (judged && target ? `<= ${target}` : "-").padStart(6),
        peak.toFixed(0).padStart(8),
        base.toFixed(1).padStart(9),
        (judged ? (median(single.map((r) => r.generateSeconds)) / gen).toFixed(2) + "x" : "-").padStart(8),
        judged || ok === false ? (ok ? "ok" : "MISSED") : "",
      ].join("  "));
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log("profile  run        days       ticks  gen (s)  cpu (s)  wall (s)  target  peak MB  io base (s)  speedup  verdict");
for (const r of rows) console.log(r);
console.log(
  `medians of ${rounds} round(s), 1 thread and ${CORES} workers alternating; speedup = 1-thread gen / workers gen; peak memory target <= ${TARGET_PEAK_MB} MB; 'io base' rewrites the same ticks with Polars alone; cpu = every thread's CPU seconds (wall on a machine this busy stretches, cpu much less)`,
);
console.log(`load average (1, 5, 15 min) at start: ${startLoad}; at end: ${loadAverages()}`);
if (failed) process.exitCode = 1;
