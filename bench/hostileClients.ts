/**
 * What hostile or careless clients cost the sandbox and its other users (issue 40), on the demo
 * market, each scenario on a sandbox of its own:
 *   - in:      `eq-daily-ohlc?DailyVolume.in=1,2,...,N` for N = 250, 500, 1,000, 10,000 on one
 *              worker: status, time, peak resident memory, CPU spent after the answer (work
 *              that went on), and what other users' requests (a probe each second) saw;
 *   - repeat:  2,000 repetitions of `Ticker.in=AAPL`, measured the same way;
 *   - stop:    every option of every day sorted (the heaviest query), with the client giving
 *              up after 1 s, with a 1 s budget, and at offset 500,000 with a 32 MB ceiling
 *              (the checkout before the ceiling ignores it): the work that goes on after the
 *              answer shows as CPU;
 *   - keys:    3,000 invalid keys from one address, 8 at a time: rate and statuses, then a
 *              valid key used from the address before, and one never used there;
 *   - sigterm: seconds from SIGTERM to exit with 8 clients that never read and one half-sent
 *              request head; and how long the server keeps a half-sent head open;
 *   - slow:    other users' latencies (8 clients of small pages and /account/my) beside
 *              nothing, six large pages read at full speed, and the same pages read slowly
 *              (2) or never (4), in alternating rounds;
 *   - quota:   a team with a 1,000,000-byte monthly returned-bytes quota asks for a large page.
 * With `--against <checkout>` every scenario runs on that checkout's sandbox too, alternating
 * with this one's (the same-run baseline: e.g. a copy of the commit before a change); `--root`
 * measures another checkout's sandbox instead of this one's.
 *
 *   node_modules/.bin/deno run -A bench/hostileClients.ts [--root DIR] [--against DIR] [--only in,repeat,stop,...] [--cap S]
 */
/// <reference lib="deno.ns" />
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runAdmin } from "../sandbox/service/admin/run.ts";
import { spawnSandbox } from "../sandbox/launcher/mod.ts";
import { closedWithin, forget, prober, sendAndNeverRead, sendHalfAHead, slowReader } from "./support/rawClients.ts";
import { residentMb } from "./support/sandboxMemory.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { loadAverages, median } from "./support/stats.ts";

const { values } = parseArgs({
  options: { root: { type: "string" }, against: { type: "string" }, only: { type: "string" }, cap: { type: "string", default: "60" } },
});
const CAP_MS = Number(values.cap) * 1000;
/** A sandbox past this much resident memory is killed: the machine is shared. */
const KILL_AT_MB = 4000;
const DEMO = join(REPO_ROOT, "data", "demo");
/** How long after an answer (or a client giving up) the sandbox's CPU is watched. */
const AFTER_MS = 10_000;
const KEY = "demo-full-access";
const DAILY = "/api/v1/data/us-equity/eq-daily-ohlc";
const BIG_PAGE = "/api/v1/data/us-equity/eq-taq-1min/AAPL?limit=100000";
/** Every option of every day (62 files, 31 MB of Parquet, 530,000 rows): sorted, the heaviest query one request can ask. */
const OPTIONS = "/api/v1/data/us-equity-opt/opt-greeks-daily?sort=-MidVega";
const checkouts = [
  [values.root ?? "this", values.root ?? REPO_ROOT],
  ...(values.against ? [[values.against, values.against]] : []),
] as const;
const only = values.only?.split(",");
const log = (line: string) => console.log(line);
/** Whether a checkout's sandbox has the per-query memory ceiling (a checkout before it refuses the option). */
const knowsCeiling = (root: string) => existsSync(join(root, "sandbox/service/query/control.ts"));

interface Running {
  baseUrl: string;
  pid: number;
  statePath: string;
  cpuSeconds: () => number;
  kill: () => Promise<void>;
  term: () => Promise<void>;
}

