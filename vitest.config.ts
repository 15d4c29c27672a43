import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/globalSetup.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Native Polars and generated market folders are heavy: share one process per file.
    pool: "forks",
    // A test's console output goes to the runner as messages; keep only that of failed tests,
    // where it helps, rather than feed thousands of warnings through a busy machine.
    silent: "passed-only",
  },
});
