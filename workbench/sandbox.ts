/**
 * Starts the local sandbox service, or reuses the one already running for this checkout, and
 * says where it is and which demo keys it knows. Works from Deno (notebooks) and Node.
 * `spawnSandbox` is the one way a sandbox process is started: `sandbox()` uses it, and so do
 * the tests and benchmarks (the workbench never imports the sandbox's code, only runs it).
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_KEYS } from "../contract/demoKeys.ts";
import { QueryError } from "./errors/base.ts";
import { envVar } from "./runtime/env.ts";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

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
  /** Market folder (default data/<profile>). */
  dataDir?: string;
  /** Extra arguments for `npm run sandbox` (settings such as --faults). Never reused when given. */
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
    throw new QueryError(`sandbox({ latencyMs: ${latencyMs} }): the latency must be a number of milliseconds from 0 to 60000`);
  }
  if (bandwidthMBps !== undefined && !(Number.isFinite(bandwidthMBps) && bandwidthMBps > 0)) {
    throw new QueryError(`sandbox({ bandwidthMBps: ${bandwidthMBps} }): the bandwidth must be a positive number of megabytes a second`);
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

/**
 * The V8 flags the sandbox runs with. Memory Polars holds outside the JavaScript heap (frames,
 * written pages; the engine reports it to V8) counts within the heap's growing limits instead
 * of against a fixed allowance, past which every 64 MB started a full garbage collection,
 * several a second under load, each marking the whole heap. And `gc` is exposed, so each worker
 * asks for a cheap young-generation collection as the frames it let go add up (the sandbox's
 * query/frameCollector.ts), instead of holding them until V8's heap grows; its young generation
 * is kept to 2 MB a half, so V8's own scavenges come sooner too (the sandbox's JavaScript
 * allocates little: a larger one only held more frames). Flags V8 reads at start, so they go on
 * the command line (`npm run sandbox` too).
 */
export const SANDBOX_V8_FLAGS = "--v8-flags=--external-memory-accounted-in-global-limit,--expose-gc,--max-semi-space-size=2";

/** A sandbox process started by `spawnSandbox`. */
export interface SpawnedSandbox {
  /** Where it answers, from its `ready <base_url>` line. */
  baseUrl: string;
  /** The process id (for measuring its CPU time, or stopping it from elsewhere). */
  pid: number;
  /** What the process wrote to stdout up to `ready` (demo keys, settings lines). */
  stdout: string;
  /** What the process wrote to stderr so far (the access log with --log); with `logFile`, the whole log. */
  stderr: () => string;
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop: () => Promise<void>;
  /** Sends `signal` (e.g. SIGKILL, to test a crash) and waits for the process to exit. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

/** How `spawnSandbox` runs the sandbox process. */
export interface SpawnOptions {
  /** Environment variables added to this process's (e.g. SANDBOX_FRAME_CACHE_MB). */
  env?: Record<string, string>;
  /** Milliseconds to wait for `ready` (default 60,000), which may include generating the market. */
  readyTimeoutMs?: number;
  /**
   * Write the process's output to this file and detach it, so that it outlives this process (a
   * notebook kernel may restart, and a closed pipe would kill it on its next line). Without it
   * the output is piped to this process.
   */
  logFile?: string;
  /** The checkout whose sandbox runs (default: this one); another lets a benchmark compare two commits. */
  root?: string;
}

function denoExecutable(): string {
  const g = globalThis as { Deno?: { execPath(): string } };
  if (g.Deno) return g.Deno.execPath();
  // The native binary, not the npm launcher: stopping the launcher would not stop the sandbox.
  const native = join(REPO_ROOT, "node_modules", "deno", "deno");
  return existsSync(native) ? native : join(REPO_ROOT, "node_modules", ".bin", "deno");
}

/** The sandbox's environment: this process's, with its V8 flags its own (SANDBOX_V8_FLAGS), not a notebook kernel's DENO_V8_FLAGS. */
function sandboxEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...process.env as Record<string, string>, NO_COLOR: "1", ...extra };
  if (extra.DENO_V8_FLAGS === undefined) delete env.DENO_V8_FLAGS;
  return env;
}

