/**
 * Child process of bench/generation.ts: generates one profile on `workers` threads (1: all in
 * this thread, as before generation used every core), then, as the baseline of the same run,
 * reads back and rewrites every tick file with Polars alone (the Parquet I/O floor of the same
 * data). Prints one JSON line of figures.
 *
 *   deno run -A bench/support/generateOnce.ts <profile> <out> <workers> [scale]
 */
import pl from "nodejs-polars";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { generateMarketInParallel } from "../../sandbox/market/generate.ts";
import { profileByName } from "../../sandbox/market/profiles.ts";
import process from "node:process";

const [name, out, workers, scale] = process.argv.slice(2);
const peakRssMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const t0 = performance.now(), cpu0 = cpuSeconds();
const manifest = await generateMarketInParallel({
  profile: profileByName(name, scale ? Number(scale) : undefined),
  seed: 42,
  outDir: out,
  workers: Number(workers),
});
const generateSeconds = (performance.now() - t0) / 1000;
// Every thread's CPU (the workers are threads of this process): on a busy machine wall time
// stretches, CPU time much less.
const generateCpuSeconds = cpuSeconds() - cpu0;
const generatePeakMb = peakRssMb();

const t1 = performance.now();
const rewritten = join(out, "..", "baseline-rewrite.parquet");
for (const date of manifest.tradingDays.map((d) => d.date)) {
  const day = pl.scanParquet(join(out, `eq-taq/TradeDate=${date}/*.parquet`)).collectSync();
  day.writeParquet(rewritten, { compression: "zstd" });
}
const baselineSeconds = (performance.now() - t1) / 1000;
rmSync(rewritten, { force: true });

console.log(JSON.stringify({
  profile: name,
  workers: Number(workers),
  days: manifest.tradingDays.length,
  ticks: manifest.datasets["eq-taq"].rows,
  generateSeconds,
  generateCpuSeconds,
  generatePeakMb,
  baselineSeconds,
}));
