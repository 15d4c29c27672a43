/**
 * Generation stress run: generates a profile N times under Deno, each in a fresh process on
 * one thread (or `--workers`), and compares every file's content hash with the first run's
 * (or with a saved market, `--reference`). A rare nondeterministic fault (a frame built from
 * memory reused before Polars read it) shows as a file that differs in one run; for a Parquet
 * file the differing rows are printed. Exits 1 on any difference.
 *
 *   deno run -A bench/generationRepeat.ts [--runs N] [--profile tiny] [--workers 1]
 *     [--reference <market dir>] [--keep <dir for the first run>]
 */
import pl from "nodejs-polars";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "./support/paths.ts";
import { loadAverages } from "./support/stats.ts";
import process from "node:process";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "20" },
    profile: { type: "string", default: "tiny" },
    workers: { type: "string", default: "1" },
    reference: { type: "string" },
    keep: { type: "string" },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs '${values.runs}' is not a whole number of 1 or more`);
const scratch = mkdtempSync(join(tmpdir(), "bench-generation-repeat-"));

/** Content hash of every file under `dir`, by relative path. */
function fingerprint(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p), createHash("sha256").update(readFileSync(p)).digest("hex"));
    }
  };
  walk(dir);
  return out;
}

/** The rows of two Parquet files that differ, as text (at most a few). */
function rowDifferences(a: string, b: string): string {
  try {
    const fa = pl.readParquet(a), fb = pl.readParquet(b);
    if (fa.height !== fb.height) return `    ${fa.height} rows against ${fb.height}`;
    const lines: string[] = [];
    const ra = fa.toRecords(), rb = fb.toRecords();
    for (let i = 0; i < ra.length && lines.length < 6; i++) {
      const cols = Object.keys(ra[i]).filter((k) => String(ra[i][k]) !== String(rb[i][k]));
      if (cols.length) {
        lines.push(
          `    row ${i}: ${cols.map((k) => `${k} ${ra[i][k]} -> ${rb[i][k]}`).join(", ")}${
            "Ticker" in ra[i] ? ` (Ticker ${ra[i].Ticker})` : ""
          }`,
        );
      }
    }
    return lines.join("\n");
  } catch (e) {
    return `    (not compared row by row: ${(e as Error).message})`;
  }
}

function generate(out: string): number {
  const t0 = performance.now();
  execFileSync(
    process.execPath,
    [
      "run",
      "-A",
      join(REPO_ROOT, "sandbox/market/cli.ts"),
      "--profile",
      values.profile!,
      "--seed",
      "42",
      "--out",
      out,
      "--workers",
      values.workers!,
    ],
    { cwd: REPO_ROOT, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NO_COLOR: "1" } },
  );
  return (performance.now() - t0) / 1000;
}

const startLoad = loadAverages();
let differing = 0;
try {
  let referenceDir = values.reference;
  if (!referenceDir) {
    referenceDir = join(scratch, "first");
    console.log(`run 1: reference, ${generate(referenceDir).toFixed(1)} s`);
    if (values.keep) cpSync(referenceDir, values.keep, { recursive: true });
  }
  const reference = fingerprint(referenceDir);
  for (let r = values.reference ? 1 : 2; r <= runs; r++) {
    const out = join(scratch, `run-${r}`);
    const seconds = generate(out);
    const got = fingerprint(out);
    const paths = new Set([...reference.keys(), ...got.keys()]);
    const diffs = [...paths].filter((p) => reference.get(p) !== got.get(p)).sort();
    console.log(`run ${r}: ${diffs.length} file(s) differ, ${seconds.toFixed(1)} s, load ${loadAverages()}`);
    for (const p of diffs) {
      console.log(`  ${p}: ${reference.get(p)?.slice(0, 12) ?? "missing"} -> ${got.get(p)?.slice(0, 12) ?? "missing"}`);
      if (p.endsWith(".parquet") && reference.has(p) && got.has(p)) console.log(rowDifferences(join(referenceDir, p), join(out, p)));
    }
    if (diffs.length) differing++;
    rmSync(out, { recursive: true, force: true });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(
  `${differing} of ${
    values.reference ? runs : runs - 1
  } run(s) differed from the reference; load average at start ${startLoad}, at end ${loadAverages()}`,
);
if (differing) process.exitCode = 1;