async function start(root: string, args: string[] = []): Promise<Running> {
  const scratch = mkdtempSync(join(tmpdir(), "bench-hostile-"));
  const statePath = join(scratch, "state.sqlite");
  const sb = await spawnSandbox(["--port", "0", "--data", DEMO, "--state", statePath, ...args], { root, readyTimeoutMs: 180_000 });
  const cleanup = () => rmSync(scratch, { recursive: true, force: true });
  return {
    baseUrl: sb.baseUrl,
    pid: sb.pid,
    statePath,
    cpuSeconds: () => {
      const fields = Deno.readTextFileSync(`/proc/${sb.pid}/stat`).split(") ")[1].split(" ");
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    kill: async () => {
      // Deno.kill rather than the child's kill: Deno's child process polyfill marks a child
      // signalled once (SIGTERM) and then sends it nothing more.
      try {
        Deno.kill(sb.pid, "SIGKILL");
      } catch { /* gone */ }
      await sb.kill("SIGKILL");
      cleanup();
    },
    term: async () => {
      await sb.stop();
      cleanup();
    },
  };
}

const fmtMs = (ms: number | undefined) => (ms === undefined ? "-" : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);

/**
 * One heavy request while others probe: what it got, what it cost, what the others saw. The
 * client gives up after `capMs`; `args` are the sandbox's extra options.
 */
async function heavy(root: string, path: string, capMs = CAP_MS, args: string[] = []): Promise<string> {
  const sb = await start(root, ["--workers", "1", ...args]);
  try {
    await (await fetch(`${sb.baseUrl}${DAILY}?Ticker=AAPL&limit=5`, { headers: { "X-API-KEY": KEY } })).arrayBuffer();
    const base = residentMb(sb.pid).now;
    let peak = base, killed = false;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, residentMb(sb.pid).now);
        if (peak > KILL_AT_MB && !killed) {
          killed = true;
          Deno.kill(sb.pid, "SIGKILL");
        }
      } catch { /* gone */ }
    }, 100);
    const probes = [
      prober(`${sb.baseUrl}/api/v1/account/my`, "demo-restricted", 1000, 5000),
      prober(`${sb.baseUrl}${DAILY}?Ticker=MSFT&limit=100`, "demo-tiny-quota", 1000, 5000),
    ];
    const started = performance.now();
    let outcome: string;
    try {
      const response = await fetch(`${sb.baseUrl}${path}`, { headers: { "X-API-KEY": KEY }, signal: AbortSignal.timeout(capMs) });
      const body = await response.text();
      outcome = `${response.status} after ${fmtMs(performance.now() - started)}${
        response.status === 422 ? ` (${JSON.parse(body).detail[0].msg.slice(0, 90)})` : ""
      }`;
    } catch {
      outcome = killed
        ? `killed at ${KILL_AT_MB} MB after ${fmtMs(performance.now() - started)}`
        : `no answer in ${fmtMs(capMs)} (the client gave up)`;
    }
    // Work that goes on after the answer (or after the client gave up) shows as CPU spent.
    let after = NaN;
    if (!killed) {
      const cpu = sb.cpuSeconds();
      await new Promise((r) => setTimeout(r, AFTER_MS));
      if (!killed) after = sb.cpuSeconds() - cpu;
    }
    clearInterval(sampler);
    const [account, data] = await Promise.all(probes.map((p) => p.stop()));
    const seen = (p: typeof account) => `${p.ms.length}/${p.ms.length + p.timedOut} answered, worst ${fmtMs(p.ms.at(-1))}`;
    return `${outcome}; peak ${peak.toFixed(0)} MB (${base.toFixed(0)} before); CPU in the ${AFTER_MS / 1000} s after: ${
      Number.isNaN(after) ? "-" : `${after.toFixed(1)} s`
    }; others: /account/my ${seen(account)}, data ${seen(data)}`;
  } finally {
    await sb.kill();
  }
}

