/**
 * Markets for the sandbox benchmark: the `demo` market (reused when data/demo holds the
 * current generator's demo, generated otherwise), and a market 8 times larger built from it.
 *
 * How the 8x market is built (generating 8x the days would take minutes): it holds the
 * demo's 63 trading days (hard links to the demo's files, so a query on a demo date reads
 * the very same bytes in both markets) plus the 7 x 63 NYSE trading days before them, each a
 * copy of a demo day rewritten by Polars with its own TradeDate and bar times moved to the
 * same New York wall clock on the new date. That is done for the datasets the benchmark
 * queries (eq-taq-1min, both variants, and eq-daily-ohlc); every other dataset (ticks,
 * options, reference snapshots) keeps the demo's files only, hard-linked. The manifest lists
 * all days and the scaled counts.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import pl from "nodejs-polars";
import { tradingDays } from "../../calendar/calendar.ts";
import { generateMarket } from "../../sandbox/market/generate.ts";
import { GENERATOR_VERSION, type Manifest } from "../../sandbox/market/manifest.ts";
import { profileByName } from "../../sandbox/market/profiles.ts";
import process from "node:process";

export const SEED = 42;

const readManifest = (dir: string): (Manifest & { bench?: Record<string, unknown> }) | undefined =>
  existsSync(join(dir, "manifest.json")) ? JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) : undefined;

/**
 * The demo market another checkout (`root`, a worktree for an A/B) serves: its own `data/demo`
 * when it has one, so a change to how the market is written is compared with the files as they
 * were; else `fallback` (this checkout's).
 *
 * @example
 * ```ts
 * const theirMarket = checkoutDemoMarket("../before", "data/demo");
 * ```
 */
export function checkoutDemoMarket(root: string, fallback: string): string {
  const theirs = join(root, "data", "demo");
  return existsSync(join(theirs, "manifest.json")) ? theirs : fallback;
}

/** The demo market at `dir`, generated (about a minute) unless the current one is there. */
export function ensureDemoMarket(dir: string, log: (line: string) => void): Manifest {
  const found = readManifest(dir);
  if (found && found.generatorVersion === GENERATOR_VERSION && found.profile === "demo" && found.seed === SEED && found.eventScale === 1) {
    return found;
  }
  log(`generating the demo market into ${dir} (generator v${GENERATOR_VERSION}, seed ${SEED})...`);
  return generateMarket({ profile: profileByName("demo"), seed: SEED, outDir: dir });
}

function link(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** The datasets copied onto the extra days; every other one keeps the demo's files only. */
const SCALED = ["eq-taq-1min", "eq-daily-ohlc"];
const DAY_NS = 86_400_000_000_000n;
const daysBetween = (a: string, b: string) => (Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;

/** A demo file rewritten to another date: TradeDate set, date-times moved by whole wall-clock days. */
function rewriteDay(from: string, to: string, sourceDate: string, targetDate: string): void {
  const frame = pl.readParquet(from);
  const shiftNs = BigInt(daysBetween(targetDate, sourceDate)) * DAY_NS;
  const exprs = [pl.lit(targetDate).str.strptime(pl.Date, "%Y-%m-%d").alias("TradeDate")];
  if (frame.columns.includes("BarDateTime")) {
    // Shift the wall clock, not the instant: read it as UTC, move it, and read it back as New York time.
    const wall = pl.col("BarDateTime").dt.replaceTimeZone("UTC").cast(pl.Int64).plus(pl.lit(shiftNs).cast(pl.Int64));
    exprs.push(wall.cast(pl.Datetime("ns", "UTC")).dt.replaceTimeZone("America/New_York").alias("BarDateTime"));
  }
  mkdirSync(dirname(to), { recursive: true });
  frame.withColumns(...exprs).writeParquet(to, { compression: "zstd" });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/**
 * The demo market scaled `copies` times in trading days at `outDir` (see the module note),
 * reused when already built from the same demo.
 */
export function ensureScaledMarket(demoDir: string, outDir: string, copies: number, log: (line: string) => void): Manifest {
  const demo = readManifest(demoDir)!;
  const stamp = { builtFrom: "demo", copies, generatorVersion: demo.generatorVersion, seed: demo.seed };
  const found = readManifest(outDir);
  if (found?.bench && JSON.stringify(found.bench) === JSON.stringify(stamp)) return found;
  const started = performance.now();
  const demoDays = demo.tradingDays.map((d) => d.date);
  const earlier = tradingDays("2015-01-01", "2023-10-31").slice(-(copies - 1) * demoDays.length);
  log(
    `building the ${copies}x market into ${outDir}: ${earlier.length} extra days (${earlier[0].date} to ${
      earlier.at(-1)!.date
    }) copied from demo days...`,
  );
  const work = `${outDir}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  const rewritten: Record<string, number> = {};
  for (const file of filesUnder(demoDir).filter((f) => f.endsWith(".parquet"))) {
    const rel = relative(demoDir, file);
    link(file, join(work, rel));
    if (!SCALED.some((id) => rel.startsWith(`${id}/`))) continue;
    const sourceDate = /TradeDate=(\d{4}-\d{2}-\d{2})/.exec(rel)![1];
    const index = demoDays.indexOf(sourceDate);
    for (let k = index; k < earlier.length; k += demoDays.length) {
      const target = earlier[k].date;
      rewriteDay(file, join(work, rel.replace(`TradeDate=${sourceDate}`, `TradeDate=${target}`)), sourceDate, target);
      rewritten[rel.split("/")[0]] = (rewritten[rel.split("/")[0]] ?? 0) + 1;
    }
  }
  const datasets = Object.fromEntries(
    Object.entries(demo.datasets).map((
      [id, c],
    ) => [id, SCALED.includes(id.split(":")[0]) ? { files: c.files * copies, rows: c.rows * copies } : c]),
  );
  const manifest = { ...demo, start: earlier[0].date, tradingDays: [...earlier, ...demo.tradingDays], datasets, bench: stamp };
  writeFileSync(join(work, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  rmSync(outDir, { recursive: true, force: true });
  renameSync(work, outDir);
  log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s: rewritten files ${JSON.stringify(rewritten)}`);
  return manifest;
}
