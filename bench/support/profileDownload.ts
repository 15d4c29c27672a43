/**
 * Where the download's client CPU goes, beside the frame pull of the same data (every demo
 * ticker x 20 days of eq-taq-1min into a lake, one file a ticker): a sandbox in its own
 * process (`--latency`/`--bandwidth` passed on), the universe call and the download alternated
 * `rounds` times in this one, each under V8's sampling profiler (node:inspector), its samples
 * split into stages by the frames on their stacks and the process's CPU by thread (Polars
 * parses and writes Parquet on threads of its own, which the profiler does not see). The
 * difference between the two is what the lake sink costs.
 *
 *   deno run -A bench/support/profileDownload.ts [rounds] [--latency 40 --bandwidth 20]
 */
import { Session } from "node:inspector/promises";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { tradingDays } from "../../calendar/calendar.ts";
import { connect } from "../../workbench/mod.ts";
import { runDeferred } from "../../workbench/provenance/deferred.ts";
import { REPO_ROOT } from "./paths.ts";
import { ensureDemoMarket } from "./sandboxMarkets.ts";
import { startSandboxProcess } from "./sandboxServer.ts";
import { split, STAGES, threadSeconds } from "./cpuSplit.ts";
import process from "node:process";

/** The lake sink's own stages, ahead of the pull's (the innermost frame that names one wins). */
const LAKE_STAGES: typeof STAGES = [
  ["lake: partition split (splitByDate)", (f) => f === "splitByDate"],
  ["lake: Parquet write call (sinkParquet)", (f, u) => f === "writePartition" || u.includes("/runtime/files.ts")],
  ["lake: manifest, journal", (_f, u) => u.includes("/store/manifest.ts")],
  ["lake: checks, plan", (_f, u) => u.includes("/store/lakeCheck.ts") || u.includes("/store/lakePlan.ts")],
  ["lake: unit sink (download.ts)", (_f, u) => u.includes("/store/download.ts")],
  ...STAGES,
];

const args = Deno.args.filter((a, i) => !a.startsWith("--") && !Deno.args[i - 1]?.startsWith("--"));
const sandboxArgs = Deno.args.filter((a, i) => a.startsWith("--") || Deno.args[i - 1]?.startsWith("--"));
const rounds = Number(args[0] ?? 3);
const demoDir = join(REPO_ROOT, "data", "demo");
const manifest = ensureDemoMarket(demoDir, (l) => console.error(l));
const tickers = (JSON.parse(readFileSync(join(demoDir, "manifest.json"), "utf8")).securities as { ticker: string }[]).map((s) => s.ticker);
const days = tradingDays(manifest.start, manifest.end).map((d) => d.date);
const [start, end] = [days[0], days[19]];
const sandbox = await startSandboxProcess(demoDir, {}, sandboxArgs);
const scratch = mkdtempSync(join(tmpdir(), "profile-download-"));
let lakes = 0;
try {
  const wb = await connect({ baseUrl: sandbox.baseUrl, apiKey: "demo-full-access" });
  const ways: Record<string, () => Promise<unknown>> = {
    universe: () => wb.data.eqTaq1Min(tickers, { start, end, concurrency: 4 }),
    download: () => wb.download("eq-taq-1min", { tickers, start, end }, join(scratch, `lake-${lakes++}`)),
  };
  for (const run of Object.values(ways)) await run(); // warm: the service's file cache, the session's meta reads
  runDeferred();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  const totals: Record<string, { wall: number; cpu: number; threads: Map<string, number>; stages: Map<string, number> }> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(ways)) {
      const total = (totals[name] ??= { wall: 0, cpu: 0, threads: new Map(), stages: new Map() });
      const threadsBefore = threadSeconds();
      const cpuBefore = process.cpuUsage();
      const t = performance.now();
      await session.post("Profiler.start");
      await run();
      runDeferred();
      const { profile } = await session.post("Profiler.stop");
      total.wall += (performance.now() - t) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      total.cpu += (cpu.user + cpu.system) / 1e6;
      for (const [thread, s] of threadSeconds()) {
        total.threads.set(thread, (total.threads.get(thread) ?? 0) + s - (threadsBefore.get(thread) ?? 0));
      }
      for (const [stage, ms] of split(profile as never, LAKE_STAGES)) total.stages.set(stage, (total.stages.get(stage) ?? 0) + ms);
      rmSync(join(scratch, `lake-${lakes - 1}`), { recursive: true, force: true });
    }
  }
  console.log(
    `${rounds} rounds of each, ${tickers.length} tickers x 20 days, sandbox ${sandboxArgs.join(" ") || "on loopback"} (load ${
      loadavg()[0].toFixed(1)
    })`,
  );
  const names = Object.keys(totals);
  const line = (label: string, values: number[], digits = 2) =>
    console.log(`  ${label.padEnd(42)} ${values.map((v) => v.toFixed(digits).padStart(10)).join("")}`);
  console.log(`  ${"per round".padEnd(42)} ${names.map((n) => n.padStart(10)).join("")}`);
  line("wall s", names.map((n) => totals[n].wall / rounds));
  line("client CPU s", names.map((n) => totals[n].cpu / rounds));
  console.log("  CPU s by thread (threads that ended in between count in the total only):");
  const threads = [...new Set(names.flatMap((n) => [...totals[n].threads.keys()]))];
  for (const thread of threads) {
    const values = names.map((n) => (totals[n].threads.get(thread) ?? 0) / rounds);
    if (values.some((v) => v >= 0.005)) line(`  ${thread}`, values);
  }
  console.log("  main thread by stage (sampled ms):");
  const stages = [...new Set(names.flatMap((n) => [...totals[n].stages.keys()]))];
  const rows = stages.map((s) => [s, ...names.map((n) => (totals[n].stages.get(s) ?? 0) / rounds)] as [string, ...number[]]);
  for (const [stage, ...values] of rows.sort((a, b) => (b[2] ?? 0) - (a[2] ?? 0))) {
    if (values.some((v) => v >= 1)) line(`  ${stage}`, values, 0);
  }
} finally {
  await sandbox.stop();
  rmSync(scratch, { recursive: true, force: true });
}