async function invalidKeys(root: string): Promise<string> {
  const sb = await start(root);
  try {
    const valid = async (
      key: string,
    ) => (await fetch(`${sb.baseUrl}/api/v1/account/my`, { headers: { "X-API-KEY": key } }).then(async (
      r,
    ) => (await r.arrayBuffer(), r.status)));
    // Its owner used this key from the address before the guessing started.
    await valid("demo-full-access");
    const statuses: Record<number, number> = {};
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < 3000) {
        const i = next++;
        const r = await fetch(`${sb.baseUrl}/api/v1/account/my`, { headers: { "X-API-KEY": `guess-${i}-${Math.random()}` } });
        await r.arrayBuffer();
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }
    }));
    const rate = 3000 / ((performance.now() - started) / 1000);
    return `3,000 invalid keys at ${rate.toFixed(0)}/s: ${
      JSON.stringify(statuses)
    }; then from the same address a valid key used there before: ${await valid("demo-full-access")}, one never used there: ${await valid(
      "demo-restricted",
    )}`;
  } finally {
    await sb.kill();
  }
}

async function exitAfterTerm(root: string, silent: number, half: number): Promise<string> {
  const sb = await start(root, ["--workers", "2"]);
  const conns: Deno.TcpConn[] = [];
  try {
    for (let i = 0; i < silent; i++) conns.push(await sendAndNeverRead(sb.baseUrl, `${BIG_PAGE}&response_format=csv`, KEY));
    for (let i = 0; i < half; i++) conns.push(await sendHalfAHead(sb.baseUrl, KEY));
    await new Promise((r) => setTimeout(r, 3000));
    const started = performance.now();
    const exited = sb.term().then(() => performance.now() - started);
    const took = await Promise.race([exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 45_000))]);
    if (took === undefined) await sb.kill();
    return `${silent} silent + ${half} half-sent: ${
      took === undefined ? "not exited 45 s after SIGTERM (killed)" : `exited ${fmtMs(took)} after SIGTERM`
    }`;
  } finally {
    conns.forEach(forget);
  }
}

async function halfHeadHeld(root: string): Promise<string> {
  const sb = await start(root, ["--workers", "1"]);
  try {
    const conn = await sendHalfAHead(sb.baseUrl, KEY);
    const closed = await closedWithin(conn, 40_000);
    forget(conn);
    return `a half-sent head: ${closed === undefined ? "still open after 40 s" : `closed by the server after ${fmtMs(closed)}`}`;
  } finally {
    await sb.kill();
  }
}

/**
 * Others' latencies (8 clients of small pages and /account/my, 15 s a round) beside nothing,
 * beside six large pages read at full speed, and beside the same six pages read slowly (2
 * readers at 100 kB/s) or never (4 clients), in alternating rounds: what reading slowly costs
 * others beyond what the pages cost to make. The sandbox's resident memory ends each round.
 */
async function slowReaders(root: string): Promise<string> {
  const sb = await start(root, ["--workers", "2"]);
  const kinds = ["none", "fast", "slow"] as const;
  const rounds: Record<string, { ms: number[]; mb: number }[]> = { none: [], fast: [], slow: [] };
  const pages = [`${BIG_PAGE}&response_format=csv`, BIG_PAGE, BIG_PAGE, BIG_PAGE, BIG_PAGE, BIG_PAGE];
  try {
    for (const round of [...kinds, ...kinds]) {
      const fast = round === "fast"
        ? pages.map((p) => fetch(`${sb.baseUrl}${p}`, { headers: { "X-API-KEY": KEY } }).then((r) => r.arrayBuffer()))
        : [];
      const slow = round === "slow" ? pages.slice(0, 2).map((p) => slowReader(sb.baseUrl, p, KEY, 100_000)) : [];
      const silent = round === "slow" ? await Promise.all(pages.slice(2).map((p) => sendAndNeverRead(sb.baseUrl, p, KEY))) : [];
      const ms: number[] = [];
      const end = performance.now() + 15_000;
      await Promise.all(Array.from({ length: 8 }, async (_, c) => {
        while (performance.now() < end) {
          const path = c % 2 === 0
            ? "/api/v1/account/my"
            : `${DAILY}?Ticker=AAPL&TradeDate=2023-11-${String(1 + (c % 28)).padStart(2, "0")}&limit=100`;
          const t0 = performance.now();
          await (await fetch(`${sb.baseUrl}${path}`, { headers: { "X-API-KEY": KEY } })).arrayBuffer();
          ms.push(performance.now() - t0);
        }
      }));
      await Promise.all(fast);
      const mb = residentMb(sb.pid).now;
      await Promise.all(slow.map((h) => h.stop()));
      silent.forEach(forget);
      rounds[round].push({ ms: ms.sort((a, b) => a - b), mb });
    }
    const describe = (samples: { ms: number[]; mb: number }[]) =>
      samples.map(({ ms, mb }) =>
        `median ${fmtMs(median(ms))}, p99 ${fmtMs(ms[Math.floor(ms.length * 0.99)])}, worst ${fmtMs(ms.at(-1))} (${ms.length} requests; ${
          mb.toFixed(0)
        } MB resident)`
      ).join("; ");
    return [
      `others beside nothing: ${describe(rounds.none)}`,
      `    beside 6 large pages read at full speed: ${describe(rounds.fast)}`,
      `    beside the same pages read at 100 kB/s (2) or never (4): ${describe(rounds.slow)}`,
    ].join("\n");
  } finally {
    await sb.kill();
  }
}

