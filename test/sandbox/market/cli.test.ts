import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { marketCli as market } from "./support/marketCli.ts";

describe("npm run market", () => {
  const scratch = mkdtempSync(join(tmpdir(), "market-cli-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("generates a profile into --out and prints what it wrote", async () => {
    const out = join(scratch, "tiny");
    const r = await market("--profile", "tiny", "--seed", "7", "--out", out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/market tiny seed 7: 6 trading days, 13 securities, written to .* in [\d.]+ s/);
    expect(r.stdout).toMatch(/eq-taq-1min:core\s+6 files\s+72000 rows/);
    expect(r.stderr).toContain("100% 2023-11-28 (6/6 days");
    expect(JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")).seed).toBe(7);
    expect(existsSync(join(out, "eq-taq/TradeDate=2023-11-24/Ticker=AAPL.parquet"))).toBe(true);
  }, 600_000); // a market generation: tens of seconds on a quiet machine, minutes on a busy one

  it("refuses an unknown profile, naming it and the choices", async () => {
    const r = await market("--profile", "huge", "--out", join(scratch, "x"));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Unknown profile 'huge': choose one of tiny, demo, large");
  });

  it("refuses an unknown option, naming it", async () => {
    const r = await market("--sede", "3");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--sede");
  });

  it("refuses a seed that is not a non-negative integer", async () => {
    const r = await market("--seed=-3", "--out", join(scratch, "x"));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--seed '-3' is not a non-negative integer");
  });
});
