/**
 * Market generation depends on the seed: the run's two markets (test/globalSetup.ts, seeds 42
 * and 43) differ in every seeded file and agree on the reference data that follows from the
 * calendar and the corporate actions alone. Same seed, same bytes: parallel.test.ts generates
 * the tiny market twice (on one and on two workers) and compares both with this run's market.
 */
import { describe, expect, inject, it } from "vitest";
import { fingerprint } from "./support/fingerprint.ts";
import { tinyMarketDir } from "./support/market.ts";

describe("market generation depends on the seed", () => {
  /** Reference data that follows from the calendar and the corporate actions alone, not from the seed. */
  const seedFree = (path: string) => ["opt-sec-master/", "eq-lookup-files/"].some((prefix) => path.startsWith(prefix));

  it("writes different data for another seed, and the same seed-free reference data", () => {
    const a = fingerprint(tinyMarketDir()), b = fingerprint(inject("otherMarketDir"));
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    const same = Object.keys(a).filter((k) => k !== "manifest.json" && !seedFree(k) && a[k] === b[k]);
    expect(same).toEqual([]);
    const reference = Object.keys(a).filter(seedFree);
    expect(reference).toHaveLength(2);
    for (const k of reference) expect(b[k], k).toBe(a[k]);
  });
});
