/**
 * One sandbox for a test file's notebook runs, on the run's tiny market: they reach it with
 * `--base-url` instead of each starting a private sandbox of its own (a Deno process indexing
 * the market, per run). Started by the first run that asks for it (the spawned test sandbox of
 * test/sandbox/service/support/sandbox.ts: one worker, its own state file).
 *
 * @example
 * ```ts
 * const sb = fileSandbox();
 * afterAll(() => sb.stop());
 * await recipe(FIXTURE, "--base-url", await sb.baseUrl());
 * ```
 */
import { startSandbox, type TestSandbox } from "../../sandbox/service/support/sandbox.ts";

/** The file's sandbox: its address (starting it on first use) and how to stop it. */
export interface FileSandbox {
  baseUrl: () => Promise<string>;
  /** Stops the sandbox if it was started. */
  stop: () => Promise<void>;
}

export function fileSandbox(): FileSandbox {
  let starting: Promise<TestSandbox> | undefined;
  return {
    baseUrl: async () => (await (starting ??= startSandbox())).baseUrl,
    stop: async () => {
      if (starting) await (await starting).stop();
    },
  };
}
