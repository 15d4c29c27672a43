/**
 * American option accuracy benchmark: the market's American values against QuantLib's, an
 * implementation independent of the code under test (bench/support/americanReference.py, Debian's
 * quantlib-python). On every `computed` row of the chosen roots and days it compares, side by
 * side, the implied volatility of the mid, and price, Delta, Vega and Rho at the row's own
 * volatility, prints the worst rows of each and counts the rows beyond each target (issue 20,
 * item 7). Skips with a message when QuantLib is missing.
 *
 * Two sources of "our" values: the rows as the market serves them (default), or, with
 * `--recompute`, the current code run on each row's terms and mid (to try a change without
 * generating a market again).
 *
 *   deno run -A bench/americanAccuracy.ts [--market data/demo] [--days 2024-01-18,2024-01-19]
 *     [--tickers AAPL,SPY] [--recompute] [--worst 8] [--csv out.csv]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pl from "nodejs-polars";
import type { OptionTerms } from "../sandbox/market/options/contract.ts";
import { priceExpiry } from "../sandbox/market/options/pricing.ts";
import { RISK_FREE_RATE } from "../sandbox/market/options/rates.ts";
import { dividendYield } from "../sandbox/market/ticks/dividends.ts";
import { modelSolve } from "../sandbox/market/options/valuation.ts";
import { REPO_ROOT } from "./support/paths.ts";
import process from "node:process";

const { values } = parseArgs({
  options: {
    market: { type: "string", default: "data/demo" },
    days: { type: "string" },
    tickers: { type: "string", default: "AAPL,SPY" },
    recompute: { type: "boolean", default: false },
    worst: { type: "string", default: "8" },
    csv: { type: "string" },
  },
});

/** The measures compared, each with its target: an absolute allowance, or a relative one with a floor. */
const MEASURES = [
  { key: "iv", label: "implied vol", allowed: (_ref: number) => 0.0005, target: "0.05 vol point" },
  { key: "price", label: "price at row vol", allowed: (ref: number) => Math.max(0.005, 0.001 * Math.abs(ref)), target: "$0.005 or 0.1%" },
  { key: "delta", label: "Delta", allowed: (_ref: number) => 0.002, target: "0.002" },
  { key: "vega", label: "Vega", allowed: (ref: number) => 0.02 * Math.abs(ref), target: "2%" },
  { key: "rho", label: "Rho", allowed: (ref: number) => 0.02 * Math.abs(ref), target: "2%" },
] as const;
type Key = typeof MEASURES[number]["key"];
type Values = Record<Key, number>;

interface Row {
  label: string;
  terms: OptionTerms;
  days: number;
  mid: number;
  ours: Values;
}

const python = ["/usr/bin/python3", "python3"].find((p) => spawnSync(p, ["-c", "import QuantLib"]).status === 0);
if (!python) {
  console.log("americanAccuracy: skipped, QuantLib for Python is not installed (apt-get install -y quantlib-python)");
  process.exit(0);
}
const dir = values.market!;
if (!existsSync(join(dir, "manifest.json"))) {
  console.error(`americanAccuracy: no market at ${dir}; run 'npm run market -- --profile demo --out ${dir}' first`);
  process.exit(2);
}

const rows = readRows();
console.log(
  `market ${dir}, ${
    values.recompute ? "our values recomputed by the current code" : "our values as served"
  }: ${rows.length} computed American rows of ${values.tickers} on ${chosenDays().join(", ")}`,
);
const t0 = performance.now();
const reference = runReference(rows);
console.log(
  `reference: QuantLib QdFpAmericanEngine (accurate scheme), Greeks by central differences, ${
    ((performance.now() - t0) / 1000).toFixed(1)
  } s`,
);
report(rows, reference.rows);

function chosenDays(): string[] {
  if (values.days) return values.days.split(",");
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
  // The last Thursday and Friday of the market: Thursday holds one-day expiries of the weeklies.
  const days: string[] = manifest.tradingDays.map((d: { date: string }) => d.date);
  const k = days.map((d, i) => (new Date(`${d}T12:00:00Z`).getUTCDay() === 4 && i + 1 < days.length ? i : -1)).filter((i) => i >= 0).at(-1);
  return k === undefined ? days.slice(-2) : [days[k], days[k + 1]];
}

