/**
 * Starts the local sandbox service, or reuses the one already running for this checkout, and
 * says where it is and which demo keys it knows. Works from Deno (notebooks) and Node.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_KEYS } from "../contract/demoKeys.ts";
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
}

const KEYS = DEMO_KEYS;

function denoExecutable(): string {
  const g = globalThis as { Deno?: { execPath(): string } };
  if (g.Deno) return g.Deno.execPath();
  // The native binary, not the npm launcher: stopping the launcher would not stop the sandbox.
  const native = join(REPO_ROOT, "node_modules", "deno", "deno");
  return existsSync(native) ? native : join(REPO_ROOT, "node_modules", ".bin", "deno");
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
 * notebook kernel stops when that kernel dies (shutdown, restart, crash).
 *
 * @example
 * ```ts
 * const local = await sandbox();            // demo market; the first start generates it
 * const wb = await connect({ baseUrl: local.baseUrl, apiKey: local.keys.fullAccess });
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
  if (!options.args && existsSync(record)) {
    const previous = JSON.parse(readFileSync(record, "utf8")) as { baseUrl: string; pid: number; dataDir: string };
    if (previous.dataDir === dataDir && (await alive(previous.baseUrl))) {
      return { baseUrl: previous.baseUrl, keys: KEYS, pid: previous.pid, stop: stopper(previous.pid) };
    }
  }
  // The sandbox writes to a log file, not a pipe: it outlives this process (a notebook kernel
  // may restart), and a closed pipe would kill it on its next line of output.
  mkdirSync(join(REPO_ROOT, ".cache"), { recursive: true });
  const logPath = join(REPO_ROOT, ".cache", `sandbox-${profile}-${Date.now()}.log`);
  const log = openSync(logPath, "w");
  // The same flags as `npm run sandbox`: workers share the port (--unstable-net), and V8 counts
  // Polars' memory in its own budget instead of collecting fully every 64 MB (README, service).
  const flags = ["--unstable-net", "--v8-flags=--external-memory-accounted-in-global-limit"];
  const child = spawn(denoExecutable(), ["run", "-A", ...flags, join(REPO_ROOT, "sandbox/service/cli.ts"), "--port", "0", "--profile", profile, "--data", dataDir, ...(options.args ?? [])], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, NO_COLOR: "1" },
  });
  closeSync(log);
  let exitCode: number | null = null;
  child.on("exit", (code) => (exitCode = code ?? -1));
  child.unref();
  const deadline = Date.now() + (options.timeoutSeconds ?? 300) * 1000;
  let baseUrl: string | undefined;
  while (baseUrl === undefined) {
    const text = readFileSync(logPath, "utf8");
    baseUrl = /^ready (\S+)$/m.exec(text)?.[1];
    if (baseUrl) break;
    if (exitCode !== null) throw new Error(`The sandbox exited (${exitCode}) before it was ready:\n${text}`);
    if (Date.now() > deadline) throw new Error(`The sandbox did not start within ${options.timeoutSeconds ?? 300} s:\n${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Started from a notebook kernel: it must not outlive that kernel.
  const kernel = kernelPid();
  if (kernel !== undefined && child.pid !== undefined && process.platform !== "win32") stopWithKernel(kernel, child.pid);
  if (!options.args) {
    mkdirSync(dirname(record), { recursive: true });
    writeFileSync(record, JSON.stringify({ baseUrl, pid: child.pid, dataDir }));
  }
  return { baseUrl, keys: KEYS, pid: child.pid, stop: stopper(child.pid) };
}
