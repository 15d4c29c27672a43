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
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { tradingDays } from "../../calendar/calendar.ts";
import { connect } from "../../workbench/mod.ts";
import { runDeferred } from "../../workbench/provenance/deferred.ts";
import { REPO_ROOT } from "./paths.ts";
import { ensureDemoMarket } from "./sandboxMarkets.ts";
import { startSandboxProcess } from "./sandboxServer.ts";

/** A stage and how a stack frame is told to belong to it (the innermost match wins). */
const STAGES: [string, (fn: string, url: string) => boolean][] = [
  ["provenance (row hashes, records)", (_f, u) => u.includes("/provenance/")],
  ["contract checks", (f, u) => u.includes("contractCheck.ts") || u.includes("/zod/") || f === "checkAnswer"],
  ["stacking", (f) => f === "stackFrames"],
  ["date-times (typing)", (f) => f === "dateTimeTextToUtcNs"],
  ["typing (typeFrame, casts)", (f) => f === "typeFrame" || f === "castExpr" || f === "emptyFrame"],
  ["CSV parse (Polars reader)", (f) => f === "readCsvPage" || f === "readCSV"],
  ["body handling (bytes, gunzip)", (f) => f === "pageToFrame"],
  ["transport (ky, fetch, body to bytes)", (_f, u) => u.includes("/ky/") || u.includes("transport.ts") || u.startsWith("ext:deno_fetch") || u.startsWith("ext:deno_web") || u.includes("ext:deno_http")],
  ["pager, pipeline, rate window", (_f, u) => u.includes("/workbench/")],
];

interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Sampled milliseconds per stage, each sample given to the innermost frame that names a stage. */
function split(profile: { nodes: Node[]; samples: number[]; timeDeltas: number[] }): Map<string, number> {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOf = new Map<number, string>();
  const stage = (id: number): string => {
    const known = stageOf.get(id);
    if (known) return known;
    const { functionName, url } = byId.get(id)!.callFrame;
    let s: string;
    if (functionName === "(idle)" || functionName === "(program)" || functionName === "(garbage collector)") s = functionName;
    else s = STAGES.find(([, test]) => test(functionName, url))?.[0] ?? (parent.has(id) ? stage(parent.get(id)!) : "other");
    stageOf.set(id, s);
    return s;
  };
  const ms = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const s = stage(id);
    ms.set(s, (ms.get(s) ?? 0) + profile.timeDeltas[i] / 1000);
  });
  return ms;
}

/** CPU seconds of this process's threads, by thread name. */
function threadSeconds(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const key = tid === String(process.pid) ? "main thread" : /polars|rayon/i.test(name) ? "Polars pool" : name;
      out.set(key, (out.get(key) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return out;
}

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
  console.log(`${rounds} universe pulls of ${rows.toLocaleString("en-US")} rows: ${wall.toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} CPU s of client (load ${loadavg()[0].toFixed(1)})`);
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
