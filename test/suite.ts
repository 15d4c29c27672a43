/**
 * `npm test`: generates the tiny market once, then runs the suite's two vitest projects over
 * it (vitest.config.ts): `node` under Node (real HTTP, spawned sandboxes, notebooks, the CLI,
 * everything without a sandbox) and `app` under Deno (the sandbox's app in-process, which
 * needs `node:sqlite`). One after the other, so each has the machine's cores to itself and
 * its output stays readable. Arguments go to both runs (`npm test -- test/workbench`); exits
 * non-zero when either run fails.
 *
 * Usage: `deno run -A test/suite.ts [vitest arguments]`
 */
/// <reference lib="deno.ns" />
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateMarket } from "../sandbox/market/generate.ts";
import { profileByName } from "../sandbox/market/profiles.ts";
import { TEST_SEED } from "./globalSetup.ts";

const repo = join(import.meta.dirname!, "..");
const args = Deno.args;

async function run(label: string, command: string, commandArgs: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const { code } = await new Deno.Command(command, { args: commandArgs, cwd: repo, env, stdin: "null", stdout: "inherit", stderr: "inherit" }).output();
  console.log(`suite: ${label} ${code === 0 ? "passed" : `failed (exit ${code})`} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return code;
}

const root = mkdtempSync(join(tmpdir(), "market-test-"));
try {
  const marketDir = join(root, "tiny");
  const started = performance.now();
  generateMarket({ profile: profileByName("tiny"), seed: TEST_SEED, outDir: marketDir });
  console.log(`suite: tiny market generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const env = { TEST_MARKET_DIR: marketDir };
  const node = await run("node project (under Node)", join(repo, "node_modules/.bin/vitest"), ["run", "--project", "node", "--passWithNoTests", ...args], env);
  const app = await run("app project (under Deno)", Deno.execPath(), ["run", "-A", join(repo, "node_modules/vitest/vitest.mjs"), "run", "--project", "app", "--passWithNoTests", ...args], env);
  Deno.exitCode = node !== 0 ? node : app;
} finally {
  rmSync(root, { recursive: true, force: true });
}
