/**
 * Sandbox service benchmark: the CLI serving the demo market in its own process, measured
 * over loopback HTTP against direct in-process Polars reads of the same pages (the same-run
 * baseline), and against a market 8 times larger (see support/sandboxMarkets.ts for how it is
 * built). Targets on the 2-core machine:
 *   - a 10,000-row eq-taq-1min CSV page: p50 <= 150 ms;
 *   - 100-row CSV pages, 8 concurrent clients each walking its own ticker day by day: >= 600
 *     requests per second with p99 < 60 ms, on the sandbox's workers (one per core; the same
 *     walk on one worker is the same-run baseline, run in rounds alternating with it, with the
 *     server's and the clients' CPU per page); a lock-step "scattered" pattern, a new file every
 *     8 requests, is reported beside it;
 *   - the same clients on /account/my (the machine's HTTP floor): p99 < 10 ms, and a 50 Hz
 *     probe in its own thread sees no answer slower than 100 ms (no stall);
 *   - a one-ticker, one-day query on the 8x market: p50 <= 1.3x the same query on demo;
 *   - memory (issue 22): at most 300 MB resident at rest after start, at most 600 MB at its
 *     peak under the load above (10,000-row pages, then the 8-client walks and scattered pages),
 *     against the sandbox as it was (640 MB of caches, C allocator at its defaults) under the
 *     same load in the same run, the walks alternating between the two, with no fewer req/s.
 * The 8x comparison runs both sandboxes at once, with their cache of decoded files off, and
 * alternates requests between them, so drift in the machine's load falls on both alike. The
 * 8x market is kept in data/bench-8x (about 1 GB; rebuilt in about 30 s when the demo market
 * changes; delete it to reclaim the space). Exits 1 when a target is missed.
 *
 *   node_modules/.bin/deno run -A bench/sandbox.ts [--samples N] [--seconds S]
 *
 * With `--against <checkout>` (another worktree, e.g. of the commit before a change) it runs the
 * 100-row walks only, on this checkout's sandbox and on that one's, both up, in rounds
 * alternating between them (8 rounds), each over its own checkout's demo market when it has one
 * (else both over this one's), and prints req/s and p99 of each with their ratio;
 * exits 1 when this checkout serves fewer req/s (beyond 5%, the noise of a shared machine) or has
 * a worse p99 (beyond 10%).
 */
import process from "node:process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { minuteFiles, readTickerDay, readTickerPage } from "./support/sandboxBaseline.ts";
import {
  alternateRounds,
  fetchAll,
  KEY,
  measureThroughput,
  pageWalker,
  percentile,
  sampleInterleaved,
  sampleLatency,
  type Samples,
} from "./support/sandboxLoad.ts";
import { checkoutDemoMarket, ensureDemoMarket, ensureScaledMarket } from "./support/sandboxMarkets.ts";
import { AS_BEFORE, residentMb } from "./support/sandboxMemory.ts";
import { startProbe } from "./support/sandboxProbe.ts";
import { type BenchSandbox, startSandboxProcess } from "./support/sandboxServer.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { loadAverages } from "./support/stats.ts";

const { values } = parseArgs({
  options: { samples: { type: "string", default: "100" }, seconds: { type: "string", default: "20" }, against: { type: "string" } },
});
const SAMPLES = Number(values.samples);
const MAX_MS = Number(values.seconds) * 1000;
const log = (line: string) => console.error(`bench: ${line}`);

const demoDir = join(REPO_ROOT, "data", "demo");
const bigDir = join(REPO_ROOT, "data", "bench-8x");
const demo = ensureDemoMarket(demoDir, log);
if (!values.against) ensureScaledMarket(demoDir, bigDir, 8, log);
const dates = demo.tradingDays.map((d) => d.date);
const TICKERS = ["AAPL", "MSFT", "JPM", "SPY", "QQQ", "TSM", "CVX", "SIRI"];
const DATA = "/api/v1/data/us-equity/eq-taq-1min";

interface Row {
  measure: string;
  figure: string;
  target: string;
  baseline: string;
  ratio: string;
  ok?: boolean;
}
const rows: Row[] = [];
const fmt = (ms: number) => ms.toFixed(1);
const p50 = (s: Samples) => percentile(s.ms, 50);
const p99 = (s: Samples) => percentile(s.ms, 99);

async function scannedBytes(sb: BenchSandbox, path: string): Promise<number> {
  const quotas = async () =>
    (await (await fetch(`${sb.baseUrl}/api/v1/account/my/quotas`, { headers: { "X-API-KEY": KEY } })).json()).quotas_usage
      .monthly_data_scanned as number;
  const before = await quotas();
  await fetchAll(`${sb.baseUrl}${path}`);
  return (await quotas()) - before;
}

