/**
 * The sandbox's app in-process (sandbox/service/inProcess.ts): it answers through its `fetch`
 * as the served sandbox does, with the run settings and the clock it was given, on a state file
 * of its own that `close` removes, or on one it was handed, which outlives it.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { openInProcessSandbox } from "../../../sandbox/service/inProcess.ts";

const marketDir = inject("tinyMarketDir");
const KEY = { headers: { "X-API-KEY": "demo-full-access" } };

describe("an in-process sandbox", () => {
  it("answers through its fetch, each sandbox at an origin of its own that nothing listens on", async () => {
    const a = openInProcessSandbox({ marketDir }), b = openInProcessSandbox({ marketDir });
    try {
      expect(a.baseUrl).not.toBe(b.baseUrl);
      expect(new URL(a.baseUrl).hostname).toMatch(/\.invalid$/);
      const r = await a.fetch(`${a.baseUrl}/api/v1/account/my`, KEY);
      expect(r.status).toBe(200);
      expect((await r.json()).name).toBe("Demo full access");
      expect((await a.fetch(`${a.baseUrl}/api/v1/account/my`)).status).toBe(401);
    } finally {
      a.close();
      b.close();
    }
  });

  it("applies the run settings it was given", async () => {
    const sb = openInProcessSandbox({ marketDir, settings: { maintenance: true } });
    try {
      expect((await sb.fetch(`${sb.baseUrl}/api/v1/account/my`, KEY)).status).toBe(503);
    } finally {
      sb.close();
    }
  });

  it("keeps the time of the clock it was given: a key that expired by the wall clock is valid at an earlier instant", async () => {
    const url = "/api/v1/account/my";
    const expired = { headers: { "X-API-KEY": "demo-expired" } };
    const then = openInProcessSandbox({ marketDir, now: () => new Date("2023-06-01T12:00:00Z") });
    const today = openInProcessSandbox({ marketDir });
    try {
      expect((await then.fetch(`${then.baseUrl}${url}`, expired)).status).toBe(200);
      expect((await today.fetch(`${today.baseUrl}${url}`, expired)).status).toBe(410);
    } finally {
      then.close();
      today.close();
    }
  });

  it("removes the state file it made, and leaves one it was handed", () => {
    const own = openInProcessSandbox({ marketDir });
    expect(existsSync(own.statePath)).toBe(true);
    own.close();
    expect(existsSync(dirname(own.statePath))).toBe(false);
    const scratch = mkdtempSync(join(tmpdir(), "in-process-state-"));
    try {
      const handed = openInProcessSandbox({ marketDir, statePath: join(scratch, "state.sqlite") });
      handed.close();
      expect(existsSync(join(scratch, "state.sqlite"))).toBe(true);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it("refuses a folder without a market, naming it", () => {
    expect(() => openInProcessSandbox({ marketDir: "/nonexistent/market" })).toThrow(
      /No market at '\/nonexistent\/market': manifest.json is missing/,
    );
  });
});
