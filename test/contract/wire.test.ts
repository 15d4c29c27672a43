/** Wire values: date-times in every form a real service may send, exact integers, real dates. */
import { describe, expect, it } from "vitest";
import { recordSchema, WireDate, WireDateTime, wireDateTimeToEpochNs, WireInteger } from "../../contract/mod.ts";

describe("wire date-times", () => {
  it("read naive values as New York time, so naive, Z and offset forms name the same instant", () => {
    const instant = 1700577000000000000n; // 2023-11-21 09:30 EST = 14:30Z
    for (
      const text of [
        "2023-11-21T09:30:00",
        "2023-11-21T14:30:00Z",
        "2023-11-21T09:30:00-05:00",
        "2023-11-21T09:30:00.000000000-0500",
        "2023-11-21 09:30",
      ]
    ) {
      expect(wireDateTimeToEpochNs(text), text).toBe(instant);
    }
    // Summer: naive 09:30 is 13:30Z under daylight time.
    expect(wireDateTimeToEpochNs("2023-07-03T09:30:00")).toBe(wireDateTimeToEpochNs("2023-07-03T13:30:00Z"));
  });

  it("keep every sub-second digit up to nanoseconds", () => {
    const base = wireDateTimeToEpochNs("2023-11-21T09:30:00Z")!;
    expect(wireDateTimeToEpochNs("2023-11-21T09:30:00.123456789Z")! - base).toBe(123456789n);
    expect(wireDateTimeToEpochNs("2023-11-21T09:30:00.5Z")! - base).toBe(500000000n);
    expect(WireDateTime.safeParse("2023-11-21T09:30:00.1234567891Z").success).toBe(false);
  });

  it("refuse impossible dates and times", () => {
    for (const bad of ["2023-11-31T09:30:00Z", "2023-11-21T24:00:00Z", "2023-11-21", "yesterday", "2023-11-21T9:30"]) {
      expect(WireDateTime.safeParse(bad).success, bad).toBe(false);
    }
    expect(WireDate.safeParse("2023-02-29").success).toBe(false);
    expect(WireDate.safeParse("2024-02-29").success).toBe(true);
  });
});

describe("wire integers and records", () => {
  it("accept integers beyond 2^53 and refuse fractions and numeric text", () => {
    expect(WireInteger.safeParse(JSON.parse("9223372036854775807")).success).toBe(true);
    expect(WireInteger.safeParse(1.5).success).toBe(false);
    expect(WireInteger.safeParse("170").success).toBe(false);
  });

  it("build a record schema where a nullable column accepts null and no other key passes", () => {
    const Bar = recordSchema([
      { name: "Ticker", data_type: "string", nullable: false },
      { name: "Volume", data_type: "int64", nullable: true },
      { name: "Roots", data_type: "list_string", nullable: false },
    ]);
    expect(Bar.safeParse({ Ticker: "AAPL", Volume: null, Roots: [] }).success).toBe(true);
    expect(Bar.safeParse({ Ticker: null, Volume: 1, Roots: [] }).success).toBe(false);
    expect(Bar.safeParse({ Ticker: "AAPL", Volume: 1, Roots: [], Extra: 1 }).success).toBe(false);
  });
});
