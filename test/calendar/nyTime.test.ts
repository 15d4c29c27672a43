import { describe, expect, it } from "vitest";
import { addDays, dateFromEpochDay, epochDay, nyEpochMs, nyEpochNs, nyUtcOffsetMinutes } from "../../calendar/nyTime.ts";

describe("New York time", () => {
  it("switches from EDT to EST over the first weekend of November 2023", () => {
    expect(nyUtcOffsetMinutes("2023-11-03")).toBe(-240);
    expect(nyUtcOffsetMinutes("2023-11-06")).toBe(-300);
  });

  it("switches from EST to EDT over the second weekend of March 2024", () => {
    expect(nyUtcOffsetMinutes("2024-03-08")).toBe(-300);
    expect(nyUtcOffsetMinutes("2024-03-11")).toBe(-240);
  });

  it("places the 09:30 open of 2023-11-22 at 14:30 UTC", () => {
    const nineThirty = (9n * 60n + 30n) * 60_000_000_000n;
    const expected = BigInt(Date.parse("2023-11-22T14:30:00Z")) * 1_000_000n;
    expect(nyEpochNs("2023-11-22", nineThirty)).toBe(expected);
  });

  it("places the 16:00 close of a summer day at 20:00 UTC in milliseconds", () => {
    expect(nyEpochMs("2024-07-01", 16 * 3_600_000)).toBe(Date.parse("2024-07-01T20:00:00Z"));
  });

  it("counts epoch days from 1970-01-01 and converts them back", () => {
    expect(epochDay("1970-01-01")).toBe(0);
    expect(epochDay("2023-11-22")).toBe(19683);
    expect(epochDay("1969-12-31")).toBe(-1);
    for (const date of ["1900-03-01", "2000-02-29", "2024-12-31", "0050-06-15", "9999-12-31"]) {
      expect(dateFromEpochDay(epochDay(date))).toBe(date);
    }
  });

  it("adds calendar days across month, year and leap-day boundaries", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2023-12-31", 1)).toBe("2024-01-01");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
  });

  it("rejects malformed dates and non-integer day counts with the value in the message", () => {
    expect(() => epochDay("2023-02-30")).toThrow("Cannot parse date '2023-02-30'");
    expect(() => nyUtcOffsetMinutes("11/22/2023")).toThrow("'11/22/2023'");
    expect(() => dateFromEpochDay(1.5)).toThrow("1.5");
    expect(() => addDays("2023-01-01", 0.5)).toThrow("0.5");
  });
});
