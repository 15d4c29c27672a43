/**
 * Generates the `tiny` market once per test run, into a fresh temporary folder, and hands
 * its path to every test file (`inject("tinyMarketDir")`). When TEST_MARKET_DIR names one
 * already generated (test/suite.ts generates it once for the suite's two runs), that one is
 * used and left in place.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { generateMarket } from "../sandbox/market/generate.ts";
import { profileByName } from "../sandbox/market/profiles.ts";

export const TEST_SEED = 42;

export default function setup(project: TestProject) {
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
