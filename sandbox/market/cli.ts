/**
 * `npm run market -- --profile demo --seed 42 --out <dir> [--workers N]`: generates a synthetic
 * market, its equity days on N worker threads (one per core by default; the bytes written are
 * the same for any N), and says how long it took.
 */
import process from "node:process";
import { parseArgs } from "node:util";
import { canUseWorkers } from "./dayPool.ts";
import { generateMarketInParallel, type Progress } from "./generate.ts";
import { profileByName } from "./profiles.ts";

function fail(message: string): never {
  console.error(`market: ${message}`);
  process.exit(2);
}

function parseCommandLine() {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      options: {
        profile: { type: "string", default: "demo" },
        seed: { type: "string", default: "42" },
        out: { type: "string" },
        scale: { type: "string" },
        workers: { type: "string" },
        "json-progress": { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }).values;
  } catch (e) {
    fail(`${(e as Error).message}; see --help`);
  }
}

const values = parseCommandLine();
if (values.help) {
  console.log(
    "usage: npm run market -- [--profile tiny|demo|large] [--seed N] [--scale X] [--out <dir>] [--workers N] [--json-progress]\n--workers: threads writing equity days, one per core by default; the output is the same for any number.\n--json-progress: one JSON line per generated day on stdout (day, days, date), for a process watching the generation.",
  );
  process.exit(0);
}

const seed = Number(values.seed);
if (!Number.isSafeInteger(seed) || seed < 0) fail(`--seed '${values.seed}' is not a non-negative integer`);
const scale = values.scale === undefined ? undefined : Number(values.scale);
let profile;
try {
  profile = profileByName(values.profile!, scale);
} catch (e) {
  fail((e as Error).message);
}
const workers = values.workers === undefined ? undefined : Number(values.workers);
if (workers !== undefined && !(/^[0-9]{1,3}$/.test(values.workers!) && workers >= 1)) {
  fail(`--workers '${values.workers}' is not a number of threads (1 or more)`);
}
const outDir = values.out ?? `data/${profile.name}`;
const started = performance.now();
const jsonProgress = values["json-progress"];
const interactive = process.stderr.isTTY && !jsonProgress;
let lastShown = -1;

function show(p: Progress): void {
  if (jsonProgress) return console.log(JSON.stringify({ day: p.day, days: p.days, date: p.date }));
  const pct = Math.round((100 * p.day) / p.days);
  const elapsed = (performance.now() - started) / 1000;
  const line = `market ${profile!.name}: ${"#".repeat(pct / 5).padEnd(20, ".")} ${pct}% ${p.date} (${p.day}/${p.days} days, ${
    elapsed.toFixed(1)
  } s)`;
  if (interactive) process.stderr.write(`\r${line}`);
  else if (pct >= lastShown + 10 || p.day === p.days) {
    console.error(line);
    lastShown = pct;
  }
}

const threads = workers ?? (canUseWorkers() ? navigator.hardwareConcurrency : 1);
const manifest = await generateMarketInParallel({ profile, seed, outDir, onProgress: show, workers: threads });
if (interactive) process.stderr.write("\n");
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `market ${profile.name} seed ${seed}: ${manifest.tradingDays.length} trading days, ${manifest.securities.length} securities, written to ${outDir} in ${seconds} s on ${threads} worker${
    threads === 1 ? "" : "s"
  }`,
);
for (const [id, c] of Object.entries(manifest.datasets)) {
  console.log(`  ${id.padEnd(26)} ${String(c.files).padStart(5)} files ${String(c.rows).padStart(12)} rows`);
}
