/**
 * Runs `npm run market` (sandbox/market/cli.ts) in a child process and waits for it without
 * blocking the test process. A market generated in the test process itself, or through a
 * synchronous spawn, blocks its event loop for tens of seconds (minutes on a busy machine);
 * vitest's worker then cannot answer the runner within its RPC timeout (60 s), and the run
 * ends with an unhandled `Timeout calling "onTaskUpdate"` although every test passed.
 *
 * @example
 * ```ts
 * const r = await marketCli("--profile", "tiny", "--seed", "43", "--out", dir);
 * expect(r.status, r.stderr).toBe(0);
 * ```
 */
import { execFile } from "node:child_process";
import { denoPath } from "../../../../scripts/paths.mjs";
import process from "node:process";

export interface MarketRun {
  /** The CLI's arguments. */
  args: string[];
  /** Exit code. */
  status: number;
  stdout: string;
  stderr: string;
}

const DENO = denoPath();

/** Runs the market CLI with `args`; resolves with its exit code and output (never rejects on a non-zero exit). */
export function marketCli(...args: string[]): Promise<MarketRun> {
  return new Promise((resolve, reject) => {
    execFile(DENO, ["run", "-A", "sandbox/market/cli.ts", ...args], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
      maxBuffer: 64 * 2 ** 20,
    }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") reject(error);
      else resolve({ args, status: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/**
 * Generates the tiny market with `seed` into `outDir` (on `workers` threads, the CLI's default
 * when left out) and resolves with what the CLI printed; rejects with its stderr when it fails.
 */
export async function generateTinyMarket(seed: number, outDir: string, workers?: number): Promise<MarketRun> {
  const r = await marketCli(
    "--profile",
    "tiny",
    "--seed",
    String(seed),
    "--out",
    outDir,
    ...(workers === undefined ? [] : ["--workers", String(workers)]),
  );
  if (r.status !== 0) throw new Error(`npm run market -- --profile tiny --seed ${seed} failed (exit ${r.status}):\n${r.stderr}`);
  return r;
}
