import { defineConfig } from "vitest/config";

/**
 * Test files that open the sandbox's app in-process (test/sandbox/service/support/appSandbox.ts).
 * The app keeps its state in `node:sqlite`, which Node 20 lacks and Deno has, so these files
 * are the `app` project, run by vitest under Deno; every other file is the `node` project, run
 * under Node: real HTTP servers and proxies (node:http) behave differently under Deno's Node
 * layer. `npm test` runs both (test/suite.ts).
 */
export const APP_FILES = [
  "test/sandbox/service/errorTable.test.ts",
  "test/sandbox/service/inProcess.test.ts",
  "test/sandbox/service/openapi.test.ts",
  "test/sandbox/service/paging.test.ts",
  "test/sandbox/service/usageCounting.test.ts",
  "test/sandbox/service/queries.test.ts",
  "test/workbench/quotaWarning.test.ts",
  "test/workbench/endpoints.test.ts",
  "test/workbench/frames.test.ts",
  "test/workbench/quotaGuard.test.ts",
  "test/workbench/resilience.test.ts",
  "test/workbench/cache.test.ts",
  "test/workbench/download.test.ts",
  "test/workbench/universe.test.ts",
  "test/workbench/calendar.test.ts",
  "test/workbench/contract.test.ts",
  "test/workbench/errors.test.ts",
  "test/workbench/noSilentAnswers.test.ts",
  "test/workbench/provenance/recorder.test.ts",
  "test/workbench/provenance/failuresAndDownloads.test.ts",
  "test/workbench/provenance/cacheProvenance.test.ts",
  "test/workbench/provenance/frameHash.test.ts",
  "test/workbench/provenance/pageHashes.test.ts",
  "test/workbench/research/leeReadyMarket.test.ts",
  "test/workbench/research/splits.test.ts",
];

export default defineConfig({
  test: {
    globalSetup: ["test/globalSetup.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Native Polars and generated market folders are heavy: share one process per file.
    pool: "forks",
    // A test's console output goes to the runner as messages; keep only that of failed tests,
    // where it helps, rather than feed thousands of warnings through a busy machine.
    silent: "passed-only",
    projects: [
      { extends: true, test: { name: "node", include: ["test/**/*.test.ts"], exclude: APP_FILES } },
      // A fork per file, as in the node project: one Deno process for every file (singleFork)
      // was tried and died of a native lock assertion in Polars' or SQLite's code after long
      // runs, taking every later file with it.
      { extends: true, test: { name: "app", include: APP_FILES, setupFiles: ["test/appRuntime.ts"] } },
    ],
  },
});
