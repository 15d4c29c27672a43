/**
 * Runs the sandbox CLI as a child process (its own event loop and Polars threads, as a user
 * runs it) over a market with a fresh state file, and stops it by its process id.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "./paths.ts";

export interface BenchSandbox {
  baseUrl: string;
  stop: () => Promise<void>;
}

/** Starts the CLI over `marketDir`; `env` adds environment variables (e.g. SANDBOX_FRAME_CACHE_MB). */
export async function startSandboxProcess(marketDir: string, env: Record<string, string> = {}): Promise<BenchSandbox> {
  const scratch = mkdtempSync(join(tmpdir(), "bench-sandbox-"));
  const child: ChildProcess = spawn(
    process.execPath,
    ["run", "-A", "sandbox/service/cli.ts", "--port", "0", "--data", marketDir, "--state", join(scratch, "state.sqlite")],
    { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout!.on("data", (d) => {
      stdout += d;
      const m = /^ready (\S+)$/m.exec(stdout);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`sandbox exited with ${code} before it was ready:\n${stderr}`)));
    timer = setTimeout(() => reject(new Error(`sandbox not ready after 60 s:\n${stderr}`)), 60_000);
  }).finally(() => clearTimeout(timer));
  return {
    baseUrl,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