const walkers = (base: string) => (c: number) =>
  pageWalker(base, (k) => `${DATA}/${TICKERS[c]}?TradeDate=${dates[(c + k) % dates.length]}&limit=100&response_format=csv`);

log(`load average at start: ${loadAverages()}`);
if (values.against) process.exit(await walksAgainst(values.against));

/** The 100-row walks on this checkout's sandbox against `root`'s, alternating; 0 when no worse. */
async function walksAgainst(root: string): Promise<number> {
  const theirMarket = checkoutDemoMarket(root, demoDir);
  log(`against ${root}, over ${theirMarket === demoDir ? "this checkout's demo market" : theirMarket}`);
  const [now, then] = await Promise.all([startSandboxProcess(demoDir), startSandboxProcess(theirMarket, {}, [], root)]);
  const started = loadAverages();
  try {
    const target = (s: BenchSandbox) => ({ steps: Array.from({ length: 8 }, (_, c) => walkers(s.baseUrl)(c)), cpuSeconds: s.cpuSeconds });
    const [b, a] = await alternateRounds(target(then), target(now), 8, MAX_MS / 4, 10_000, process.cpuUsage);
    const line = (name: string, r: typeof a) =>
      `${name.padEnd(34)} ${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${fmt(p50(r.latency))} ms  p99 ${
        fmt(p99(r.latency))
      } ms  server CPU ${r.serverCpuMs.toFixed(2)} ms/page  (${r.requests} req in ${r.seconds.toFixed(1)} s)`;
    console.log(`100-row pages, 8 clients, walks, ${now.workers} workers each, 8 alternating rounds`);
    console.log(line("this checkout", a));
    console.log(line(`against ${root}`, b));
    console.log(
      `ratio: ${(a.perSecond / b.perSecond).toFixed(2)}x the req/s, ${
        (p99(a.latency) / p99(b.latency)).toFixed(2)
      }x the p99; load average ${started} at the start, ${loadAverages()} at the end`,
    );
    return a.perSecond >= 0.95 * b.perSecond && p99(a.latency) <= 1.1 * p99(b.latency) ? 0 : 1;
  } finally {
    await Promise.all([now.stop(), then.stop()]);
  }
}

