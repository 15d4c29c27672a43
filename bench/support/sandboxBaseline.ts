/**
 * The same-run baselines of the sandbox benchmark: the pages the service serves, read
 * directly in this process with Polars from the same files (no HTTP, no auth, no quota, no
 * rendering). A service figure over its baseline is the price of everything around the engine.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import pl from "nodejs-polars";

/** The minute-bar files of a variant in partition (= key) order. */
export function minuteFiles(marketDir: string, aggregation = "core"): string[] {
  const dir = join(marketDir, "eq-taq-1min", `aggregation_logic=${aggregation}`);
  return readdirSync(dir).filter((f) => f.endsWith(".parquet")).sort().map((f) => join(dir, f));
}

/** One ticker's minute bars from `offset`, `limit` rows, across the variant's files. */
export async function readTickerPage(files: readonly string[], ticker: string, offset: number, limit: number): Promise<number> {
  const plan = pl.concat(files.map((f) => pl.scanParquet(f)), { how: "vertical" });
  const frame = await plan.filter(pl.col("Ticker").eq(pl.lit(ticker))).slice(offset, limit).collect();
  return frame.height;
}

/** One ticker's minute bars on one day: one file. */
export async function readTickerDay(marketDir: string, ticker: string, date: string, offset = 0, limit = 100_000): Promise<number> {
  const file = join(marketDir, "eq-taq-1min", "aggregation_logic=core", `TradeDate=${date}.parquet`);
  const frame = await pl.scanParquet(file).filter(pl.col("Ticker").eq(pl.lit(ticker))).slice(offset, limit).collect();
  return frame.height;
}
