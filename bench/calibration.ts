/**
 * Prints the calibration table: the intraday profile of a generated liquid stock against the
 * real vendor sample (shared/data), window by window. Trade and quote counts of the generated
 * market are scaled back to real prints by the security's print scale.
 *
 *   deno run -A bench/calibration.ts [--market <dir>] [--ticker AAPL] [--sample <csv>]
 */
import pl from "nodejs-polars";
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { intradayProfile, readGeneratedBars, readSampleBars } from "../sandbox/market/calibration.ts";
import type { Manifest } from "../sandbox/market/manifest.ts";
import { REPO_ROOT, SAMPLE_CSV } from "./support/paths.ts";
import process from "node:process";

// A worktree sits one folder deeper than the main checkout, so the sample may be one level further up.
const defaultSample = [SAMPLE_CSV, join(REPO_ROOT, "..", "..", "shared", "data", basename(SAMPLE_CSV))].find(existsSync) ?? SAMPLE_CSV;
const { values } = parseArgs({
  options: {
    market: { type: "string", default: "data/demo" },
    ticker: { type: "string", default: "AAPL" },
    sample: { type: "string", default: defaultSample },
  },
});
if (!existsSync(join(values.market!, "manifest.json"))) {
  console.error(`calibration: no market at ${values.market}; run 'npm run market -- --profile demo --out ${values.market}' first`);
  process.exit(2);
}
const manifest: Manifest = JSON.parse(readFileSync(join(values.market!, "manifest.json"), "utf8"));
const security = manifest.securities.find((s) => s.ticker === values.ticker);
if (!security) throw new Error(`Ticker '${values.ticker}' is not in the market at ${values.market}`);
const fullDays = manifest.tradingDays.filter((d) => !d.earlyClose).map((d) => d.date);
const generated = intradayProfile(
  readGeneratedBars(values.market!, values.ticker!, fullDays),
  1 / (security.printScale * manifest.eventScale),
);
const sample = intradayProfile(readSampleBars(values.sample!));
const rename = (df: pl.DataFrame, suffix: string) =>
  df.rename(Object.fromEntries(df.columns.filter((c) => c !== "Window").map((c) => [c, `${c}${suffix}`])));
pl.Config.setTblWidthChars(200);
pl.Config.setTblCols(20);
console.log(`calibration: ${values.ticker} over ${fullDays.length} full days of ${values.market} (gen) vs AAPL 2020-01-28 sample`);
console.log(
  rename(generated, "_gen").join(rename(sample, "_sample"), { on: "Window" }).select(
    "Window",
    ...["VolumePerMin", "TradesPerMin", "QuotesPerMin", "SpreadBps", "FinraShare"].flatMap((
      c,
    ) => [pl.col(`${c}_gen`).round(2), pl.col(`${c}_sample`).round(2)]),
  ).toString(),
);
