/**
 * Starts the local sandbox service, or reuses the one already running on the same market, and
 * says where it is and which demo keys it knows. Works from Deno (notebooks) and Node, in this
 * repository and from the installed package (`home.ts` says where each keeps its markets and
 * logs). It starts the process through `spawnSandbox`, the one launcher.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { DEMO_KEYS } from "../../contract/demoKeys.ts";
import { SandboxSettingError } from "./errors.ts";
import { sandboxHome } from "./home.ts";
import { spawnSandbox } from "./spawn.ts";

/** A running local sandbox: where it answers and the demo keys it knows. */
export interface LocalSandbox {
  /** Where it answers, e.g. `http://127.0.0.1:8000` (pass to `connect`). */
  baseUrl: string;
  /** The documented demo keys. */
  keys: typeof DEMO_KEYS;
  /** Process id of the sandbox (when this call or an earlier one started it). */
  pid?: number;
  /** Stops the sandbox process. */
  stop: () => void;
}

/** How `sandbox()` starts the local sandbox. */
export interface SandboxOptions {
  /** The market it serves: `demo` (default: the full synthetic market) or `tiny` (a small one, for tests). */
  profile?: "demo" | "tiny";
  /** Market folder (default `<home>/data/<profile>`, generated on the first start). */
  dataDir?: string;
  /**
   * Folder for the generated markets, the records of running sandboxes and their logs (default:
   * MARKET_WORKBENCH_HOME, else the repository's `data/` and `.cache/` in a checkout, else a
   * per-user cache folder such as `~/.cache/market-workbench`; see `sandboxHome`).
   */
  home?: string;
  /** Extra arguments for the sandbox command (settings such as --faults). Never reused when given. */
  args?: string[];
  /** Seconds to wait for a start, which may include generating the market (default 300). */
  timeoutSeconds?: number;
  /** Milliseconds the sandbox holds each answer before its first byte, as a remote service's round trip would (default 0). */
  latencyMs?: number;
  /** Megabytes (10^6 bytes) a second each connection carries, as a user's network would (default: loopback speed). */
  bandwidthMBps?: number;
}

/** What `sandbox()` records of the sandbox it started for a profile, to reuse it. */
interface SandboxRecord {
  baseUrl: string;
  pid: number;
  dataDir: string;
  network?: { latencyMs?: number; bandwidthMBps?: number };
}

/** The network settings asked for, checked; only those given. */
function checkNetwork(options: SandboxOptions): { latencyMs?: number; bandwidthMBps?: number } {
  const { latencyMs, bandwidthMBps } = options;
  if (latencyMs !== undefined && !(Number.isFinite(latencyMs) && latencyMs >= 0 && latencyMs <= 60_000)) {
    throw new SandboxSettingError(`sandbox({ latencyMs: ${latencyMs} }): the latency must be a number of milliseconds from 0 to 60000`);
  }
  if (bandwidthMBps !== undefined && !(Number.isFinite(bandwidthMBps) && bandwidthMBps > 0)) {
    throw new SandboxSettingError(
      `sandbox({ bandwidthMBps: ${bandwidthMBps} }): the bandwidth must be a positive number of megabytes a second`,
    );
  }
  return { ...(latencyMs === undefined ? {} : { latencyMs }), ...(bandwidthMBps === undefined ? {} : { bandwidthMBps }) };
}

/** The sandbox command's flags for `network`. */
function networkArgs(network: { latencyMs?: number; bandwidthMBps?: number }): string[] {
  return [
    ...(network.latencyMs === undefined ? [] : ["--latency", String(network.latencyMs)]),
    ...(network.bandwidthMBps === undefined ? [] : ["--bandwidth", String(network.bandwidthMBps)]),
  ];
}

const KEYS = DEMO_KEYS;

