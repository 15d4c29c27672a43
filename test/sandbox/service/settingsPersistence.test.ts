/**
 * Settings given on the command line apply to that run only; `sandbox-admin set` saves one for
 * every later run; the start-up lines say which settings are on and where they come from.
 * Over real HTTP, with one state file shared by successive runs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { admin } from "./support/admin.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

const DAILY = "/api/v1/data/us-equity/eq-daily-ohlc?Ticker=AAPL&limit=1";
const FAULTS = "3,0.3,0.3,0.2,0";

describe("settings are per run unless saved", () => {
  const scratch = mkdtempSync(join(tmpdir(), "settings-test-"));
  const statePath = join(scratch, "state.sqlite");
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  async function statuses(sb: TestSandbox, n: number): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = await sb.get(DAILY, "demo-full-access");
      await r.arrayBuffer();
      out.push(r.status);
    }
    return out;
  }

  async function run<T>(args: string[], body: (sb: TestSandbox) => Promise<T>): Promise<T> {
    const sb = await startSandbox({ statePath, args });
    try {
      return await body(sb);
    } finally {
      await sb.stop();
    }
  }

  // Three runs on one state file: the command line's settings (run 1), a saved setting (run 2),
  // and the saved setting turned off again (run 3), which is also the restart without the
  // command line's settings of run 1.
  it("--faults and --trusted-proxy apply to their run and say so at start, and are not saved", async () => {
    await run(["--faults", FAULTS, "--trusted-proxy", "127.0.0.1/32"], async (sb) => {
      expect(sb.stdout).toContain(`setting faults = ${FAULTS} (command line, this run only)`);
      expect(sb.stdout).toContain("setting trustedProxies = 127.0.0.1/32 (command line, this run only)");
      expect(sb.stdout.trimEnd().split("\n").at(-1)).toMatch(/^ready /);
      expect((await statuses(sb, 40)).filter((s) => s !== 200).length).toBeGreaterThan(10);
      // The X-Forwarded-For of a trusted proxy counts: a 10.x client passes demo-ip-restricted's allow-list.
      expect((await sb.get("/api/v1/account/my", "demo-ip-restricted", { "X-Forwarded-For": "10.1.2.3" })).status).toBe(200);
    });
    const shown = await admin(statePath, "--json", "settings");
    expect(JSON.parse(shown.stdout)).toMatchObject({ faults: null, trustedProxies: [] });
  });

  it("sandbox-admin set saves a setting for later runs, which say where it comes from; the command line's settings are gone after a restart", async () => {
    expect((await admin(statePath, "set", "maintenance", "on")).code).toBe(0);
    await run([], async (sb) => {
      expect(sb.stdout).toContain("setting maintenance = on (saved in the state file; change with sandbox-admin set)");
      expect(sb.stdout).not.toContain("setting faults");
      expect(sb.stdout).not.toContain("setting trustedProxies");
      expect((await sb.get("/api/v1/account/my", "demo-full-access")).status).toBe(503);
    });
    expect((await admin(statePath, "set", "maintenance", "off")).code).toBe(0);
    await run([], async (sb) => {
      expect(sb.stdout).toContain("settings: all at their defaults");
      expect(sb.stdout).not.toContain("setting maintenance");
      expect(sb.stdout).not.toContain("setting faults");
      expect((await sb.get("/api/v1/account/my", "demo-full-access")).status).toBe(200);
      expect(await statuses(sb, 40)).toEqual(Array(40).fill(200));
      expect((await sb.get("/api/v1/account/my", "demo-ip-restricted", { "X-Forwarded-For": "10.1.2.3" })).status).toBe(403);
    });
  });
});
