// `npm test`'s last step: vitest under the Node that has `node:sqlite` (scripts/paths.mjs,
// testNodePath), so most tests can answer from the sandbox's app in-process; on a Node without
// it, test/globalSetup.ts stops at once and says how to get one. Arguments go to vitest
// (`npm test -- test/workbench`).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { repoRoot, testNodePath } from "./paths.mjs";
import process from "node:process";

const node = testNodePath();
const vitest = join(repoRoot, "node_modules", "vitest", "vitest.mjs");
const result = spawnSync(node, [vitest, "run", ...process.argv.slice(2)], {
  cwd: repoRoot,
  stdio: "inherit",
  env: {
    ...process.env,
    // node:sqlite announces itself as experimental in every worker; it is a chosen dependency.
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --disable-warning=ExperimentalWarning`.trim(),
    // Test files already run side by side on every core, each with its sandboxes and kernels:
    // a Polars thread pool per process would only contend for the same cores.
    POLARS_MAX_THREADS: process.env.POLARS_MAX_THREADS ?? "1",
    // vitest's processes and the Node scripts the tests start load the same packages
    // (vitest, playwright-core, zod, jsdom): compiled once, their code is read back after.
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(repoRoot, ".cache", "node-compile"),
  },
});
process.exit(result.status ?? 1);
