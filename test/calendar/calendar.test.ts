import { describe, expect, it } from "vitest";
import { holidayName, isEarlyClose, isTradingDay, tradingDays } from "../../calendar/calendar.ts";
import { addDays } from "../../calendar/nyTime.ts";

/** Every date of a year whose predicate holds, scanning day by day. */
function datesIn(year: number, keep: (date: string) => boolean): string[] {
  const out: string[] = [];
  for (let d = `${year}-01-01`; d.startsWith(String(year)); d = addDays(d, 1)) if (keep(d)) out.push(d);
  return out;
}

const HOLIDAYS: Record<number, string[]> = {
  2023: [
    "2023-01-02",
    "2023-01-16",
    "2023-02-20",
    "2023-04-07",
    "2023-05-29",
    "2023-06-19",
    "2023-07-04",
    "2023-09-04",
    "2023-11-23",
    "2023-12-25",
  ],
  2024: [
    "2024-01-01",
    "2024-01-15",
    "2024-02-19",
    "2024-03-29",
    "2024-05-27",
    "2024-06-19",
    "2024-07-04",
    "2024-09-02",
    "2024-11-28",
    "2024-12-25",
  ],
};

const EARLY_CLOSES: Record<number, string[]> = {
  2023: ["2023-07-03", "2023-11-24"],
  2024: ["2024-07-03", "2024-11-29", "2024-12-24"],
  2025: ["2025-07-03", "2025-11-28", "2025-12-24"],
};

describe("NYSE calendar", () => {
  for (const year of [2023, 2024]) {
    it(`lists exactly the ten NYSE holidays of ${year}`, () => {
      expect(datesIn(year, (d) => holidayName(d) !== undefined)).toEqual(HOLIDAYS[year]);
    });
  }

  for (const year of [2023, 2024, 2025]) {
    it(`lists exactly the NYSE early closes of ${year}`, () => {
      expect(datesIn(year, isEarlyClose)).toEqual(EARLY_CLOSES[year]);
    });
  }

  it("names holidays and leaves normal days and weekends unnamed", () => {
    expect(holidayName("2023-11-23")).toBe("Thanksgiving Day");
    expect(holidayName("2023-04-07")).toBe("Good Friday");
    expect(holidayName("2023-11-22")).toBeUndefined();
    expect(holidayName("2023-11-25")).toBeUndefined();
  });

  it("lists Thanksgiving week 2023 with the Friday closing at 13:00 and its post-market at 17:00", () => {
    const normal = { earlyClose: false, preOpenMinute: 240, openMinute: 570, closeMinute: 960, postCloseMinute: 1200 };
    expect(tradingDays("2023-11-20", "2023-11-28")).toEqual([
      { date: "2023-11-20", ...normal },
      { date: "2023-11-21", ...normal },
      { date: "2023-11-22", ...normal },
      { date: "2023-11-24", earlyClose: true, preOpenMinute: 240, openMinute: 570, closeMinute: 780, postCloseMinute: 1020 },
      { date: "2023-11-27", ...normal },
      { date: "2023-11-28", ...normal },
    ]);
  });

  it("counts 62 trading days from November 2023 through January 2024", () => {
    expect(tradingDays("2023-11-01", "2024-01-31")).toHaveLength(62);
  });

  it("counts 250 trading days in 2023 and 252 in 2024", () => {
    expect(tradingDays("2023-01-01", "2023-12-31")).toHaveLength(250);
    expect(tradingDays("2024-01-01", "2024-12-31")).toHaveLength(252);
  });

  it("includes both ends of the range when they are trading days", () => {
    expect(tradingDays("2024-01-02", "2024-01-02").map((d) => d.date)).toEqual(["2024-01-02"]);
    expect(tradingDays("2024-01-01", "2024-01-01")).toEqual([]);
  });

  it("closes for the national day of mourning for Jimmy Carter on 2025-01-09", () => {
    expect(isTradingDay("2025-01-09")).toBe(false);
    expect(holidayName("2025-01-09")).toMatch(/Carter/);
  });

  it("closes on Monday 2022-12-26 when Christmas falls on a Sunday", () => {
    expect(isTradingDay("2022-12-26")).toBe(false);
    expect(holidayName("2022-12-26")).toBe("Christmas Day (observed)");
  });

  it("stays open on 2021-12-31 although New Year's Day 2022 is a Saturday", () => {
    expect(isTradingDay("2021-12-31")).toBe(true);
    expect(isEarlyClose("2021-12-31")).toBe(false);
  });

  it("rejects dates that do not exist and names them in the message", () => {
    expect(() => isTradingDay("2023-13-01")).toThrow(
      "Cannot parse date '2023-13-01': expected a real calendar date as YYYY-MM-DD",
    );
    expect(() => holidayName("2023-02-29")).toThrow("'2023-02-29'");
    expect(() => tradingDays("2023-1-5", "2023-01-31")).toThrow("'2023-1-5'");
  });

  it("rejects a range whose start is after its end", () => {
    expect(() => tradingDays("2024-01-05", "2024-01-01")).toThrow(
      "Cannot list trading days from '2024-01-05' to '2024-01-01': start is after end",
    );
  });
});
