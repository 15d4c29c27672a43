/**
 * Usage is written when an answer is committed, so a kill -9 under load, over real HTTP against
 * a spawned sandbox, loses no answered request and over-counts at most the requests in flight
 * (answers committed but not yet received). The rest of usage counting runs in-process:
 * usageCounting.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createQuotaAccount } from "./support/quotaAccounts.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

const CLIENTS = 8;
/** Two workers share the state file, so counting is checked across processes' threads, not within one. */
const TWO_WORKERS = ["--workers", "2"];
/** Answers received before the kill: enough load that requests are surely in flight when it lands. */
const ANSWERS_BEFORE_KILL = 100;

describe("usage counted when answered", () => {
  const scratch = mkdtempSync(join(tmpdir(), "usage-kill-test-"));
  const statePath = join(scratch, "state.sqlite");
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const usage = async (sb: TestSandbox, key: string) => (await (await sb.get("/api/v1/account/my/quotas", key)).json()).quotas_usage;

  it("a kill -9 under load loses no answered request and over-counts at most the requests in flight", async () => {
    let sb = await startSandbox({ statePath, args: TWO_WORKERS });
    const account = await createQuotaAccount(statePath, { name: "Crash", perMinute: 1_000_000, monthly: 1_000_000 });
    const key = account.keys[0][0];
    let answered = 0, stopped = false;
    // The kill comes once enough answers have arrived, however fast this machine serves them.
    let loaded!: () => void;
    const underLoad = new Promise<void>((resolve) => (loaded = resolve));
    const client = async () => {
      while (!stopped) {
        try {
          const r = await sb.get("/api/v1/data/us-equity/eq-daily-ohlc?limit=100&response_format=csv", key);
          await r.arrayBuffer();
          if (r.status === 200 && ++answered === ANSWERS_BEFORE_KILL) loaded();
        } catch {
          return; // the server is gone
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, client);
    await underLoad;
    await sb.kill("SIGKILL");
    stopped = true;
    await Promise.all(clients);
    sb = await startSandbox({ statePath, args: TWO_WORKERS });
    try {
      const counted = (await usage(sb, key)).monthly_requests;
      console.log(
        `kill -9 under load: ${answered} answers received, ${counted} counted (over-count ${
          counted - answered
        }, at most ${CLIENTS} in flight)`,
      );
      expect(answered).toBeGreaterThanOrEqual(ANSWERS_BEFORE_KILL);
      expect(counted).toBeGreaterThanOrEqual(answered);
      expect(counted - answered).toBeLessThanOrEqual(CLIENTS);
    } finally {
      await sb.stop();
    }
  });
});
