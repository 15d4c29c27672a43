/**
 * Generates the `tiny` market once per test run, into a fresh temporary folder, and hands
 * its path to every test file (`inject("tinyMarketDir")`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { generateMarket } from "../sandbox/market/generate.ts";
import { profileByName } from "../sandbox/market/profiles.ts";

export const TEST_SEED = 42;

export default function setup(project: TestProject) {
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