const sb = await startSandboxProcess(demoDir);
try {
  // 1. A 10,000-row page, sequential requests; the client asks for no transfer compression. The
  // sandbox compresses no answer (Cache-Control: no-transform), so a gzip-accepting client,
  // measured beside it, should see the same.
  const pageUrl = (format: string) => `${sb.baseUrl}${DATA}/AAPL?limit=10000&response_format=${format}`;
  const files = minuteFiles(demoDir);
  const direct = await sampleLatency(() => readTickerPage(files, "AAPL", 0, 10_000), SAMPLES, MAX_MS);
  const identity = { "Accept-Encoding": "identity" };
  const csv = await sampleLatency(() => fetchAll(pageUrl("csv"), identity), SAMPLES, MAX_MS);
  const csvGzip = await sampleLatency(() => fetchAll(pageUrl("csv")), Math.ceil(SAMPLES / 2), MAX_MS);
  const json = await sampleLatency(() => fetchAll(pageUrl("json"), identity), Math.ceil(SAMPLES / 2), MAX_MS);
  const base = `${fmt(p50(direct))} ms`;
  rows.push({
    measure: `10,000-row CSV page p50 (${csv.ms.length} req, ${(csv.bytes / 1e6).toFixed(1)} MB)`,
    figure: `${fmt(p50(csv))} ms`,
    target: "<= 150 ms",
    baseline: base,
    ratio: (p50(csv) / p50(direct)).toFixed(2),
    ok: p50(csv) <= 150,
  });
  rows.push({
    measure: "10,000-row CSV page p99",
    figure: `${fmt(p99(csv))} ms`,
    target: "-",
    baseline: `${fmt(p99(direct))} ms`,
    ratio: (p99(csv) / p99(direct)).toFixed(2),
  });
  rows.push({
    measure: `10,000-row CSV page p50, gzip-accepting client (${csvGzip.ms.length} req)`,
    figure: `${fmt(p50(csvGzip))} ms`,
    target: "-",
    baseline: base,
    ratio: (p50(csvGzip) / p50(direct)).toFixed(2),
  });
  rows.push({
    measure: `10,000-row JSON page p50 (${json.ms.length} req, ${(json.bytes / 1e6).toFixed(1)} MB)`,
    figure: `${fmt(p50(json))} ms`,
    target: "-",
    baseline: base,
    ratio: (p50(json) / p50(direct)).toFixed(2),
  });
  rows.push({
    measure: "10,000-row JSON page p99",
    figure: `${fmt(p99(json))} ms`,
    target: "-",
    baseline: `${fmt(p99(direct))} ms`,
    ratio: (p99(json) / p99(direct)).toFixed(2),
  });

  // 2. 100-row CSV pages (the workbench's wire format), 8 closed-loop clients. "walks": each client pages through its own
  // ticker day after day by X-Pagination-Next-Offset, starting a day apart from the others (as
  // notebook users do). "scattered": the 8 clients ask in lock-step for one page of each of 8
  // tickers on one day, then the next day, at varying offsets: a new file every 8 requests.
  // Same-run baselines: the walks on a sandbox with one worker (as the sandbox was before it
  // used every core), and the same 8 clients on GET /api/v1/account/my (auth and state, no
  // data), the HTTP floor of this machine in this run. A probe in its own thread asks for
  // /account/my every 20 ms during the floor run: a stall shows as one long latency.
  // The walks on one worker and on every core alternate in rounds, both sandboxes up, so the
  // machine's drifting load (it is shared) falls on both alike.
  const single = await startSandboxProcess(demoDir, {}, ["--workers", "1"]);
  let oneWorker, walks;
  const walksLoad = loadAverages();
  try {
    const target = (s: BenchSandbox) => ({ steps: Array.from({ length: 8 }, (_, c) => walkers(s.baseUrl)(c)), cpuSeconds: s.cpuSeconds });
    [oneWorker, walks] = await alternateRounds(target(single), target(sb), 4, MAX_MS / 4, 10_000, process.cpuUsage);
  } finally {
    await single.stop();
  }
  const walksEndLoad = loadAverages();
  const [oneWorkerCpu, walksCpu, oneWorkerClientCpu, walksClientCpu] = [
    oneWorker.serverCpuMs,
    walks.serverCpuMs,
    oneWorker.clientCpuMs,
    walks.clientCpuMs,
  ];
  const probe = startProbe(`${sb.baseUrl}/api/v1/account/my`, KEY, 20);
  const floor = await measureThroughput(() => () => fetchAll(`${sb.baseUrl}/api/v1/account/my`), 8, 40_000, MAX_MS / 2);
  const probed = await probe.stop();
  let next = 0;
  const scattered = await measureThroughput(
    () => () => {
      const i = next++;
      return fetchAll(
        `${sb.baseUrl}${DATA}/${TICKERS[i % 8]}?TradeDate=${dates[(i >> 3) % dates.length]}&limit=100&offset=${
          (i % 9) * 100
        }&response_format=csv`,
      );
    },
    8,
    10_000,
    MAX_MS,
  );
  const floorText = `${floor.perSecond.toFixed(0)} req/s floor`;
  rows.push({
    measure: `/account/my, 8 clients (${floor.requests} req, ${floor.perSecond.toFixed(0)} req/s) p99`,
    figure: `${fmt(p99(floor.latency))} ms`,
    target: "< 10 ms",
    baseline: `p50 ${fmt(p50(floor.latency))} ms`,
    ratio: "-",
    ok: p99(floor.latency) < 10,
  });
  const worst = probed.ms.at(-1) ?? NaN;
  rows.push({
    measure: `stall probe on /account/my during that load (${probed.ms.length} probes, 50 Hz) max`,
    figure: `${fmt(worst)} ms`,
    target: "<= 100 ms",
    baseline: `p50 ${fmt(p50(probed))} ms`,
    ratio: "-",
    ok: worst <= 100,
  });
  rows.push({
    measure: `100-row pages, 8 clients, walks, 1 worker (${oneWorker.requests} req in 4 rounds, p99 ${fmt(p99(oneWorker.latency))} ms)`,
    figure: `${oneWorker.perSecond.toFixed(0)} req/s`,
    target: "-",
    baseline: floorText,
    ratio: (oneWorker.perSecond / floor.perSecond).toFixed(2),
  });
  rows.push({
    measure: `100-row pages, 8 clients, walks, ${sb.workers} workers (${walks.requests} req in ${
      walks.seconds.toFixed(1)
    } s alternating with 1 worker, p50 ${fmt(p50(walks.latency))} ms)`,
    figure: `${walks.perSecond.toFixed(0)} req/s`,
    target: ">= 600 req/s",
    baseline: `${oneWorker.perSecond.toFixed(0)} req/s 1 worker`,
    ratio: (walks.perSecond / oneWorker.perSecond).toFixed(2),
    ok: walks.perSecond >= 600,
  });
  // The machine is shared: what a page costs the server in CPU is steadier than req/s, and
  // bounds what the cores could serve were they the sandbox's alone.
  const cores = navigator.hardwareConcurrency;
  rows.push({
    measure: `server CPU per 100-row page (all threads), ${sb.workers} workers`,
    figure: `${walksCpu.toFixed(2)} ms`,
    target: "-",
    baseline: `${oneWorkerCpu.toFixed(2)} ms 1 worker`,
    ratio: (walksCpu / oneWorkerCpu).toFixed(2),
  });
  rows.push({
    measure: `client CPU per 100-row page (8 clients, this process), ${sb.workers} workers`,
    figure: `${walksClientCpu.toFixed(2)} ms`,
    target: "-",
    baseline: `${oneWorkerClientCpu.toFixed(2)} ms 1 worker`,
    ratio: (walksClientCpu / oneWorkerClientCpu).toFixed(2),
  });
  rows.push({
    measure: "load average (1, 5, 15 min) as the walks started / at their end",
    figure: walksLoad,
    target: "-",
    baseline: walksEndLoad,
    ratio: "-",
  });
  rows.push({
    measure: `  so ${cores} cores wholly the sandbox's could serve at most`,
    figure: `${(cores * 1000 / walksCpu).toFixed(0)} req/s`,
    target: "-",
    baseline: "-",
    ratio: "-",
  });
  rows.push({
    measure: "100-row pages, walks p99",
    figure: `${fmt(p99(walks.latency))} ms`,
    target: "< 60 ms",
    baseline: `${fmt(p99(oneWorker.latency))} ms 1 worker`,
    ratio: (p99(walks.latency) / p99(oneWorker.latency)).toFixed(2),
    ok: p99(walks.latency) < 60,
  });
  rows.push({
    measure: `100-row pages, 8 clients, scattered (${scattered.requests} req, p50 ${fmt(p50(scattered.latency))} ms)`,
    figure: `${scattered.perSecond.toFixed(0)} req/s`,
    target: "-",
    baseline: floorText,
    ratio: (scattered.perSecond / floor.perSecond).toFixed(2),
  });
} finally {
  await sb.stop();
}

