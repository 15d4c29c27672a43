/**
 * One sandbox for a test file's notebook runs: they reach it with `--base-url` instead of each
 * starting a private sandbox of its own (a Deno process indexing the market, per run). It
 * serves on one worker thread, enough for one notebook at a time.
 *
 * @example
 * ```ts
 * const sb = await fileSandbox(inject("tinyMarketDir"));
 * await recipe(FIXTURE, "--base-url", sb.baseUrl);
 * await sb.stop();
 * ```
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSandbox } from "../../../workbench/sandbox.ts";

/** A running sandbox and how to stop it. */
export interface FileSandbox {
  baseUrl: string;
  /** Stops the process, waits for it to exit and removes its state. */
  stop: () => Promise<void>;
}

/** Starts a sandbox on `marketDir` with a fresh state file. */
export async function fileSandbox(marketDir: string): Promise<FileSandbox> {
  const scratch = mkdtempSync(join(tmpdir(), "file-sandbox-"));
  // Minutes, not seconds: on a busy machine starting Deno and indexing the market is slow.
  const sb = await spawnSandbox(["--port", "0", "--data", marketDir, "--state", join(scratch, "state.sqlite"), "--workers", "1"], { readyTimeoutMs: 120_000 });
  return {
    baseUrl: sb.baseUrl,
    stop: async () => {
      await sb.stop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