/** The Deno Jupyter kernel's process id, when this code runs in one. */
function kernelPid(): number | undefined {
  try {
    const deno = (globalThis as { Deno?: { jupyter?: unknown; pid: number } }).Deno;
    return deno?.jupyter !== undefined ? deno.pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stops the sandbox `pid` once the kernel `kernel` is gone (shut down, restarted, crashed or
 * killed): a small detached shell polls the kernel each second. The sandbox itself is detached
 * so that a kernel's output pipe closing cannot kill it mid-answer.
 */
function stopWithKernel(kernel: number, pid: number): void {
  const script = `while kill -0 ${kernel} 2>/dev/null; do sleep 1; done; kill -TERM ${pid} 2>/dev/null`;
  spawn("/bin/sh", ["-c", script], { detached: true, stdio: "ignore" }).unref();
}

async function alive(baseUrl: string): Promise<boolean> {
  try {
    const r = await fetch(`${baseUrl}/openapi.json`, { signal: AbortSignal.timeout(2000) });
    await r.body?.cancel();
    return r.ok;
  } catch {
    return false;
  }
}

function stopper(pid: number | undefined): () => void {
  return () => {
    if (pid === undefined) return;
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
}

/**
 * The local sandbox's address and demo keys, starting it when it is not running. Called
 * without options under a notebook runner that set MARKETDATA_SANDBOX_URL, it is that
 * sandbox (the runner owns it: `stop()` leaves it running). A sandbox this call starts from a
 * notebook kernel stops when that kernel dies (shutdown, restart, crash). `latencyMs` and
 * `bandwidthMBps` make it imitate a user's network; a running sandbox is reused only when it
 * imitates the same one. Throws SandboxSettingError for a setting out of range, before starting
 * anything. In the installed package, the first start of a profile generates its market into
 * the per-user cache folder (see `sandboxHome`), once for all the user's projects.
 *
 * @example
 * ```ts
 * const local = await sandbox();            // demo market; the first start generates it
 * const wb = await connect({ baseUrl: local.baseUrl, apiKey: local.keys.fullAccess });
 * // A sandbox answering as a remote service would: 40 ms to the first byte, 20 MB/s a connection.
 * const remote = await sandbox({ latencyMs: 40, bandwidthMBps: 20 });
 * ```
 */
export async function sandbox(options: SandboxOptions = {}): Promise<LocalSandbox> {
  // A notebook run by `npm run recipe -- <name> --profile tiny` (or --data) meets the runner's
  // sandbox on that market: the runner names it in MARKETDATA_SANDBOX_URL.
  const assigned = process.env.MARKETDATA_SANDBOX_URL;
  if (assigned && Object.keys(options).length === 0) {
    if (!(await alive(assigned))) {
      throw new Error(`MARKETDATA_SANDBOX_URL names ${assigned}, where no sandbox answers: unset it to start the local demo sandbox`);
    }
    return { baseUrl: assigned, keys: KEYS, stop: () => {} };
  }
  const profile = options.profile ?? "demo";
  if (profile !== "demo" && profile !== "tiny") {
    throw new SandboxSettingError(`sandbox({ profile: ${JSON.stringify(profile)} }): the profile must be "demo" or "tiny"`);
  }
  const network = checkNetwork(options);
  const home = sandboxHome(options.home);
  const dataDir = options.dataDir === undefined ? join(home.markets, profile) : resolve(options.dataDir);
  const record = join(home.runs, `sandbox-${profile}.json`);
  if (!options.args && existsSync(record)) {
    const previous = JSON.parse(readFileSync(record, "utf8")) as SandboxRecord;
    // A sandbox imitating another network is not the one asked for.
    if (
      previous.dataDir === dataDir && JSON.stringify(previous.network ?? {}) === JSON.stringify(network) && (await alive(previous.baseUrl))
    ) {
      return { baseUrl: previous.baseUrl, keys: KEYS, pid: previous.pid, stop: stopper(previous.pid) };
    }
  }
  // The sandbox writes to a log file, not a pipe: it outlives this process (a notebook kernel
  // may restart), and a closed pipe would kill it on its next line of output.
  mkdirSync(home.runs, { recursive: true });
  pruneSandboxLogs(home.runs, profile, LOGS_KEPT - 1);
  const logFile = join(home.runs, `sandbox-${profile}-${Date.now()}.log`);
  const args = ["--port", "0", "--profile", profile, "--data", dataDir, ...networkArgs(network), ...(options.args ?? [])];
  const child = await spawnSandbox(args, { logFile, readyTimeoutMs: (options.timeoutSeconds ?? 300) * 1000 });
  const baseUrl = child.baseUrl;
  // Started from a notebook kernel: it must not outlive that kernel.
  const kernel = kernelPid();
  if (kernel !== undefined && process.platform !== "win32") stopWithKernel(kernel, child.pid);
  if (!options.args) {
    mkdirSync(dirname(record), { recursive: true });
    writeFileSync(record, JSON.stringify({ baseUrl, pid: child.pid, dataDir, network } satisfies SandboxRecord));
  }
  return { baseUrl, keys: KEYS, pid: child.pid, stop: stopper(child.pid) };
}

/** Log files of one profile's sandboxes kept in the home's `runs` folder (the newest; each start writes one). */
const LOGS_KEPT = 5;

/**
 * Removes all but the `keep` newest `sandbox-<profile>-<time>.log` files of `dir`: a sandbox
 * writes a log file per start, and kernel restarts would otherwise pile them up for good. A
 * log another process still writes to is kept by the system until it closes it.
 *
 * @internal
 * @example
 * ```ts
 * pruneSandboxLogs(".cache", "demo", 4);
 * ```
 */
export function pruneSandboxLogs(dir: string, profile: string, keep: number): string[] {
  const pattern = new RegExp(`^sandbox-${profile}-(\\d+)\\.log$`);
  const logs = readdirSync(dir).flatMap((name) => {
    const m = pattern.exec(name);
    return m ? [{ name, at: Number(m[1]) }] : [];
  }).sort((a, b) => b.at - a.at);
  const removed = logs.slice(Math.max(0, keep)).map((l) => l.name);
  for (const name of removed) rmSync(join(dir, name), { force: true });
  return removed;
}
