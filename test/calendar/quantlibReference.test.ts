/**
 * Our NYSE calendar against an independent one, day by day: QuantLib's
 * `UnitedStates(UnitedStates.NYSE)` for 1990-01-01..2030-12-31, written to the fixture by
 * scripts/calendarReference.py. Every day the two differ on must be listed below with a
 * judgement (docs/calendar.md gives the same with its sources), and every listed day must still
 * differ, so the list can neither hide a new difference nor go stale.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isTradingDay } from "../../calendar/calendar.ts";
import { addDays } from "../../calendar/nyTime.ts";

interface Fixture {
  source: string;
  first: string;
  last: string;
  /** Weekdays QuantLib closes; it closes every weekend day too (the script checks). */
  weekdayHolidays: string[];
  businessDaysPerYear: Record<string, number>;
}

const fixture: Fixture = JSON.parse(readFileSync(new URL("./fixtures/quantlibNyse.json", import.meta.url), "utf8"));

/** Every known difference: the day, what each side says, and who is right. */
const KNOWN_DIFFERENCES: Record<string, { ours: boolean; quantlib: boolean; judgement: string }> = {
  // NYSE closed for the national day of mourning for Jimmy Carter (announced 2024-12-30, after
  // QuantLib 1.29 of Debian 12 was released in January 2023). Ours is right.
  "2025-01-09": { ours: false, quantlib: true, judgement: "ours: the NYSE closed for President Carter's national day of mourning" },
};

const isWeekend = (date: string) => [0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay());

function differences(): Record<string, { ours: boolean; quantlib: boolean }> {
  const closed = new Set(fixture.weekdayHolidays);
  const out: Record<string, { ours: boolean; quantlib: boolean }> = {};
  for (let date = fixture.first; date <= fixture.last; date = addDays(date, 1)) {
    const quantlib = !isWeekend(date) && !closed.has(date), ours = isTradingDay(date);
    if (ours !== quantlib) out[date] = { ours, quantlib };
  }
  return out;
}

describe("the NYSE calendar against QuantLib's, 1990-2030", () => {
  it("reads a fixture that spans 1990-01-01 to 2030-12-31 with every year's business-day count", () => {
    expect([fixture.first, fixture.last]).toEqual(["1990-01-01", "2030-12-31"]);
    expect(Object.keys(fixture.businessDaysPerYear)).toHaveLength(41);
    expect(fixture.source).toMatch(/^QuantLib \d+\.\d+ ql\.UnitedStates\(ql\.UnitedStates\.NYSE\)/);
  });

  it("agrees on every day except the known, judged differences", () => {
    const strip = (r: Record<string, { ours: boolean; quantlib: boolean }>) =>
      Object.fromEntries(Object.entries(r).map(([d, { ours, quantlib }]) => [d, { ours, quantlib }]));
    expect(differences()).toEqual(strip(KNOWN_DIFFERENCES));
  });

  it("counts each year's trading days as QuantLib does, up to the known differences", () => {
    const ours: Record<string, number> = {};
    for (let date = fixture.first; date <= fixture.last; date = addDays(date, 1)) {
      if (isTradingDay(date)) ours[date.slice(0, 4)] = (ours[date.slice(0, 4)] ?? 0) + 1;
    }
    const expected = { ...fixture.businessDaysPerYear };
    for (const [date, { ours: open }] of Object.entries(KNOWN_DIFFERENCES)) expected[date.slice(0, 4)] += open ? 1 : -1;
    expect(ours).toEqual(expected);
  });
});
