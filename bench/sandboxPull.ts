/**
 * What the universe pull costs the sandbox, this checkout's against another's: every demo
 * ticker's 20 trading days of eq-taq-1min as CSV (13 pages of about 7 MB), fetched with plain
 * fetch, four pages in flight, no parsing. Both sandboxes are up (each with its default
 * workers, over its own checkout's demo market when it has one, so a change to how the market
 * is written is compared with the files as they were), and pulls alternate between them, so
 * drift in the machine's load falls on both alike. Prints each pull's seconds and the
 * sandbox's CPU seconds for it (every thread of its process), and the medians' ratio; exits 1
 * when this checkout's sandbox spends more CPU a pull (beyond 5%, the noise of a shared machine).
 *
 *   node_modules/.bin/deno run -A bench/sandboxPull.ts --against ../other-checkout [--rounds 8] [--latency 40 --bandwidth 20]
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { tradingDays } from "../calendar/calendar.ts";
import { checkoutDemoMarket, ensureDemoMarket } from "./support/sandboxMarkets.ts";
import { rawPull } from "./support/rawPull.ts";
import { type BenchSandbox, startSandboxProcess } from "./support/sandboxServer.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { loadAverages, median } from "./support/stats.ts";

const { values } = parseArgs({
  options: {
    against: { type: "string" },
    rounds: { type: "string", default: "8" },
    latency: { type: "string" },
    bandwidth: { type: "string" },
  },
});
const log = (line: string) => console.error(`bench: ${line}`);
if (!values.against) {
  console.error("bench: --against <checkout> is required (another worktree, e.g. of the commit before a change)");
  process.exit(2);
}
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`bench: --rounds ${values.rounds} is not a whole number from 1 up`);
  process.exit(2);
}
const network = [...(values.latency ? ["--latency", values.latency] : []), ...(values.bandwidth ? ["--bandwidth", values.bandwidth] : [])];

const demoDir = join(REPO_ROOT, "data", "demo");
const manifest = ensureDemoMarket(demoDir, log);
const tickers = (JSON.parse(readFileSync(join(demoDir, "manifest.json"), "utf8")).securities as { ticker: string }[]).map((s) => s.ticker);
const days = tradingDays(manifest.start, manifest.end).map((d) => d.date);
const root = resolve(values.against);
const theirMarket = checkoutDemoMarket(root, demoDir);
log(
  `against ${root}, over ${theirMarket === demoDir ? "this checkout's demo market" : theirMarket}${
    network.length ? `, ${network.join(" ")}` : ""
  }`,
);

/** One pull: every ticker's page, four in flight; its seconds and the sandbox's CPU seconds. */
async function pull(sb: BenchSandbox): Promise<{ seconds: number; cpu: number }> {
  const [started, served] = [performance.now(), sb.cpuSeconds()];
  await rawPull({ baseUrl: sb.baseUrl, apiKey: "demo-full-access", tickers, start: days[0], end: days[19], concurrency: 4 });
  return { seconds: (performance.now() - started) / 1000, cpu: sb.cpuSeconds() - served };
}

const [now, then] = await Promise.all([startSandboxProcess(demoDir, {}, network), startSandboxProcess(theirMarket, {}, network, root)]);
const load = loadAverages();
try {
  await pull(now); // warm both: the engines' first plans, the row counts
  await pull(then);
  const mine: { seconds: number; cpu: number }[] = [], others: typeof mine = [];
  for (let k = 0; k < rounds; k++) {
    mine.push(await pull(now));
    others.push(await pull(then));
  }
  const row = (name: string, r: typeof mine) =>
    `${name.padEnd(34)} ${median(r.map((x) => x.seconds)).toFixed(2)} s  sandbox CPU ${median(r.map((x) => x.cpu)).toFixed(2)} s a pull  (${
      r.map((x) => x.cpu.toFixed(2)).join(" ")
    })`;
  console.log(
    `universe pull, ${tickers.length} tickers x 20 days of eq-taq-1min as CSV, 4 in flight, ${rounds} alternating rounds (medians)`,
  );
  console.log(row("this checkout", mine));
  console.log(row(`against ${root}`, others));
  const ratio = median(mine.map((x) => x.cpu)) / median(others.map((x) => x.cpu));
  console.log(`ratio: ${ratio.toFixed(2)}x the sandbox CPU a pull; load average ${load} at the start, ${loadAverages()} at the end`);
  process.exitCode = ratio <= 1.05 ? 0 : 1;
} finally {
  await Promise.all([now.stop(), then.stop()]);
}
