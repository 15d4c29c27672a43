/**
 * Verify benchmark: `npm run recipe -- <name> --verify <manifest>` against the plain run of
 * the same recipe, both in this run on the demo market (the shared demo sandbox, started or
 * reused first so neither run pays for it). Target: a verified re-run within 1.5 times the
 * plain run. Each recipe runs plain once to write its manifest, then `--rounds` (default 3)
 * verified and plain runs alternate; prints the medians, their ratio, every run's time and the
 * verdict's summary.
 *
 *   deno run -A bench/verify.ts [--recipes intraday-spread,oi-term-structure] [--rounds 3]
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { run } from "../scripts/run.mjs";
import { sandbox } from "../sandbox/launcher/mod.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { median } from "./support/stats.ts";
import process from "node:process";

const TARGET = 1.5;
const { values } = parseArgs({ options: { recipes: { type: "string" }, rounds: { type: "string", default: "3" } } });
const ROUNDS = Number(values.rounds);
const recipesDir = join(REPO_ROOT, "recipes");
const names = values.recipes?.split(",") ??
  readdirSync(recipesDir).filter((f) => f.endsWith(".ipynb")).map((f) => basename(f, ".ipynb")).sort();
const out = mkdtempSync(join(tmpdir(), "bench-verify-"));
const deno = join(REPO_ROOT, "node_modules", ".bin", "deno");

/** One runner invocation, timed from the outside (what a user waits for). */
async function recipe(name: string, args: string[]): Promise<{ seconds: number; stdout: string; status: number }> {
  const start = performance.now();
  const r = await run(deno, ["run", "-A", join(REPO_ROOT, "scripts/recipe.ts"), name, "--out", out, ...args], {
    cwd: REPO_ROOT,
    timeoutMs: 900_000,
    env: { ...process.env, npm_lifecycle_event: "recipe" },
  });
  return { seconds: (performance.now() - start) / 1000, stdout: r.stdout, status: r.status ?? -1 };
}

const local = await sandbox(); // the demo sandbox both runs reuse
let missed = 0;
try {
  console.log(
    `${"recipe".padEnd(22)} ${"plain s".padStart(8)} ${"verify s".padStart(9)} ${
      "ratio".padStart(6)
    }  verdict (medians; every run in brackets)`,
  );
  for (const name of names) {
    const manifest = join(out, `${name}.provenance.json`);
    const first = await recipe(name, []); // writes the manifest every verified run checks
    if (first.status !== 0 || !existsSync(manifest)) {
      console.log(`${name.padEnd(22)} plain run failed (exit ${first.status}); skipped`);
      continue;
    }
    const saved = `${manifest}.saved`;
    copyFileSync(manifest, saved);
    // Plain and verified runs alternate (which goes first too), so the shared machine's load
    // drifts over both alike; the medians are compared.
    const plain: number[] = [first.seconds], verified: number[] = [];
    let verdict = "";
    for (let round = 0; round < ROUNDS; round++) {
      const runVerified = async () => {
        const r = await recipe(name, ["--verify", saved]);
        verified.push(r.seconds);
        verdict = r.stdout.split("\n").filter((l) => l.startsWith("verify: ")).at(-1)?.slice(8) ?? `exit ${r.status}`;
      };
      const runPlain = async () => void plain.push((await recipe(name, [])).seconds);
      if (round % 2 === 0) await runVerified().then(runPlain);
      else await runPlain().then(runVerified);
    }
    const ratio = median(verified) / median(plain);
    if (ratio > TARGET) missed++;
    const all = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(" ");
    console.log(
      `${name.padEnd(22)} ${median(plain).toFixed(1).padStart(8)} ${median(verified).toFixed(1).padStart(9)} ${
        ratio.toFixed(2).padStart(6)
      }  ${verdict.replace(saved, "its manifest")}  (plain ${all(plain)}; verify ${all(verified)})`,
    );
  }
  console.log(missed === 0 ? `target met (verify within ${TARGET}x the plain run)` : `TARGET MISSED for ${missed} recipe(s)`);
  if (missed > 0) process.exitCode = 1;
} finally {
  rmSync(out, { recursive: true, force: true });
  local.stop();
}
