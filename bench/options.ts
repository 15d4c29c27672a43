/**
 * Options benchmark, two parts, each against a baseline measured in the same run:
 *
 * 1. Generation per profile, each in a fresh process: the whole market's time and peak memory
 *    (targets on the 2-core machine: tiny within 15 s, demo within 90 s, under 2.5 GB) and the
 *    share of it spent on the option datasets, against the equities generated in that same run.
 * 2. Pricers: contracts per second of the Crank-Nicolson American model (a price; a price with
 *    every Greek; an implied vol from a mid with every Greek, as the generator does) against the
 *    closed-form Black-Scholes-Merton price of the same contracts.
 *
 *   deno run -A bench/options.ts [--profiles tiny,demo] [--contracts 20000]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { bsmPrice } from "../sandbox/market/options/bsm.ts";
import type { OptionTerms } from "../sandbox/market/options/contract.ts";
import { fdSolve } from "../sandbox/market/options/crankNicolson.ts";
import { priceExpiry, type PricingInput } from "../sandbox/market/options/pricing.ts";
import { modelValuation } from "../sandbox/market/options/valuation.ts";
import { generateMarket, type Progress } from "../sandbox/market/generate.ts";
import { profileByName } from "../sandbox/market/profiles.ts";
import { Rng } from "../sandbox/market/rng.ts";
import { REPO_ROOT } from "./support/paths.ts";
import process from "node:process";

const TARGET_SECONDS: Record<string, number> = { tiny: 15, demo: 90 };
const TARGET_PEAK_MB = 2560;

const { values } = parseArgs({
  options: {
    profiles: { type: "string", default: "tiny,demo" },
    contracts: { type: "string", default: "20000" },
    child: { type: "string" },
    out: { type: "string" },
  },
});

/** Child: generate one profile, print one JSON line of figures. */
function child(profile: string, out: string): void {
  let last: Progress | undefined;
  const t0 = performance.now();
  const manifest = generateMarket({ profile: profileByName(profile), seed: 42, outDir: out, onProgress: (p) => (last = p) });
  const seconds = (performance.now() - t0) / 1000;
  const peakMb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;
  console.log(
    JSON.stringify({
      seconds,
      optionSeconds: last!.optionSeconds,
      peakMb,
      contracts: manifest.datasets["opt-greeks-daily"].rows,
      days: manifest.tradingDays.length,
    }),
  );
}

function generationTable(): boolean {
  const scratch = mkdtempSync(join(tmpdir(), "bench-options-"));
  let ok = true;
  console.log(
    "profile  days  contract-days  total (s)  target  equities (s)  options (s)  options/equities  contracts/s  peak MB  verdict",
  );
  try {
    for (const profile of values.profiles!.split(",")) {
      const output = execFileSync(process.execPath, [
        "run",
        "-A",
        join(REPO_ROOT, "bench/options.ts"),
        "--child",
        profile,
        "--out",
        join(scratch, profile),
      ], {
        cwd: REPO_ROOT,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
      });
      const r = JSON.parse(output.trim().split("\n").at(-1)!);
      const target = TARGET_SECONDS[profile];
      const pass = (target === undefined || r.seconds <= target) && r.peakMb <= TARGET_PEAK_MB;
      ok &&= pass;
      const equities = r.seconds - r.optionSeconds;
      console.log([
        profile.padEnd(7),
        String(r.days).padStart(4),
        String(r.contracts).padStart(14),
        r.seconds.toFixed(1).padStart(10),
        (target ? `<= ${target}` : "-").padStart(7),
        equities.toFixed(1).padStart(13),
        r.optionSeconds.toFixed(1).padStart(12),
        (r.optionSeconds / equities).toFixed(2).padStart(17),
        Math.round(r.contracts / r.optionSeconds).toString().padStart(12),
        r.peakMb.toFixed(0).padStart(8),
        pass ? " ok" : " MISSED",
      ].join(" "));
      rmSync(join(scratch, profile), { recursive: true, force: true });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return ok;
}

/** A seeded spread of equity-like contracts: strikes 70-130% of spot, 2 days to a year, vols 10-80%. */
function sampleContracts(n: number): { terms: OptionTerms; vol: number }[] {
  const rng = Rng.for(42, "bench-options");
  return Array.from({ length: n }, () => {
    const spot = 20 + 400 * rng.uniform();
    return {
      terms: {
        call: rng.chance(0.5),
        american: true,
        spot,
        strike: spot * (0.7 + 0.6 * rng.uniform()),
        years: (2 + 363 * rng.uniform()) / 365,
        rate: 0.053,
        dividendYield: 0.02 * rng.uniform(),
      },
      vol: 0.1 + 0.7 * rng.uniform(),
    };
  });
}

/** Contracts per second of `work` over `contracts`, best of three runs (the first warms the JIT). */
function rate(contracts: readonly { terms: OptionTerms; vol: number }[], work: (c: { terms: OptionTerms; vol: number }) => number): number {
  let best = 0, sink = 0;
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    for (const c of contracts) sink += work(c);
    best = Math.max(best, contracts.length / ((performance.now() - t0) / 1000));
  }
  if (!Number.isFinite(sink)) throw new Error("A pricer returned a non-finite value");
  return best;
}

function pricerTable(n: number): void {
  const contracts = sampleContracts(n);
  // Mids a little off the model price, as quotes are, so the solver has work to do.
  const inputs: PricingInput[] = contracts.map(({ terms, vol }, k) => {
    const fair = fdSolve(terms, vol);
    return { terms, mid: fair.price * (1 + 0.01 * Math.sin(k)), fair, surfaceVol: vol };
  });
  const baseline = rate(contracts, (c) => bsmPrice(c.terms, c.vol));
  const rows: [string, number][] = [
    ["closed-form BSM price (baseline)", baseline],
    ["Crank-Nicolson American price", rate(contracts, (c) => fdSolve(c.terms, c.vol).price)],
    ["Crank-Nicolson price and every Greek", rate(contracts, (c) => modelValuation(c.terms, c.vol).vega)],
  ];
  let t0 = performance.now();
  for (let run = 0; run < 2; run++) {
    t0 = performance.now();
    for (let k = 0; k < inputs.length; k += 40) priceExpiry(inputs.slice(k, k + 40));
  }
  rows.push(["implied vol from a mid, then every Greek", inputs.length / ((performance.now() - t0) / 1000)]);
  console.log(`\n${n} contracts (strikes 70-130% of spot, 2 days to a year, vols 10-80%)`);
  console.log("pricer                                     contracts/s   vs baseline");
  for (const [name, r] of rows) {
    console.log(`${name.padEnd(42)} ${Math.round(r).toString().padStart(11)}   ${(r / baseline).toFixed(4).padStart(11)}`);
  }
}

if (values.child) {
  child(values.child, values.out!);
} else {
  const ok = generationTable();
  console.log(
    `targets: tiny <= 15 s and demo <= 90 s in total, peak memory <= ${TARGET_PEAK_MB} MB; options/equities compares the two stages of the same run`,
  );
  pricerTable(Number(values.contracts));
  if (!ok) process.exitCode = 1;
}
