import { describe, expect, it } from "vitest";
import { listedExpiries } from "../../../../sandbox/market/options/expiries.ts";
import { baseIncrement, strikesToList } from "../../../../sandbox/market/options/strikes.ts";

describe("the expiry calendar", () => {
  const liquid = { weeklyDays: 35, monthlies: 3, quarterlyDays: 366 };

  it("lists weeklies on Fridays, monthlies on third Fridays and quarterlies in March, June, September and December", () => {
    const expiries = listedExpiries("2023-11-20", liquid);
    expect(expiries.slice(0, 7)).toEqual([
      { date: "2023-11-24", kind: "weekly" },
      { date: "2023-12-01", kind: "weekly" },
      { date: "2023-12-08", kind: "weekly" },
      { date: "2023-12-15", kind: "quarterly" },
      { date: "2023-12-22", kind: "weekly" },
      { date: "2024-01-19", kind: "monthly" },
      { date: "2024-02-16", kind: "monthly" },
    ]);
    expect(expiries.slice(7).map((e) => e.date)).toEqual(["2024-03-15", "2024-06-21", "2024-09-20"]);
  });

  it("moves an expiry on an exchange holiday to the trading day before (Good Friday 2024)", () => {
    expect(listedExpiries("2024-03-20", liquid).map((e) => e.date)).toContain("2024-03-28");
    expect(listedExpiries("2024-03-20", liquid).map((e) => e.date)).not.toContain("2024-03-29");
  });

  it("keeps the expiring contracts listed on their last day and drops them the day after", () => {
    expect(listedExpiries("2023-12-15", liquid)[0].date).toBe("2023-12-15");
    expect(listedExpiries("2023-12-18", liquid)[0].date).toBe("2023-12-22");
  });

  it("lists no weeklies for a root without them", () => {
    expect(listedExpiries("2023-11-20", { weeklyDays: 0, monthlies: 3, quarterlyDays: 190 }).every((e) => e.kind !== "weekly")).toBe(true);
  });
});

describe("the strike ladder", () => {
  it("uses the exchanges' increments by price level", () => {
    expect([3, 20, 150, 400].map((p) => baseIncrement(p, false))).toEqual([0.5, 1, 2.5, 5]);
  });

  it("centres strikes on spot, widens with maturity and coarsens far expiries", () => {
    const near = strikesToList(174, 0.21, 7 / 365, 1, false);
    const far = strikesToList(174, 0.21, 1, 1, false);
    expect(near.some((k) => k < 174) && near.some((k) => k > 174)).toBe(true);
    expect(near[1] - near[0]).toBe(2.5);
    expect(far[0]).toBeLessThan(near[0]);
    expect(far.at(-1)!).toBeGreaterThan(near.at(-1)!);
    expect(far[1] - far[0]).toBeGreaterThan(2.5);
    expect(far.length).toBeLessThanOrEqual(31);
  });
});