function readRows(): Row[] {
  const tickers = values.tickers!.split(",");
  const days = chosenDays();
  const master = pl.readParquet(join(dir, "opt-sec-master", readdirSync(join(dir, "opt-sec-master"))[0])).toRecords();
  const underOf = new Map(master.map((r) => [r.OptionTicker as string, r.UnderSecId as number]));
  const frames = days.map((d) => pl.readParquet(join(dir, "opt-greeks-daily", `TradeDate=${d}.parquet`)));
  const records = pl.concat(frames).filter(
    pl.col("ImpliedVolConvergence").eq(pl.lit("computed")).and(pl.col("OptionStyle").eq(pl.lit("A"))).and(pl.col("Ticker").isIn(tickers)),
  ).toRecords();
  return records.map((r) => {
    const terms: OptionTerms = {
      call: r.CallPut === "C",
      american: true,
      spot: r.UnderLastMidPrice as number,
      strike: r.Strike as number,
      years: r.YearsToMaturity as number,
      rate: RISK_FREE_RATE,
      dividendYield: dividendYield(underOf.get(r.Ticker as string)!),
    };
    const label = `${r.Ticker} ${isoDate(r.TradeDate)} ${r.CallPut}${r.Strike} ${isoDate(r.ExpirationDate)}`;
    const served: Values = { iv: r.MidImpliedVol, price: r.MidTheoPrice, delta: r.MidDelta, vega: r.MidVega, rho: r.MidRho } as Values;
    return {
      label,
      terms,
      days: r.DaysToMaturity as number,
      mid: r.LastMidPrice as number,
      ours: values.recompute ? recompute(terms, r.LastMidPrice as number, r.MidImpliedVol as number) : served,
    };
  });
}

function isoDate(d: unknown): string {
  return d instanceof Date ? d.toISOString().slice(0, 10) : String(d);
}

/**
 * The current code's values for one row, on the generator's path: the quote's volatility is
 * taken as the served one (the mid was made around a nearby one), then the implied volatility of
 * the mid and the valuation there. A row the current code does not compute is left out (NaN).
 */
function recompute(terms: OptionTerms, mid: number, servedVol: number): Values {
  const [out] = priceExpiry([{ terms, mid, fair: modelSolve(terms, servedVol), surfaceVol: servedVol }]);
  const v = out.status === "computed" ? out.valuation! : undefined;
  return { iv: v ? out.vol : NaN, price: v?.price ?? NaN, delta: v?.delta ?? NaN, vega: v?.vega ?? NaN, rho: v?.rho ?? NaN };
}

function runReference(rows: readonly Row[]): { rows: Values[]; checks: { accurate: number; precise: number; fd: number }[] } {
  const input = JSON.stringify({
    rows: rows.map((r) => ({
      call: r.terms.call,
      spot: r.terms.spot,
      strike: r.terms.strike,
      days: r.days,
      rate: r.terms.rate,
      q: r.terms.dividendYield,
      mid: r.mid,
      vol: r.ours.iv,
    })),
    check: 0,
  });
  const out = execFileSync(python!, [join(REPO_ROOT, "bench/support/americanReference.py")], {
    input,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  return JSON.parse(out);
}

function report(rows: readonly Row[], ref: readonly Values[]): void {
  const worst = Number(values.worst);
  console.log("\nmeasure            target          rows  beyond  worst error  worst row");
  for (const m of MEASURES) {
    const errors = rows.map((r, k) => ({ k, error: r.ours[m.key] - ref[k][m.key], allowed: m.allowed(ref[k][m.key]) })).filter((e) =>
      Number.isFinite(e.error)
    );
    const beyond = errors.filter((e) => Math.abs(e.error) > e.allowed).length;
    const top = errors.sort((a, b) => Math.abs(b.error) / b.allowed - Math.abs(a.error) / a.allowed)[0];
    console.log(
      [
        m.label.padEnd(17),
        m.target.padEnd(14),
        String(errors.length).padStart(5),
        String(beyond).padStart(7),
        top.error.toExponential(2).padStart(12),
        ` ${rows[top.k].label}`,
      ].join(" "),
    );
  }
  for (const m of MEASURES) {
    const ranked = rows.map((r, k) => ({ r, k, ratio: Math.abs(r.ours[m.key] - ref[k][m.key]) / m.allowed(ref[k][m.key]) })).sort((a, b) =>
      b.ratio - a.ratio
    ).slice(0, worst);
    console.log(`\nworst ${m.label} (error / allowance):  row, years, ours, reference, ratio`);
    for (const { r, k, ratio } of ranked) {
      console.log(
        `  ${r.label.padEnd(34)} ${r.terms.years.toFixed(4)}  ${r.ours[m.key].toFixed(6).padStart(12)} ${
          ref[k][m.key].toFixed(6).padStart(12)
        }  ${ratio.toFixed(2)}`,
      );
    }
  }
  if (values.csv) {
    const header = ["row", "years", "mid", ...MEASURES.flatMap((m) => [`${m.key}_ours`, `${m.key}_ref`])].join(",");
    writeFileSync(
      values.csv,
      [header, ...rows.map((r, k) => [r.label, r.terms.years, r.mid, ...MEASURES.flatMap((m) => [r.ours[m.key], ref[k][m.key]])].join(","))]
        .join("\n") + "\n",
    );
  }
}
