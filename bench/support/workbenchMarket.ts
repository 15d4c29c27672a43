/**
 * The market of the workbench benchmark: a long 1-minute-bar history of one ticker (AAPL),
 * enough for a 500,000-row fetch and a 5,000,000-row download. Generating 22 years of ticks
 * would take an hour, so each extra trading day is a copy of one of the demo market's AAPL
 * days (cycled), rewritten by Polars with its own TradeDate and bar times on that date's New
 * York wall clock. Only eq-taq-1min (core) is built; the manifest lists the days.
 */
import pl from "nodejs-polars";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tradingDays } from "../../calendar/calendar.ts";
import type { Manifest } from "../../sandbox/market/manifest.ts";
import process from "node:process";

export const TICKER = "AAPL";
const DAY_NS = 86_400_000_000_000n;
const daysBetween = (a: string, b: string) => (Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;

/** Builds (or reuses) the long market at `outDir` from the demo market at `demoDir`. */
export function ensureLongMarket(demoDir: string, outDir: string, start: string, log: (line: string) => void): Manifest {
  const demo: Manifest = JSON.parse(readFileSync(join(demoDir, "manifest.json"), "utf8"));
  const stamp = `${demo.generatorVersion}:${demo.seed}:${start}`;
  const manifestPath = join(outDir, "manifest.json");
  if (existsSync(manifestPath) && (JSON.parse(readFileSync(manifestPath, "utf8")) as { bench?: string }).bench === stamp) {
    return JSON.parse(readFileSync(manifestPath, "utf8"));
  }
  const days = tradingDays(start, demo.end);
  log(`building the long ${TICKER} market into ${outDir}: ${days.length} trading days (${start} to ${demo.end})...`);
  const started = performance.now();
  const sources = demo.tradingDays.filter((d) => !d.earlyClose).map((d) => ({
    date: d.date,
    frame: pl.readParquet(join(demoDir, `eq-taq-1min/aggregation_logic=core/TradeDate=${d.date}.parquet`)).filter(
      pl.col("Ticker").eq(pl.lit(TICKER)),
    ),
  }));
  const work = `${outDir}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  const dir = join(work, "eq-taq-1min", "aggregation_logic=core");
  mkdirSync(dir, { recursive: true });
  days.forEach((day, i) => {
    const source = sources[i % sources.length];
    const shift = BigInt(daysBetween(day.date, source.date)) * DAY_NS;
    const wall = pl.col("BarDateTime").dt.replaceTimeZone("UTC").cast(pl.Int64).plus(pl.lit(shift).cast(pl.Int64));
    source.frame.withColumns(
      pl.lit(day.date).str.strptime(pl.Date, "%Y-%m-%d").alias("TradeDate"),
      wall.cast(pl.Datetime("ns", "UTC")).dt.replaceTimeZone("America/New_York").alias("BarDateTime"),
    ).writeParquet(join(dir, `TradeDate=${day.date}.parquet`), { compression: "zstd" });
  });
  const manifest = {
    ...demo,
    start,
    tradingDays: days,
    securities: demo.securities.filter((s) => s.ticker === TICKER),
    datasets: { "eq-taq-1min:core": { files: days.length, rows: days.length * 960 } },
    bench: stamp,
  };
  writeFileSync(join(work, "manifest.json"), JSON.stringify(manifest, null, 2));
  rmSync(outDir, { recursive: true, force: true });
  renameSync(work, outDir);
  log(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return manifest;
}
