import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_SEED } from "../../globalSetup.ts";
import { fingerprint } from "./support/fingerprint.ts";
import { tinyMarketDir } from "./support/market.ts";
import { denoPath } from "../../../scripts/paths.mjs";

const deno = denoPath();

/** Runs the market CLI without blocking the test runner (two generations take a while on a busy machine). */
async function market(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(deno, ["run", "-A", "sandbox/market/cli.ts", ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    return { status: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { status: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

describe("market generation on worker threads", () => {
  const scratch = mkdtempSync(join(tmpdir(), "market-parallel-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** Generates tiny under Deno (where the workers run) with `workers` threads. */
  const generate = async (workers: number) => {
    const out = join(scratch, `w${workers}`);
    const r = await market("--profile", "tiny", "--seed", String(TEST_SEED), "--out", out, "--workers", String(workers));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`in [\\d.]+ s on ${workers} workers?\\n`));
    return fingerprint(out);
  };

  it("writes every file byte for byte the same on 2 workers under Deno as the in-thread generator under Node", async () => {
    const two = await generate(2);
    expect(Object.keys(two).length).toBeGreaterThan(100);
    // And as the in-thread generator of this run's market, made under Node (test/globalSetup.ts):
    // Node's V8 and Deno's give Math.sin and Math.cos different last bits, so the option
    // pricer's quadrature takes its angles from sandbox/market/options/trig.ts, the same in both.
    expect(two).toEqual(fingerprint(tinyMarketDir()));
  }, 600_000);

  it("refuses a number of workers that is not a whole number of 1 or more, naming it", async () => {
    for (const bad of ["0", "two", "1.5"]) {
      const r = await market("--profile", "tiny", "--out", join(scratch, "x"), "--workers", bad);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`--workers '${bad}' is not a number of threads (1 or more)`);
    }
  });
});