// 2b. Memory: two fresh sandboxes, this one and one as it was (AS_BEFORE), at rest after start,
// then under the same load (10,000-row pages in both formats, the 8-client walks in rounds
// alternating between the two, the scattered pages); the peak is the process's high-water mark.
{
  const [now, before] = await Promise.all([startSandboxProcess(demoDir), startSandboxProcess(demoDir, AS_BEFORE)]);
  try {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const [restNow, restBefore] = [residentMb(now.pid), residentMb(before.pid)];
    for (const format of ["csv", "json"]) {
      for (let i = 0; i < 20; i++) {
        for (const s of [now, before]) {
          await fetchAll(`${s.baseUrl}${DATA}/AAPL?limit=10000&response_format=${format}`, { "Accept-Encoding": "identity" });
        }
      }
    }
    const walkSteps = (s: BenchSandbox) => ({
      steps: Array.from(
        { length: 8 },
        (_, c) =>
          pageWalker(s.baseUrl, (k) => `${DATA}/${TICKERS[c]}?TradeDate=${dates[(c + k) % dates.length]}&limit=100&response_format=csv`),
      ),
      cpuSeconds: s.cpuSeconds,
    });
    const memoryLoad = loadAverages();
    const [walksNow, walksBefore] = await alternateRounds(walkSteps(now), walkSteps(before), 4, MAX_MS / 4, 10_000, process.cpuUsage);
    for (const s of [now, before]) {
      let next = 0;
      await measureThroughput(
        () => () => {
          const i = next++;
          return fetchAll(
            `${s.baseUrl}${DATA}/${TICKERS[i % 8]}?TradeDate=${dates[(i >> 3) % dates.length]}&limit=100&offset=${
              (i % 9) * 100
            }&response_format=csv`,
          );
        },
        8,
        5_000,
        MAX_MS / 2,
      );
    }
    const [peakNow, peakBefore] = [residentMb(now.pid), residentMb(before.pid)];
    rows.push({
      measure: "resident memory at rest after start (all workers)",
      figure: `${restNow.now.toFixed(0)} MB`,
      target: "<= 300 MB",
      baseline: `${restBefore.now.toFixed(0)} MB as before`,
      ratio: (restNow.now / restBefore.now).toFixed(2),
      ok: restNow.now <= 300,
    });
    rows.push({
      measure: "resident memory at its peak under that load",
      figure: `${peakNow.peak.toFixed(0)} MB`,
      target: "<= 600 MB",
      baseline: `${peakBefore.peak.toFixed(0)} MB as before`,
      ratio: (peakNow.peak / peakBefore.peak).toFixed(2),
      ok: peakNow.peak <= 600,
    });
    rows.push({
      measure: "resident memory after that load",
      figure: `${peakNow.now.toFixed(0)} MB`,
      target: "-",
      baseline: `${peakBefore.now.toFixed(0)} MB as before`,
      ratio: (peakNow.now / peakBefore.now).toFixed(2),
    });
    rows.push({
      measure: `100-row pages, 8 clients, walks, alternating with as before (p99 ${fmt(p99(walksNow.latency))} / ${
        fmt(p99(walksBefore.latency))
      } ms)`,
      figure: `${walksNow.perSecond.toFixed(0)} req/s`,
      target: ">= as before",
      baseline: `${walksBefore.perSecond.toFixed(0)} req/s as before`,
      ratio: (walksNow.perSecond / walksBefore.perSecond).toFixed(2),
    });
    rows.push({
      measure: "load average (1, 5, 15 min) as the memory walks started / at their end",
      figure: memoryLoad,
      target: "-",
      baseline: loadAverages(),
      ratio: "-",
    });
  } finally {
    await Promise.all([now.stop(), before.stop()]);
  }
}

