/**
 * `sandbox()`'s network settings, for notebooks that teach what a remote service costs: the
 * sandbox it starts holds each answer's first byte for `latencyMs` and paces bodies at
 * `bandwidthMBps`, and runs with its own V8 flags, not the notebook kernel's; a setting out of
 * range is refused before anything starts.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { afterAll, describe, expect, inject, it } from "vitest";
import { SandboxSettingError } from "../../../sandbox/launcher/errors.ts";
import { sandbox } from "../../../sandbox/launcher/local.ts";

const scratch = mkdtempSync(join(tmpdir(), "sandbox-network-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("sandbox({ latencyMs, bandwidthMBps })", () => {
  it("starts a sandbox that answers over that network, with its own V8 flags rather than the kernel's", async () => {
    // As in the notebook kernel, whose kernelspec sets DENO_V8_FLAGS: a flag V8 does not know
    // would stop the sandbox at once, were it passed on.
    const kernelFlags = process.env.DENO_V8_FLAGS;
    process.env.DENO_V8_FLAGS = "--no-such-flag-for-the-sandbox";
    const local = await sandbox({
      profile: "tiny",
      dataDir: inject("tinyMarketDir"),
      args: ["--state", join(scratch, "state.sqlite")],
      latencyMs: 250,
      bandwidthMBps: 1,
    }).finally(() => {
      if (kernelFlags === undefined) delete process.env.DENO_V8_FLAGS;
      else process.env.DENO_V8_FLAGS = kernelFlags;
    });
    try {
      const started = performance.now();
      const r = await fetch(`${local.baseUrl}/api/v1/data/us-equity/eq-taq-1min/AAPL?limit=5000&response_format=csv`, {
        headers: { "X-API-KEY": local.keys.fullAccess, "Accept-Encoding": "identity" },
      });
      const firstByte = performance.now() - started;
      const body = await r.arrayBuffer();
      const whole = performance.now() - started;
      expect(r.status).toBe(200);
      expect(body.byteLength).toBeGreaterThan(100_000);
      expect(firstByte).toBeGreaterThanOrEqual(250 - 2);
      expect(whole).toBeGreaterThanOrEqual(250 + (body.byteLength / 1e6) * 1000 - 2);
      // Each start writes a log; the start keeps the newest five of its profile (this one among them).
      const logs = readdirSync(join(process.cwd(), ".cache")).filter((n) => /^sandbox-tiny-\d+\.log$/.test(n));
      expect(logs.length).toBeGreaterThan(0);
      expect(logs.length).toBeLessThanOrEqual(5);
    } finally {
      local.stop();
    }
  }, 120_000);

  it.each([
    [{ latencyMs: -1 }, "sandbox({ latencyMs: -1 }): the latency must be a number of milliseconds from 0 to 60000"],
    [{ latencyMs: Number.NaN }, "sandbox({ latencyMs: NaN }): the latency must be a number of milliseconds from 0 to 60000"],
    [{ bandwidthMBps: 0 }, "sandbox({ bandwidthMBps: 0 }): the bandwidth must be a positive number of megabytes a second"],
  ])("refuses %o before starting anything", async (network, message) => {
    const refused = sandbox({ profile: "tiny", dataDir: join(scratch, "no-market"), ...network });
    await expect(refused).rejects.toThrow(SandboxSettingError);
    await expect(refused).rejects.toThrow(message);
  });
});
