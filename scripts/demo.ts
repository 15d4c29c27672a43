/**
 * `npm run demo`: the main job. For now (until the notebooks land) it generates the demo
 * market, unless one from the same generator version and seed is already there, and prints
 * a summary of what it holds.
 */
import pl from "nodejs-polars";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { generateMarket, GENERATOR_VERSION, type Manifest } from "../sandbox/market/generate.ts";
import { profileByName } from "../sandbox/market/profiles.ts";

const SEED = 42;
const marketDir = join(import.meta.dirname!, "..", "data", "demo");

function existingManifest(): Manifest | undefined {
  const path = join(marketDir, "manifest.json");
  if (!existsSync(path)) return undefined;
  const m: Manifest = JSON.parse(readFileSync(path, "utf8"));
  return m.generatorVersion === GENERATOR_VERSION && m.seed === SEED && m.profile === "demo" ? m : undefined;
}

let manifest = existingManifest();
if (manifest) {
  console.log(`demo: using the demo market already at ${marketDir}`);
} else {
  const started = performance.now();
  manifest = generateMarket({
    profile: profileByName("demo"),
    seed: SEED,
    outDir: marketDir,
    onProgress: (p) => p.day % 10 === 0 && console.log(`demo: generated ${p.day}/${p.days} days (${p.date})`),
  });
  console.log(`demo: generated the demo market in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

console.log(`\nDemo market (seed ${manifest.seed}): ${manifest.start} to ${manifest.end}, ${manifest.tradingDays.length} trading days`);
const early = manifest.tradingDays.filter((d) => d.earlyClose).map((d) => d.date);
console.log(`Early closes: ${early.join(", ") || "none"}`);
for (const [id, c] of Object.entries(manifest.datasets)) console.log(`  ${id.padEnd(26)} ${String(c.files).padStart(5)} files ${String(c.rows).padStart(12)} rows`);
console.log("\nCorporate actions (synthetic):");
for (const a of manifest.corporateActions) console.log(`  ${JSON.stringify(a)}`);

const daily = pl.scanParquet(join(marketDir, "eq-daily-ohlc/*.parquet")).collectSync();
const summary = daily.groupBy("ASID").agg(
  pl.col("Ticker").last().alias("Ticker"),
  pl.col("TradeDate").count().alias("Days"),
  pl.col("ClosePrice").first().alias("FirstClose"),
  pl.col("ClosePrice").last().alias("LastClose"),
  pl.col("DailyVolume").add(pl.col("DailyFinraVolume")).mean().round(0).alias("AvgDailyShares"),
).sort("ASID");
pl.Config.setTblRows(30);
console.log(`\nPer security:\n${summary.toString()}`);
