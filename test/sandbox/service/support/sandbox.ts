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
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";

export interface TestSandbox {
  baseUrl: string;
  statePath: string;
  /** GET a path (with query) with an optional API key and extra headers. */
  get: (path: string, key?: string, headers?: Record<string, string>) => Promise<Response>;
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop: () => Promise<void>;
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
}

// The native binary, not the npm launcher in .bin: killing the launcher would leave the
// sandbox it started running after the test.
const NATIVE_DENO = join(process.cwd(), "node_modules/deno/deno");
const DENO = existsSync(NATIVE_DENO) ? NATIVE_DENO : join(process.cwd(), "node_modules/.bin/deno");

export async function startSandbox(options: StartOptions = {}): Promise<TestSandbox> {
  const scratch = options.statePath ? undefined : mkdtempSync(join(tmpdir(), "sandbox-state-"));
  const statePath = options.statePath ?? join(scratch!, "state.sqlite");
  const child: ChildProcess = spawn(
    DENO,
    ["run", "-A", "sandbox/service/cli.ts", "--port", "0", "--data", options.marketDir ?? inject("tinyMarketDir"), "--state", statePath, ...(options.args ?? [])],
    { env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout!.on("data", (d) => {
      stdout += d;
      const m = /^ready (\S+)$/m.exec(stdout);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`sandbox exited with ${code} before it was ready:\n${stderr}`)));
    setTimeout(() => reject(new Error(`sandbox not ready after 30 s:\n${stderr}`)), 30_000);
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    baseUrl,
    statePath,
    get: (path, key, headers = {}) => fetch(`${baseUrl}${path}`, { headers: { ...(key === undefined ? {} : { "X-API-KEY": key }), ...headers } }),
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    },
    stderr: () => stderr,
  };
}
