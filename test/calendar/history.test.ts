/**
 * The calendar's history from 1990: one-off closures, each year's scheduled early closes (from
 * the NYSE's history of closings; see docs/calendar.md) and the typed error before 1990.
 */
import { describe, expect, it } from "vitest";
import { CalendarRangeError, holidayName, isEarlyClose, isTradingDay, tradingDays } from "../../calendar/calendar.ts";

/** Scheduled early closes 1990-2014 with their close (minutes after midnight: 780 = 13:00, 840 = 14:00). */
const EARLY_CLOSES: Record<string, number> = {
  "1990-12-24": 840,
  "1991-12-24": 840,
  "1992-11-27": 840,
  "1992-12-24": 840,
  "1993-11-26": 780,
  "1994-11-25": 780,
  "1995-07-03": 780,
  "1995-11-24": 780,
  "1996-07-05": 780,
  "1996-11-29": 780,
  "1996-12-24": 780,
  "1997-07-03": 780,
  "1997-11-28": 780,
  "1997-12-24": 780,
  "1997-12-26": 780,
  "1998-11-27": 780,
  "1998-12-24": 780,
  "1999-11-26": 780,
  "2000-07-03": 780,
  "2000-11-24": 780,
  "2001-07-03": 780,
  "2001-11-23": 780,
  "2001-12-24": 780,
  "2002-07-05": 780,
  "2002-11-29": 780,
  "2002-12-24": 780,
  "2003-07-03": 780,
  "2003-11-28": 780,
  "2003-12-24": 780,
  "2003-12-26": 780,
  "2004-11-26": 780,
  "2005-11-25": 780,
  "2006-07-03": 780,
  "2006-11-24": 780,
  "2007-07-03": 780,
  "2007-11-23": 780,
  "2007-12-24": 780,
  "2008-07-03": 780,
  "2008-11-28": 780,
  "2008-12-24": 780,
  "2009-11-27": 780,
  "2009-12-24": 780,
  "2010-11-26": 780,
  "2011-11-25": 780,
  "2012-07-03": 780,
  "2012-11-23": 780,
  "2012-12-24": 780,
  "2013-07-03": 780,
  "2013-11-29": 780,
  "2013-12-24": 780,
  "2014-07-03": 780,
  "2014-11-28": 780,
  "2014-12-24": 780,
};

describe("NYSE calendar history from 1990", () => {
  it("closes for the one-off closures since 1990, Nixon's day of mourning first", () => {
    const closures = [
      "1994-04-27",
      "2001-09-11",
      "2001-09-12",
      "2001-09-13",
      "2001-09-14",
      "2004-06-11",
      "2007-01-02",
      "2012-10-29",
      "2012-10-30",
      "2018-12-05",
      "2025-01-09",
    ];
    for (const date of closures) expect([date, isTradingDay(date)]).toEqual([date, false]);
    expect(holidayName("1994-04-27")).toBe("National Day of Mourning for Richard Nixon");
  });

  it("stays open on Martin Luther King Jr. Day before 1998 and closes from 1998", () => {
    expect(isTradingDay("1997-01-20")).toBe(true);
    expect(holidayName("1998-01-19")).toBe("Martin Luther King Jr. Day");
  });

  it("closes on Friday 1993-12-24 for a Saturday Christmas but stays open on Friday 1993-12-31 before a Saturday New Year", () => {
    expect(holidayName("1993-12-24")).toBe("Christmas Day (observed)");
    expect(isTradingDay("1993-12-31")).toBe(true);
  });

  it("lists exactly the scheduled early closes of 1990-2014 with their closing minute", () => {
    const found = tradingDays("1990-01-01", "2014-12-31").filter((d) => d.earlyClose).map((d) => [d.date, d.closeMinute]);
    expect(Object.fromEntries(found)).toEqual(EARLY_CLOSES);
  });

  it("ends the post-market four hours after a 14:00 close", () => {
    expect(tradingDays("1992-11-27", "1992-11-27")).toEqual([
      { date: "1992-11-27", earlyClose: true, preOpenMinute: 240, openMinute: 570, closeMinute: 840, postCloseMinute: 1080 },
    ]);
  });

  it("keeps a full day on the Wednesday July 3 before 2013 and on July 3 before 1995", () => {
    for (const date of ["1996-07-03", "2002-07-03", "1990-07-03", "1991-07-03"]) expect([date, isEarlyClose(date)]).toEqual([date, false]);
  });

  it("answers from 1990-01-01 and refuses earlier dates with a CalendarRangeError naming the date and the coverage", () => {
    expect(holidayName("1990-01-01")).toBe("New Year's Day");
    expect(tradingDays("1990-01-01", "1990-01-03").map((d) => d.date)).toEqual(["1990-01-02", "1990-01-03"]);
    const calls = [() => isTradingDay("1989-12-29"), () => holidayName("1985-09-27"), () => isEarlyClose("1989-11-24")];
    for (const call of calls) expect(call).toThrow(CalendarRangeError);
    let caught: unknown;
    try {
      tradingDays("1989-12-29", "1990-01-05");
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(CalendarRangeError);
    expect(caught).toBeInstanceOf(RangeError);
    expect(caught).toMatchObject({ name: "CalendarRangeError", date: "1989-12-29", coverageStart: "1990-01-01", coverageEnd: null });
    expect((caught as Error).message).toBe(
      "Cannot answer for start '1989-12-29': the NYSE calendar covers dates from 1990-01-01 on " +
        "(its holiday rules and one-off closures are recorded and checked only for those); ask for dates from 1990-01-01 on",
    );
  });

  it("still names a malformed date before checking its range", () => {
    expect(() => isTradingDay("1989-02-30")).toThrow("Cannot parse date '1989-02-30'");
  });
});
