/**
 * Starts the real sandbox (Deno, Hono, SQLite) as a child process on a free loopback port
 * over the test market, with its own state file, and stops it. Tests talk to it over HTTP.
 *
 * @example
 * ```ts
 * const sb = await startSandbox({ args: ["--unentitled-status", "403"] });
 * const r = await sb.get("/api/v1/account/my", "demo-full-access");
 * await sb.stop();
 * ```
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { spawnSandbox } from "../../../../sandbox/launcher/spawn.ts";
import { ContractCheck } from "./contractCheck.ts";

export interface TestSandbox {
  baseUrl: string;
  /** The process id (its memory and CPU can be read in /proc). */
  pid: number;
  statePath: string;
  /** GET a path (with query) with an optional API key and extra headers. */
  get: (path: string, key?: string, headers?: Record<string, string>) => Promise<Response>;
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop: () => Promise<void>;
  /** Sends a signal (SIGKILL for a crash) and waits for the exit; the state file stays. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
  /** Stdout up to `ready` (demo keys, the settings lines). */
  stdout: string;
  /** Stderr the process wrote so far (access log with --log). */
  stderr: () => string;
}

export interface StartOptions {
  /** Extra CLI arguments (settings such as --faults or --trusted-proxy). */
  args?: string[];
  /** Reuse a state file (for restart tests); a fresh one by default. */
  statePath?: string;
  /** Market folder; the run's tiny market by default. */
  marketDir?: string;
  /** Extra environment variables (such as SANDBOX_FRAME_CACHE_MB). */
  env?: Record<string, string>;
}

export async function startSandbox(options: StartOptions = {}): Promise<TestSandbox> {
  const scratch = options.statePath ? undefined : mkdtempSync(join(tmpdir(), "sandbox-state-"));
  const statePath = options.statePath ?? join(scratch!, "state.sqlite");
  // Minutes, not seconds: on a busy machine starting Deno and indexing the market is slow.
  // One worker unless the test asks for more: each worker is a Deno isolate that loads the app
  // and Polars (about a CPU second), and only the files about several workers need them
  // (workers, writtenResults, memoryBudget, quotas, usageAfterKill ask with --workers).
  const args = options.args ?? [];
  const workers = args.includes("--workers") ? [] : ["--workers", "1"];
  const sb = await spawnSandbox(
    ["--port", "0", "--data", options.marketDir ?? inject("tinyMarketDir"), "--state", statePath, ...workers, ...args],
    { readyTimeoutMs: 120_000, env: options.env },
  );
  const baseUrl = sb.baseUrl;
  // Every answer a test receives is checked against the sandbox's own /openapi.json (see contractCheck.ts).
  const contract = await ContractCheck.load(baseUrl);
  const pending: Promise<void>[] = [];
  return {
    baseUrl,
    pid: sb.pid,
    statePath,
    get: async (path, key, headers = {}) => {
      const response = await fetch(`${baseUrl}${path}`, { headers: { ...(key === undefined ? {} : { "X-API-KEY": key }), ...headers } });
      pending.push(contract.recordAnswer("GET", path, response));
      return response;
    },
    stop: async () => {
      await sb.stop();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      await Promise.all(pending);
      contract.forget(baseUrl);
      const { checked, failures } = contract.report();
      if (failures.length > 0) {
        throw new Error(`${failures.length} of ${checked} answers do not match /openapi.json:\n${failures.slice(0, 20).join("\n")}`);
      }
    },
    kill: sb.kill,
    stdout: sb.stdout,
    stderr: sb.stderr,
  };
}
