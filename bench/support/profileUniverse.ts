/**
 * Where the client's CPU goes on the demo universe pull (every demo ticker x 20 days of
 * eq-taq-1min, every column): a sandbox in its own process, the pull run `rounds` times in
 * this one under V8's sampling profiler (node:inspector), and the samples split into the
 * pipeline's stages by the frames on their stacks. Polars parses on threads of its own, which
 * the profiler does not see, so the process's CPU is also split by thread (/proc/self/task):
 * the main thread, Polars' pool, the rest (Deno's HTTP and I/O).
 *
 *   deno run -A bench/support/profileUniverse.ts [rounds] [out.cpuprofile]
 */
import { Session } from "node:inspector/promises";
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { tradingDays } from "../../calendar/calendar.ts";
import { connect } from "../../workbench/mod.ts";
import { runDeferred } from "../../workbench/provenance/deferred.ts";
import { REPO_ROOT } from "./paths.ts";
import { ensureDemoMarket } from "./sandboxMarkets.ts";
import { startSandboxProcess } from "./sandboxServer.ts";
import { split, threadSeconds } from "./cpuSplit.ts";
import process from "node:process";

const rounds = Number(Deno.args[0] ?? 3);
const outFile = Deno.args[1];
const demoDir = join(REPO_ROOT, "data", "demo");
const manifest = ensureDemoMarket(demoDir, (l) => console.error(l));
const tickers = (JSON.parse(readFileSync(join(demoDir, "manifest.json"), "utf8")).securities as { ticker: string }[]).map((s) => s.ticker);
const days = tradingDays(manifest.start, manifest.end).map((d) => d.date);
const sandbox = await startSandboxProcess(demoDir);
try {
  const wb = await connect({ baseUrl: sandbox.baseUrl, apiKey: "demo-full-access" });
  const pull = () => wb.data.eqTaq1Min(tickers, { start: days[0], end: days[19], concurrency: 4 });
  await pull(); // warm: the service's file cache, the session's meta reads
  runDeferred();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  const threadsBefore = threadSeconds();
  const cpuBefore = process.cpuUsage();
  const t = performance.now();
  await session.post("Profiler.start");
  let rows = 0;
  for (let i = 0; i < rounds; i++) rows = (await pull()).height;
  runDeferred();
  const { profile } = await session.post("Profiler.stop");
  const wall = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const threadsAfter = threadSeconds();
  if (outFile) writeFileSync(outFile, JSON.stringify(profile));
  console.log(
    `${rounds} universe pulls of ${rows.toLocaleString("en-US")} rows: ${wall.toFixed(2)} s wall, ${
      ((cpu.user + cpu.system) / 1e6).toFixed(2)
    } CPU s of client (load ${loadavg()[0].toFixed(1)})`,
  );
  console.log("client CPU by thread (s, all rounds; threads that ended in between count in the total only):");
  for (const [name, s] of threadsAfter) {
    const d = s - (threadsBefore.get(name) ?? 0);
    if (d >= 0.005) console.log(`  ${name.padEnd(28)} ${d.toFixed(2)}`);
  }
  console.log("main thread by stage (sampled ms per round):");
  const ms = [...split(profile as never)].sort((a, b) => b[1] - a[1]);
  for (const [name, v] of ms) console.log(`  ${name.padEnd(40)} ${(v / rounds).toFixed(0).padStart(6)}`);
} finally {
  await sandbox.stop();
}
