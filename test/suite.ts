/**
 * `npm test`: generates the tiny market once, then runs the suite's two vitest projects over
 * it (vitest.config.ts): `node` under Node (real HTTP, spawned sandboxes, notebooks, the CLI,
 * everything without a sandbox) and `app` under Deno (the sandbox's app in-process, which
 * needs `node:sqlite`). Each vitest runs its files one at a time on a 2-core machine; the two
 * run side by side, since much of the `node` project's time is spent waiting on the processes
 * it starts. The `node` run's output streams; the `app` run's is printed whole when it ends, so
 * neither is cut into the other. SUITE_SEQUENTIAL=1 runs them one after the other instead.
 * Arguments go to both runs (`npm test -- test/workbench`); exits non-zero when either fails.
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
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

/** Runs one vitest; `buffered`: its output is kept and printed when it ends. */
async function run(label: string, command: string, args: string[], env: Record<string, string>, buffered: boolean): Promise<number> {
  const started = performance.now();
  const io = buffered ? "piped" : "inherit";
  const output = await new Deno.Command(command, { args, cwd: repo, env, stdin: "null", stdout: io, stderr: io }).output();
  if (buffered) {
    await Deno.stdout.write(output.stdout);
    await Deno.stderr.write(output.stderr);
  }
  console.log(`suite: ${label} ${output.code === 0 ? "passed" : `failed (exit ${output.code})`} in ${seconds(started)}`);
  return output.code;
}

const root = mkdtempSync(join(tmpdir(), "market-test-"));
try {
  const started = performance.now();
  const marketDir = join(root, "tiny");
  generateMarket({ profile: profileByName("tiny"), seed: TEST_SEED, outDir: marketDir });
  console.log(`suite: tiny market generated in ${seconds(started)}`);
  const env = { TEST_MARKET_DIR: marketDir };
  const sequential = Deno.env.get("SUITE_SEQUENTIAL") === "1";
  const node = () => run("node project (under Node)", join(repo, "node_modules/.bin/vitest"), ["run", "--project", "node", "--passWithNoTests", ...Deno.args], env, false);
  const app = () =>
    run("app project (under Deno)", Deno.execPath(), ["run", "-A", join(repo, "node_modules/vitest/vitest.mjs"), "run", "--project", "app", "--passWithNoTests", ...Deno.args], env, !sequential);
  const codes = sequential ? [await node(), await app()] : await Promise.all([node(), app()]);
  console.log(`suite: ${codes.every((c) => c === 0) ? "passed" : "FAILED"} in ${seconds(started)}`);
  Deno.exitCode = codes.find((c) => c !== 0) ?? 0;
} finally {
  rmSync(root, { recursive: true, force: true });
}
