/**
 * `npm run demo`: the main job. Makes sure the demo market is there (generating it on every
 * core in a watched child process, saying how far it got and how long it took), starts the sandbox on it (or reuses the running one), executes the teaching
 * notebooks and the recipes in the Deno kernel, writes the executed notebooks and their HTML
 * reports to out/, and sums each one up. Stops the sandbox if it started it; exits 1 when a
 * notebook is missing or shows an error.
 *
 *   deno run -A scripts/demo.ts [notebook.ipynb ...]   (default: the six below)
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import process from "node:process";
import { GENERATOR_VERSION, type Manifest } from "../sandbox/market/manifest.ts";
import { type NotebookRun, runNotebook, shown, summaryLine } from "./notebookRun.ts";
import { outDir, repoRoot } from "./paths.mjs";
import { openSandbox } from "./sandboxSession.ts";
import { generateWatched } from "./watchedGeneration.ts";

const NOTEBOOKS = [
  "notebooks/quickstart.ipynb",
  "notebooks/entitlements.ipynb",
  "notebooks/reproducible-research.ipynb",
  "recipes/intraday-spread.ipynb",
  "recipes/oi-term-structure.ipynb",
  "recipes/adjusted-contracts.ipynb",
];
const SEED = 42;
const marketDir = join(repoRoot, "data", "demo");

/** Seconds between progress lines while the market is generated. */
const PROGRESS_SECONDS = 5;
/**
 * Seconds without a finished day after which the generation counts as stuck and is restarted
 * (see watchedGeneration.ts). A day takes a few seconds even on a loaded machine.
 */
const STALL_SECONDS = 90;
/** Generation attempts in all. */
const ATTEMPTS = 3;
/** Notebooks executed at the same time (each in its own kernel). */
const NOTEBOOKS_AT_ONCE = Math.max(1, Math.min(2, navigator.hardwareConcurrency));

/** The demo market's manifest, generating the market unless this generator and seed made it. */
async function demoMarket(): Promise<Manifest> {
  const path = join(marketDir, "manifest.json");
  const existing: Manifest | undefined = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
  if (existing?.generatorVersion === GENERATOR_VERSION && existing.seed === SEED && existing.profile === "demo") {
    console.log(`demo: using the demo market at ${shown(marketDir)}`);
    return existing;
  }
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const workers = navigator.hardwareConcurrency;
  console.log(
    `demo: generating the demo market into ${shown(marketDir)} once, on ${workers} core${
      workers === 1 ? "" : "s"
    }; progress every ${PROGRESS_SECONDS} s`,
  );
  let shownAt = 0;
  let attemptStarted = 0;
  await generateWatched({
    profile: "demo",
    seed: SEED,
    outDir: marketDir,
    workers,
    stallSeconds: STALL_SECONDS,
    attempts: ATTEMPTS,
    onProgress: (p) => {
      if (seconds() - shownAt < PROGRESS_SECONDS || p.day === p.days) return;
      shownAt = seconds();
      // The time left is this attempt's own pace so far, not a guess made elsewhere.
      const left = ((seconds() - attemptStarted) / p.day) * (p.days - p.day);
      console.log(
        `demo: generated ${p.day}/${p.days} days (${p.date}) in ${seconds().toFixed(0)} s, about ${left.toFixed(0)} s to go at this pace`,
      );
    },
    onRestart: (attempt, silent) => {
      attemptStarted = seconds();
      console.log(
        `demo: the generation made no progress for ${
          silent.toFixed(0)
        } s, so it was stopped; starting it again (attempt ${attempt} of ${ATTEMPTS})`,
      );
    },
  });
  console.log(`demo: generated the demo market in ${seconds().toFixed(1)} s`);
  return JSON.parse(readFileSync(path, "utf8"));
}

/** out/ mirrors the repository: notebooks/x.ipynb runs into out/notebooks/. */
function outputDir(notebook: string): string {
  const rel = relative(repoRoot, dirname(notebook));
  return rel.startsWith("..") ? join(outDir, "other") : join(outDir, rel);
}

const notebooks = (process.argv.length > 2 ? process.argv.slice(2) : NOTEBOOKS).map((p) => resolve(repoRoot, p));
const manifest = await demoMarket();
console.log(
  `demo: market ${manifest.start} to ${manifest.end}, ${manifest.tradingDays.length} trading days (seed ${manifest.seed}; tickers real, prices synthetic)`,
);

const session = await openSandbox();
console.log(`demo: sandbox ${session.started ? "started" : "already running"} at ${session.baseUrl}`);
const runs: NotebookRun[] = new Array(notebooks.length);
/** Runs the notebook at `index`, keeping its result in notebook order. */
async function runAt(index: number): Promise<void> {
  const notebook = notebooks[index];
  const name = shown(notebook);
  if (!existsSync(notebook)) {
    runs[index] = { name, seconds: 0, figures: 0, errors: [`${name} does not exist`] };
    return;
  }
  console.log(`demo: running ${name} ...`);
  const run = await runNotebook(notebook, outputDir(notebook), { name, env: session.env });
  for (const error of run.errors) console.error(`\n${error}\n`);
  console.log(`demo: ${summaryLine(run, 0)}`);
  runs[index] = run;
}
try {
  // A notebook's run waits on its kernel, its Python and the sandbox in turn, so two at a time
  // keep two cores busy; each notebook has its own kernel and output files.
  let next = 0;
  const lane = async () => {
    while (next < notebooks.length) await runAt(next++);
  };
  await Promise.all(Array.from({ length: Math.min(NOTEBOOKS_AT_ONCE, notebooks.length) }, lane));
} finally {
  await session.close();
  if (session.started) console.log("demo: stopped the sandbox");
}

const width = Math.max(...runs.map((r) => r.name.length)) + 2;
console.log("\nExecuted notebooks and HTML reports:");
for (const run of runs) {
  console.log(`  ${summaryLine(run, width)}`);
  if (run.html) console.log(`  ${"".padEnd(width)} ${shown(run.ipynb!)}\n  ${"".padEnd(width)} ${shown(run.html)}`);
}
const failed = runs.filter((r) => r.errors.length > 0);
console.log(
  failed.length === 0
    ? `\nAll ${runs.length} notebook${runs.length === 1 ? "" : "s"} ran without errors.`
    : `\n${failed.length} of ${runs.length} notebooks failed: ${failed.map((r) => r.name).join(", ")}`,
);
process.exit(failed.length === 0 ? 0 : 1);