/**
 * Runs the sandbox command (`sandbox/service/cli.ts`) with `args` as a child process and waits
 * for its `ready <base_url>` line: the one launcher of the sandbox, for `sandbox()`, tests and
 * benchmarks. It runs the native Deno binary, with `--unstable-net` (the workers share one port)
 * and SANDBOX_V8_FLAGS. Rejects with the process's output when it exits or stalls first.
 *
 * @example
 * ```ts
 * const sb = await spawnSandbox(["--port", "0", "--data", "data/tiny", "--state", "/tmp/s.sqlite"]);
 * await fetch(`${sb.baseUrl}/openapi.json`);
 * await sb.stop();
 * ```
 */
export async function spawnSandbox(args: readonly string[], options: SpawnOptions = {}): Promise<SpawnedSandbox> {
  const log = options.logFile === undefined ? undefined : openSync(options.logFile, "w");
  const root = options.root ?? REPO_ROOT;
  const child = spawn(denoExecutable(), ["run", "-A", "--unstable-net", SANDBOX_V8_FLAGS, join(root, "sandbox/service/cli.ts"), ...args], {
    cwd: root,
    env: sandboxEnv(options.env),
    detached: log !== undefined,
    stdio: log === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", log, log],
  });
  if (log !== undefined) {
    closeSync(log);
    child.unref();
  }
  let [stdout, stderr] = ["", ""];
  child.stdout?.on("data", (d) => (stdout += d));
  child.stderr?.on("data", (d) => (stderr += d));
  const output = () => (options.logFile === undefined ? stdout : readFileSync(options.logFile, "utf8"));
  const errors = () => (options.logFile === undefined ? stderr : readFileSync(options.logFile, "utf8"));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let exitCode: number | string | null | undefined;
  child.on("exit", (code, signal) => (exitCode = code ?? signal));
  const timeoutMs = options.readyTimeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  let ready: RegExpExecArray | null = null;
  // Polled rather than evented: a log file has no events, and a tenth of a second is nothing beside a start.
  while (!(ready = /^ready (\S+)$/m.exec(output()))) {
    if (exitCode !== undefined) throw new Error(`The sandbox exited with ${exitCode} before it was ready:\n${errors()}`);
    if (Date.now() > deadline) {
      // A detached sandbox may be generating its market: left to finish it for the next start.
      if (log === undefined) child.kill("SIGTERM");
      throw new Error(`The sandbox was not ready after ${timeoutMs / 1000} s:\n${errors()}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return { baseUrl: ready[1], pid: child.pid!, stdout: output().slice(0, ready.index + ready[0].length), stderr: errors, stop: () => signal("SIGTERM"), kill: signal };
}

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
 * imitates the same one. Throws QueryError for a setting out of range, before starting anything.
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
  const assigned = envVar("MARKETDATA_SANDBOX_URL");
  if (assigned && Object.keys(options).length === 0) {
    if (!(await alive(assigned))) throw new Error(`MARKETDATA_SANDBOX_URL names ${assigned}, where no sandbox answers: unset it to start the local demo sandbox`);
    return { baseUrl: assigned, keys: KEYS, stop: () => {} };
  }
  const profile = options.profile ?? "demo";
  const dataDir = options.dataDir ?? join(REPO_ROOT, "data", profile);
  const record = join(REPO_ROOT, ".cache", `sandbox-${profile}.json`);
  const network = checkNetwork(options);
  if (!options.args && existsSync(record)) {
    const previous = JSON.parse(readFileSync(record, "utf8")) as SandboxRecord;
    // A sandbox imitating another network is not the one asked for.
    if (previous.dataDir === dataDir && JSON.stringify(previous.network ?? {}) === JSON.stringify(network) && (await alive(previous.baseUrl))) {
      return { baseUrl: previous.baseUrl, keys: KEYS, pid: previous.pid, stop: stopper(previous.pid) };
    }
  }
  // The sandbox writes to a log file, not a pipe: it outlives this process (a notebook kernel
  // may restart), and a closed pipe would kill it on its next line of output.
  mkdirSync(join(REPO_ROOT, ".cache"), { recursive: true });
  pruneSandboxLogs(join(REPO_ROOT, ".cache"), profile, LOGS_KEPT - 1);
  const logFile = join(REPO_ROOT, ".cache", `sandbox-${profile}-${Date.now()}.log`);
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

/** Log files of one profile's sandboxes kept in `.cache` (the newest; each start writes one). */
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
