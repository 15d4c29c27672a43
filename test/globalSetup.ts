/**
 * Generates the run's two tiny markets at once into a fresh temporary folder: the test market
 * (seed 42, `inject("tinyMarketDir")`) in this process, by the in-thread generator under Node,
 * and one of another seed (`inject("otherMarketDir")`, for the tests that need the data to
 * differ) meanwhile in a child process of the market CLI under Deno on two worker threads, whose output is handed on
 * too (`inject("otherMarketRun")`, for the CLI's own test). No test worker runs yet, so
 * blocking this process costs nothing. Stops at once, saying how to run the suite, when this
 * Node lacks `node:sqlite` (the in-process sandbox's state needs it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { generateMarket } from "../sandbox/market/generate.ts";
import { profileByName } from "../sandbox/market/profiles.ts";
import { generateTinyMarket, type MarketRun } from "./sandbox/market/support/marketCli.ts";
import process from "node:process";

export const TEST_SEED = 42;

export default async function setup(project: TestProject) {
  await import("node:sqlite").catch(() => {
    throw new Error(
      `The tests open the sandbox in-process, whose state needs node:sqlite, which Node ${process.version} lacks: run \`npm test\` (it runs vitest under the Node 22 that npm installs), or set TEST_NODE and run \`node scripts/test.mjs\``,
    );
  });
  const root = mkdtempSync(join(tmpdir(), "market-test-"));
  // The workbench's local secret (the cache's HMAC key) of this run, not the user's own: the
  // test workers and the processes they start inherit it.
  process.env.XDG_CONFIG_HOME = join(root, "config");
  const tiny = join(root, "tiny"), other = join(root, "other");
  // The CLI on two worker threads, started first, and the generator here: the CLI's run is also
  // the suite's one check that generation on worker threads writes what the in-thread generator
  // writes (test/sandbox/market/golden.test.ts: seed 43's recorded digest is the in-thread one).
  const cli = generateTinyMarket(TEST_SEED + 1, other, 2);
  try {
    generateMarket({ profile: profileByName("tiny"), seed: TEST_SEED, outDir: tiny });
  } finally {
    project.provide("otherMarketRun", await cli);
  }
  project.provide("tinyMarketDir", tiny);
  project.provide("otherMarketDir", other);
  return () => rmSync(root, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    tinyMarketDir: string;
    otherMarketDir: string;
    otherMarketRun: MarketRun;
  }
}
