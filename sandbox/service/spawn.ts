/**
 * Runs the sandbox CLI as a child process and waits for its `ready <base_url>` line: the one
 * way tests and benchmarks start a sandbox of their own. It runs the native Deno binary, never
 * npm's `node_modules/.bin/deno` launcher, because signalling the launcher would leave the
 * server it started running. `--unstable-net` lets the workers share one port (server.ts).
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

/** Starts `sandbox/service/cli.ts` with `args`; rejects with its stderr if it exits or stalls first. */
export async function spawnSandbox(args: readonly string[], options: { env?: Record<string, string>; readyTimeoutMs?: number } = {}): Promise<SpawnedSandbox> {
  const child = spawn(denoBinary(), ["run", "-A", "--unstable-net", join(REPO_ROOT, "sandbox/service/cli.ts"), ...args], {
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