// 3. One ticker, one day: demo against the 8x market, both served at once, requests alternated.
// Their cache of decoded files is off, so every answer comes from reading the day's file.
const noCache = { SANDBOX_FRAME_CACHE_MB: "0" };
const [small, big] = await Promise.all([startSandboxProcess(demoDir, noCache), startSandboxProcess(bigDir, noCache)]);
try {
  const dayPath = (i: number) => `${DATA}/AAPL?TradeDate=${dates[(i * 7) % dates.length]}`;
  const [onDemo, onBig] = await sampleInterleaved(
    (i) => fetchAll(`${small.baseUrl}${dayPath(i)}`),
    (i) => fetchAll(`${big.baseUrl}${dayPath(i)}`),
    SAMPLES,
    MAX_MS * 2,
  );
  const direct = await sampleLatency((i) => readTickerDay(demoDir, "AAPL", dates[(i * 7) % dates.length]), SAMPLES, MAX_MS);
  const [scanDemo, scanBig] = [await scannedBytes(small, dayPath(0)), await scannedBytes(big, dayPath(0))];
  rows.push({
    measure: `one ticker, one day on demo p50 (${onDemo.ms.length} req, ${(scanDemo / 1e6).toFixed(2)} MB scanned)`,
    figure: `${fmt(p50(onDemo))} ms`,
    target: "-",
    baseline: `${fmt(p50(direct))} ms`,
    ratio: (p50(onDemo) / p50(direct)).toFixed(2),
  });
  const ratio = p50(onBig) / p50(onDemo);
  rows.push({
    measure: `one ticker, one day on 8x p50 (${onBig.ms.length} req, ${(scanBig / 1e6).toFixed(2)} MB scanned)`,
    figure: `${fmt(p50(onBig))} ms`,
    target: "<= 1.3x demo",
    baseline: `${fmt(p50(onDemo))} ms (demo)`,
    ratio: ratio.toFixed(2),
    ok: ratio <= 1.3,
  });
  rows.push({
    measure: "one ticker, one day p99 on demo / on 8x",
    figure: `${fmt(p99(onDemo))} / ${fmt(p99(onBig))} ms`,
    target: "-",
    baseline: "-",
    ratio: (p99(onBig) / p99(onDemo)).toFixed(2),
  });
} finally {
  await Promise.all([small.stop(), big.stop()]);
}

const widths = [62, 16, 14, 24, 6];
const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
console.log(line(["measure", "figure", "target", "same-run baseline", "ratio"]) + "  verdict");
for (const r of rows) {
  console.log(line([r.measure, r.figure, r.target, r.baseline, r.ratio]) + `  ${r.ok === undefined ? "" : r.ok ? "ok" : "MISSED"}`);
}
console.log(
  `baselines: direct in-process Polars reads of the same pages (no HTTP), or as named; ratio = figure / baseline. Load average at end: ${loadAverages()}`,
);
if (rows.some((r) => r.ok === false)) process.exitCode = 1;
