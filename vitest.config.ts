import { defineConfig } from "vitest/config";
import LongestFirst from "./test/sequencer.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/globalSetup.ts"],
    // Idle unless TEST_CPU_LOG is set: each file's CPU seconds for `node scripts/testCpu.mjs`.
    setupFiles: ["test/cpuProbe.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Native Polars and generated market folders are heavy: test files run in a few long-lived
    // processes. Not isolated: a process runs file after file with its modules loaded once
    // (Polars, Hono, the sandbox's app, compiled contract schemas) instead of a fresh process
    // importing them again per file; tests keep their state in what they open, not in modules.
    pool: "forks",
    isolate: false,
    // vitest's default on 2 cores is one file at a time, yet many files spend much of their time
    // waiting on processes they start (sandboxes, kernels, a browser). Two at once: with three,
    // beside two busy loops, a worker's event loop was once held past vitest's fixed 60 s RPC
    // timeout ("Timeout calling onTaskUpdate"), failing a run whose tests all passed.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // Longest files first, also on a fresh clone (test/sequencer.ts), so no worker idles at the end.
    sequence: { sequencer: LongestFirst },
    // A test's console output goes to the runner as messages; keep only that of failed tests,
    // where it helps, rather than feed thousands of warnings through a busy machine.
    silent: "passed-only",
  },
});
