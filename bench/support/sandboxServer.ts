/**
 * Runs the sandbox CLI as a child process (its own event loop and Polars threads, as a user
 * runs it) over a market with a fresh state file.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSandbox } from "../../sandbox/launcher/spawn.ts";

export interface BenchSandbox {
  baseUrl: string;
  /** The CLI's process id (e.g. to pin it to a core with taskset). */
  pid: number;
  /** Workers serving, from the start-up line. */
  workers: number;
  /** CPU seconds the process has used so far (all its threads: workers, Polars, HTTP). */
  cpuSeconds: () => number;
  stop: () => Promise<void>;
}

/**
 * Starts the CLI over `marketDir`; `env` adds environment variables (e.g. SANDBOX_FRAME_CACHE_MB),
 * `args` CLI options (e.g. --workers 1), `root` another checkout whose sandbox runs (an A/B of two commits).
 */
export async function startSandboxProcess(
  marketDir: string,
  env: Record<string, string> = {},
  args: string[] = [],
  root?: string,
): Promise<BenchSandbox> {
  const scratch = mkdtempSync(join(tmpdir(), "bench-sandbox-"));
  const sb = await spawnSandbox(["--port", "0", "--data", marketDir, "--state", join(scratch, "state.sqlite"), ...args], { env, root });
  return {
    baseUrl: sb.baseUrl,
    pid: sb.pid,
    workers: Number(/^workers: (\d+)/m.exec(sb.stdout)?.[1] ?? "1"),
    cpuSeconds: () => {
      // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks (100 a second).
      const fields = readFileSync(`/proc/${sb.pid}/stat`, "utf8").split(") ")[1].split(" ");
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    stop: async () => {
      await sb.stop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
