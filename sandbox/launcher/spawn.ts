/**
 * The one launcher of the sandbox process: `sandbox()`, the `market-workbench sandbox` command,
 * the tests and the benchmarks all start it through `sandboxCommand`, with the sandbox's own V8
 * flags. It runs the sandbox's command (`sandbox/service/cli.ts`, or its built `.js` in the
 * installed package) as a child process and never imports the service's code.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { denoExecutable } from "./deno.ts";
import { CHECKOUT_ROOT, FROM_SOURCES } from "./home.ts";

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

/** The sandbox's environment: this process's, with its V8 flags its own (SANDBOX_V8_FLAGS), not a notebook kernel's DENO_V8_FLAGS. */
function sandboxEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...process.env as Record<string, string>, NO_COLOR: "1", ...extra };
  if (extra.DENO_V8_FLAGS === undefined) delete env.DENO_V8_FLAGS;
  return env;
}

/** How to run the sandbox's command: the executable, its arguments, folder and environment. */
export interface SandboxCommand {
  /** The Deno executable. */
  command: string;
  /** Deno's arguments: `run` with the sandbox's flags, its command's file, then `args`. */
  args: string[];
  /** The folder it runs in: the checkout (its deno.json maps the npm packages) or the installed package's folder. */
  cwd: string;
  /** This process's environment with `env` added and the kernel's DENO_V8_FLAGS dropped. */
  env: Record<string, string>;
}

/**
 * The command line that runs the sandbox with `args` (the sandbox command's own flags, e.g.
 * `--port 0 --data <dir>`): the native Deno binary with `--unstable-net` (the workers share one
 * port) and SANDBOX_V8_FLAGS. From the installed package it runs the built `sandbox/service/cli.js`
 * beside this file, resolving its npm packages from the `node_modules` the package was installed in.
 *
 * @example
 * ```ts
 * import { sandboxCommand } from "market-workbench/sandbox";
 * const { command, args } = sandboxCommand(["--port", "0", "--profile", "tiny"]);
 * console.log([command, ...args].join(" "));
 * ```
 */
export function sandboxCommand(args: readonly string[], options: Pick<SpawnOptions, "env" | "root"> = {}): SandboxCommand {
  const root = options.root ?? (FROM_SOURCES ? CHECKOUT_ROOT : undefined);
  const cli = root === undefined ? fileURLToPath(new URL("../service/cli.js", import.meta.url)) : join(root, "sandbox/service/cli.ts");
  // Installed, it runs in the package's folder and resolves hono, zod and nodejs-polars from
  // node_modules as Node would (a checkout maps them in its deno.json). Deno also finds a
  // deno.json of the user's project above that folder, whose settings would apply:
  // --node-modules-dir=manual keeps the packages coming from node_modules whatever it says.
  const cwd = root ?? fileURLToPath(new URL("../../..", import.meta.url));
  const packaged = root === undefined ? ["--node-modules-dir=manual"] : [];
  return {
    command: denoExecutable(),
    args: ["run", "-A", "--unstable-net", ...packaged, SANDBOX_V8_FLAGS, cli, ...args],
    cwd,
    env: sandboxEnv(options.env),
  };
}

/**
 * Runs the sandbox command (`sandbox/service/cli.ts`) with `args` as a child process and waits
 * for its `ready <base_url>` line: the one launcher of the sandbox, for `sandbox()`, tests and
 * benchmarks (`sandboxCommand` says how). Rejects with the process's output when it exits or stalls first.
 *
 * @example
 * ```ts
 * import { spawnSandbox } from "market-workbench/sandbox";
 * const sb = await spawnSandbox(["--port", "0", "--data", "data/tiny", "--state", "/tmp/s.sqlite"]);
 * await fetch(`${sb.baseUrl}/openapi.json`);
 * await sb.stop();
 * ```
 */
export async function spawnSandbox(args: readonly string[], options: SpawnOptions = {}): Promise<SpawnedSandbox> {
  const log = options.logFile === undefined ? undefined : openSync(options.logFile, "w");
  const run = sandboxCommand(args, options);
  const child = spawn(run.command, run.args, {
    cwd: run.cwd,
    env: run.env,
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
  return {
    baseUrl: ready[1],
    pid: child.pid!,
    stdout: output().slice(0, ready.index + ready[0].length),
    stderr: errors,
    stop: () => signal("SIGTERM"),
    kill: signal,
  };
}
