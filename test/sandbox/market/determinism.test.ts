import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_SEED } from "../../globalSetup.ts";
import { fingerprint } from "./support/fingerprint.ts";
import { tinyMarketDir } from "./support/market.ts";
import { generateTinyMarket } from "./support/marketCli.ts";

/** A market generation's time budget: tens of seconds on a quiet machine, minutes on a busy one. */
const GENERATION_MS = 600_000;

describe("market generation is deterministic", () => {
  const scratch = mkdtempSync(join(tmpdir(), "market-determinism-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("writes byte-identical files for the same seed", async () => {
    const again = join(scratch, "same");
    await generateTinyMarket(TEST_SEED, again);
    expect(fingerprint(again)).toEqual(fingerprint(tinyMarketDir()));
  }, GENERATION_MS);

  /** Reference data that follows from the calendar and the corporate actions alone, not from the seed. */
  const seedFree = (path: string) => ["opt-sec-master/", "eq-lookup-files/"].some((prefix) => path.startsWith(prefix));

  it("writes different data for another seed, and the same seed-free reference data", async () => {
    const other = join(scratch, "other");
    await generateTinyMarket(TEST_SEED + 1, other);
    const a = fingerprint(tinyMarketDir()), b = fingerprint(other);
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    const same = Object.keys(a).filter((k) => k !== "manifest.json" && !seedFree(k) && a[k] === b[k]);
    expect(same).toEqual([]);
    const reference = Object.keys(a).filter(seedFree);
    expect(reference).toHaveLength(2);
    for (const k of reference) expect(b[k], k).toBe(a[k]);
  }, GENERATION_MS);
});
