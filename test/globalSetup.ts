/**
 * Generates the `tiny` market once per test run, into a fresh temporary folder, and hands
 * its path to every test file (`inject("tinyMarketDir")`). When TEST_MARKET_DIR names one
 * already generated, that one is used and left in place. Stops at once, saying how to run the
 * suite, when this Node lacks `node:sqlite` (the in-process sandbox's state needs it).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { generateMarket } from "../sandbox/market/generate.ts";
import { profileByName } from "../sandbox/market/profiles.ts";

export const TEST_SEED = 42;

export default async function setup(project: TestProject) {
  await import("node:sqlite").catch(() => {
    throw new Error(`The tests open the sandbox in-process, whose state needs node:sqlite, which Node ${process.version} lacks: run \`npm test\` (it runs vitest under the Node 22 that npm installs), or set TEST_NODE and run \`node scripts/test.mjs\``);
  });
  const given = process.env.TEST_MARKET_DIR;
  if (given) {
    if (!existsSync(join(given, "manifest.json"))) throw new Error(`TEST_MARKET_DIR '${given}' holds no market (no manifest.json): generate one, or leave the variable out`);
    project.provide("tinyMarketDir", given);
    return;
  }
  const root = mkdtempSync(join(tmpdir(), "market-test-"));
  const dir = join(root, "tiny");
  generateMarket({ profile: profileByName("tiny"), seed: TEST_SEED, outDir: dir });
  project.provide("tinyMarketDir", dir);
  return () => rmSync(root, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    tinyMarketDir: string;
  }
}
