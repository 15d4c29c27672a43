/**
 * The sandbox's memory settings at start: one cache budget shared out over every worker, the
 * C allocator tuned to give freed buffers back (sandbox/service/allocator.ts), and collections
 * paced by the frames the workers let go (sandbox/service/query/frameCollector.ts). What they
 * achieve in megabytes is measured by bench/sandbox.ts against the sandbox as it was.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnSandbox } from "../../../sandbox/launcher/spawn.ts";
import { cacheBudgetMb, DEFAULT_CACHE_MB } from "../../../sandbox/service/query/cacheBudget.ts";
import { DEFAULT_COLLECT_MB } from "../../../sandbox/service/query/frameCollector.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

describe("the sandbox's memory settings", () => {
  const started: TestSandbox[] = [];
  afterAll(() => Promise.all(started.map((sb) => sb.stop())));
  const start = async (options: Parameters<typeof startSandbox>[0]) => {
    const sb = await startSandbox(options);
    started.push(sb);
    return sb;
  };

  // Two sandboxes between them show the default budget and a chosen one, over one worker and
  // several, with the allocator tuned and left alone; the budget of 0 (caches off) is shown by
  // frameCache.test.ts's sandbox without caches.
  it("shares one cache budget over the workers and tunes the allocator, saying so at start", async () => {
    const sb = await start({ args: ["--workers", "2"] });
    expect(sb.stdout).toContain(
      `caches: ${DEFAULT_CACHE_MB} MB over 2 workers (decoded files, whole results and written pages; SANDBOX_FRAME_CACHE_MB)`,
    );
    expect(sb.stdout).toContain("memory: C allocator tuned (2 arenas, buffers from 64 MiB mapped on their own)");
    // The command runs with V8's gc exposed, so the workers pace collections by the frames they let go.
    expect(sb.stdout).toContain(
      `memory: a young-generation collection every ${DEFAULT_COLLECT_MB} MB of frames let go (SANDBOX_COLLECT_MB)`,
    );
  });

  it("leaves the allocator and collections alone when told, and takes the budget SANDBOX_FRAME_CACHE_MB gives", async () => {
    const sb = await start({ env: { SANDBOX_ALLOCATOR: "default", SANDBOX_FRAME_CACHE_MB: "64", SANDBOX_COLLECT_MB: "0" } });
    expect(sb.stdout).toContain("memory: C allocator left at its defaults (SANDBOX_ALLOCATOR=default)");
    expect(sb.stdout).toContain("memory: frames let go wait for V8's own collections (SANDBOX_COLLECT_MB=0)");
    expect(sb.stdout).toContain("caches: 64 MB over 1 worker (decoded files");
    const page = await sb.get("/api/v1/data/us-equity/eq-daily-ohlc?Ticker=AAPL&limit=1", "demo-full-access");
    expect(page.status).toBe(200);
  });

  it("refuses a budget or pace that is not a number of megabytes, naming it, before generating a missing market", async () => {
    const missing = join(mkdtempSync(join(tmpdir(), "memory-budget-")), "market");
    try {
      await expect(spawnSandbox(["--port", "0", "--data", missing], { env: { SANDBOX_FRAME_CACHE_MB: "lots" } })).rejects
        .toThrow(/SANDBOX_FRAME_CACHE_MB 'lots' is not a number of megabytes/);
      await expect(spawnSandbox(["--port", "0", "--data", missing], { env: { SANDBOX_COLLECT_MB: "-4" } })).rejects
        .toThrow(/SANDBOX_COLLECT_MB '-4' is not a number of megabytes \(0 leaves collections to V8\)/);
      expect(readdirSync(dirname(missing))).toEqual([]);
    } finally {
      rmSync(dirname(missing), { recursive: true, force: true });
    }
  });

  it("reads the budget: the default when unset, 0 for off, a typed error otherwise", () => {
    expect(cacheBudgetMb(undefined)).toBe(DEFAULT_CACHE_MB);
    expect(cacheBudgetMb("")).toBe(DEFAULT_CACHE_MB);
    expect(cacheBudgetMb("0")).toBe(0);
    expect(cacheBudgetMb("96.5")).toBe(96.5);
    expect(() => cacheBudgetMb("-1")).toThrow("SANDBOX_FRAME_CACHE_MB '-1' is not a number of megabytes (0 turns the caches off)");
  });
});
