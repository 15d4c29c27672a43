/**
 * Runs the sandbox CLI as a child process and waits for its `ready <base_url>` line: the one
 * way tests and benchmarks start a sandbox of their own. It runs the native Deno binary, never
 * npm's `node_modules/.bin/deno` launcher, because signalling the launcher would leave the
 * server it started running. `--unstable-net` lets the workers share one port (server.ts);
 * the V8 flag is SANDBOX_V8_FLAGS (see there).
 *
 * @example
 * ```ts
 * const sb = await spawnSandbox(["--port", "0", "--data", "data/tiny", "--state", "/tmp/s.sqlite"]);
 * await fetch(`${sb.baseUrl}/openapi.json`);
 * await sb.stop();
 * ```
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface SpawnedSandbox {
  baseUrl: string;
  /** The process id (for measuring its CPU time). */
  pid: number;
  /** What the process wrote to stdout up to `ready` (demo keys, settings lines). */
  stdout: string;
  /** What the process wrote to stderr so far (the access log with --log). */
  stderr: () => string;
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop: () => Promise<void>;
  /** Sends `signal` (e.g. SIGKILL, to test a crash) and waits for the process to exit. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

function denoBinary(): string {
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  if (deno) return deno.execPath();
  const native = join(REPO_ROOT, "node_modules", "deno", "deno");
  return existsSync(native) ? native : join(REPO_ROOT, "node_modules", ".bin", "deno");
}

/**
 * The V8 flag the sandbox runs with: memory Polars holds outside the JavaScript heap (frames,
 * written pages; the engine reports it to V8) counts within the heap's growing limits instead
 * of against a fixed allowance, past which every 64 MB started a full garbage collection,
 * several a second under load, each marking the whole heap. Measured on first pages of 8
 * tickers (one worker, 4 s, loaded machine): 9 full collections instead of 22-25, 1.6-2.3x the
 * pages. A flag V8 reads at start, so it goes on the command line (`npm run sandbox` too).
 */
export const SANDBOX_V8_FLAGS = "--v8-flags=--external-memory-accounted-in-global-limit";

/** Starts `sandbox/service/cli.ts` with `args`; rejects with its stderr if it exits or stalls first. */
export async function spawnSandbox(args: readonly string[], options: { env?: Record<string, string>; readyTimeoutMs?: number } = {}): Promise<SpawnedSandbox> {
  const child = spawn(denoBinary(), ["run", "-A", "--unstable-net", SANDBOX_V8_FLAGS, join(REPO_ROOT, "sandbox/service/cli.ts"), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: "1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const timeoutMs = options.readyTimeoutMs ?? 60_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stdout = "";
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      stdout += d;
      const ready = /^ready (\S+)$/m.exec(stdout);
      if (ready) resolve(ready[1]);
    });
    child.on("exit", (code) => reject(new Error(`The sandbox exited with ${code} before it was ready:\n${stderr}`)));
    timer = setTimeout(() => reject(new Error(`The sandbox was not ready after ${timeoutMs / 1000} s:\n${stderr}`)), timeoutMs);
  }).finally(() => clearTimeout(timer));
  return {
    baseUrl,
    pid: child.pid!,
    stdout,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
