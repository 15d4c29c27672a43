/**
 * Market generation benchmark: time and peak memory per profile, each in a fresh process,
 * against the Parquet I/O of the same ticks measured in the same run (read back and rewrite).
 * Targets on the 2-core machine: tiny within 15 s, demo within 90 s, peak memory under 2.5 GB.
 *
 *   deno run -A bench/generation.ts [--profiles tiny,demo] [--scale X]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "./support/paths.ts";

const TARGET_SECONDS: Record<string, number> = { tiny: 15, demo: 90 };
const TARGET_PEAK_MB = 2560;

const { values } = parseArgs({ options: { profiles: { type: "string", default: "tiny,demo" }, scale: { type: "string" } } });
const scratch = mkdtempSync(join(tmpdir(), "bench-generation-"));
const rows: string[] = [];
let failed = false;
try {
  for (const profile of values.profiles!.split(",")) {
    const wall0 = performance.now();
    const output = execFileSync(
      process.execPath,
      ["run", "-A", join(REPO_ROOT, "bench/support/generateOnce.ts"), profile, join(scratch, profile), ...(values.scale ? [values.scale] : [])],
      { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
    );
    const wallSeconds = (performance.now() - wall0) / 1000;
    const r = JSON.parse(output.trim().split("\n").at(-1)!);
    const target = TARGET_SECONDS[profile];
    const ok = (target === undefined || wallSeconds <= target) && r.generatePeakMb <= TARGET_PEAK_MB;
    failed ||= !ok;
    rows.push([
      profile.padEnd(6),
      String(r.days).padStart(4),
      String(r.ticks).padStart(10),
      r.generateSeconds.toFixed(1).padStart(8),
      wallSeconds.toFixed(1).padStart(8),
      (target ? `<= ${target}` : "-").padStart(6),
      Math.round(r.ticks / r.generateSeconds).toString().padStart(9),
      r.generatePeakMb.toFixed(0).padStart(8),
      r.baselineSeconds.toFixed(1).padStart(9),
      (r.generateSeconds / r.baselineSeconds).toFixed(1).padStart(6),
      ok ? "ok" : "MISSED",
    ].join("  "));
    rmSync(join(scratch, profile), { recursive: true, force: true });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log("profile  days       ticks  gen (s)  wall (s)  target  ticks/s  peak MB  io base (s)  ratio  verdict");
for (const r of rows) console.log(r);
console.log(`peak memory target: <= ${TARGET_PEAK_MB} MB; 'io base' rewrites the same ticks with Polars alone; ratio = generation / io base`);
if (failed) process.exitCode = 1;
