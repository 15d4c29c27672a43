/**
 * Generates the run's two tiny markets at once, each in a child process of the market CLI,
 * into a fresh temporary folder: the test market (seed 42, `inject("tinyMarketDir")`) and one
 * of another seed (`inject("otherMarketDir")`, for the tests that need the data to differ).
 * What the CLI printed for the test market is handed on too (`inject("tinyMarketRun")`, for
 * the CLI's own test). Stops at once, saying how to run the suite, when this
 * Node lacks `node:sqlite` (the in-process sandbox's state needs it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { generateTinyMarket, type MarketRun } from "./sandbox/market/support/marketCli.ts";

export const TEST_SEED = 42;

export default async function setup(project: TestProject) {
  await import("node:sqlite").catch(() => {
    throw new Error(`The tests open the sandbox in-process, whose state needs node:sqlite, which Node ${process.version} lacks: run \`npm test\` (it runs vitest under the Node 22 that npm installs), or set TEST_NODE and run \`node scripts/test.mjs\``);
  });
  const root = mkdtempSync(join(tmpdir(), "market-test-"));
  const tiny = join(root, "tiny"), other = join(root, "other");
  // On one worker thread each: the two generations share the machine's cores between them.
  const [run] = await Promise.all([generateTinyMarket(TEST_SEED, tiny, 1), generateTinyMarket(TEST_SEED + 1, other, 1)]);
  project.provide("tinyMarketDir", tiny);
  project.provide("tinyMarketRun", run);
  project.provide("otherMarketDir", other);
  return () => rmSync(root, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    tinyMarketDir: string;
    otherMarketDir: string;
    tinyMarketRun: MarketRun;
  }
}