async function returnedBytesQuota(root: string): Promise<string> {
  const sb = await start(root, ["--workers", "1"]);
  try {
    const admin = (...args: string[]) => JSON.parse(runAdmin(["--state", sb.statePath, "--json", ...args]).stdout);
    const team = admin(
      "teams",
      "create",
      "--name",
      "bench-returned",
      "--per-minute",
      "100",
      "--monthly",
      "1000",
      "--returned-bytes",
      "1000000",
    );
    const identity = admin("identities", "create", "--team", String(team.team_id), "--name", "bench-returned");
    const { key } = admin("keys", "create", "--identity", String(identity.identity_id));
    const ask = async () => {
      const r = await fetch(`${sb.baseUrl}${BIG_PAGE}`, { headers: { "X-API-KEY": key } });
      const bytes = (await r.arrayBuffer()).byteLength;
      return `${r.status} with ${(bytes / 1e6).toFixed(2)} MB${
        r.headers.get("X-Pagination-Next-Offset") ? ` (next offset ${r.headers.get("X-Pagination-Next-Offset")})` : ""
      }`;
    };
    return `a 1,000,000-byte returned quota, a 100,000-row page asked for: ${await ask()}; asked again: ${await ask()}`;
  } finally {
    await sb.kill();
  }
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(",");
const SCENARIOS: [string, string, (root: string) => Promise<string>][] = [
  ...[250, 500, 1000, 10_000].map((n) =>
    ["in", `DailyVolume.in with ${n} values`, (root: string) => heavy(root, `${DAILY}?DailyVolume.in=${ids(n)}`)] as [
      string,
      string,
      (root: string) => Promise<string>,
    ]
  ),
  ["repeat", "2,000 repetitions of Ticker.in=AAPL", (root) => heavy(root, `${DAILY}?${Array(2000).fill("Ticker.in=AAPL").join("&")}`)],
  ["stop", "every option sorted, the client gone after 1 s", (root) => heavy(root, `${OPTIONS}&limit=100`, 1000)],
  ["stop", "every option sorted, a 1 s budget", (root) => heavy(root, `${OPTIONS}&limit=100`, CAP_MS, ["--query-budget-ms", "1000"])],
  [
    "stop",
    "every option sorted, a page at offset 500,000, a 32 MB ceiling",
    (root) => heavy(root, `${OPTIONS}&limit=100&offset=500000`, CAP_MS, knowsCeiling(root) ? ["--query-memory-mb", "32"] : []),
  ],
  ["keys", "invalid keys", invalidKeys],
  ["sigterm", "SIGTERM, silent clients", (root) => exitAfterTerm(root, 8, 1)],
  ["sigterm", "SIGTERM, one half-sent head", (root) => exitAfterTerm(root, 0, 1)],
  ["sigterm", "header-read time-out", halfHeadHeld],
  ["slow", "slow readers", slowReaders],
  ["quota", "returned-bytes quota", returnedBytesQuota],
];

log(`load average at start: ${loadAverages()}`);
for (const [group, name, run] of SCENARIOS) {
  if (only && !only.includes(group)) continue;
  for (const [label, root] of checkouts) {
    log(`${name} [${label}]: ${await run(root)}  (load ${loadAverages()})`);
  }
}
