/**
 * The notebook calendar: trading days and sessions from calendar/ (13:00 closes and 17:00
 * post-market ends included), and the MinuteOfDay and Session columns on real minute bars
 * from the sandbox, counted per session on a normal and an early-close day.
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { CalendarRangeError } from "../../calendar/calendar.ts";
import {
  NEW_YORK,
  QueryError,
  session,
  sessionTable,
  tradingDays,
  withMinuteOfDay,
  withSession,
  withSessionColumns,
} from "../../workbench/mod.ts";
import { withFullAccess } from "./support/fullAccess.ts";

const ny = (d: Date) => d.toLocaleString("en-US", { timeZone: "America/New_York", hourCycle: "h23" });

describe("trading days and sessions", () => {
  it("lists trading days without Thanksgiving and the weekend, from text or Dates", () => {
    expect(tradingDays("2023-11-20", "2023-11-27")).toEqual(["2023-11-20", "2023-11-21", "2023-11-22", "2023-11-24", "2023-11-27"]);
    expect(tradingDays(new Date("2023-11-23"), new Date("2023-11-24"))).toEqual(["2023-11-24"]);
    expect(() => tradingDays("2023-11-27", "2023-11-20")).toThrow(QueryError);
  });

  it("gives New York session bounds, with the 13:00 close and the 17:00 post-market end of an early-close day", () => {
    const normal = session("2023-11-22");
    expect([normal.preOpen, normal.open, normal.close, normal.postClose].map(ny)).toEqual([
      "11/22/2023, 04:00:00",
      "11/22/2023, 09:30:00",
      "11/22/2023, 16:00:00",
      "11/22/2023, 20:00:00",
    ]);
    const early = session("2023-11-24");
    expect(early.earlyClose).toBe(true);
    expect([early.close, early.postClose].map(ny)).toEqual(["11/24/2023, 13:00:00", "11/24/2023, 17:00:00"]);
    // Summer time: 09:30 New York is 13:30 UTC.
    expect(session("2023-07-03").open.toISOString()).toBe("2023-07-03T13:30:00.000Z");
    expect(session("2023-07-03").close.toISOString()).toBe("2023-07-03T17:00:00.000Z");
  });

  it("gives the calendar as a frame to join on TradeDate, with the close's minute of day (780 after Thanksgiving)", () => {
    const table = sessionTable("2023-11-22", "2023-11-27");
    expect(table.columns).toEqual(["TradeDate", "EarlyClose", "PreOpen", "Open", "Close", "PostClose", "OpenMinute", "CloseMinute"]);
    expect(table.dtypes.map(String)).toEqual(
      ["Date", "Bool", ...Array(4).fill("Datetime(ms,America/New_York)"), "Int32", "Int32"].map((t) => `DataType(${t})`),
    );
    const rows = table.toRecords().map((
      r,
    ) => [(r.TradeDate as Date).toISOString().slice(0, 10), r.EarlyClose, ny(r.Close as Date), r.OpenMinute, r.CloseMinute]);
    expect(rows).toEqual([
      ["2023-11-22", false, "11/22/2023, 16:00:00", 570, 960],
      ["2023-11-24", true, "11/24/2023, 13:00:00", 570, 780],
      ["2023-11-27", false, "11/27/2023, 16:00:00", 570, 960],
    ]);
    expect(sessionTable("2023-11-23", "2023-11-23").height).toBe(0);
  });

  it("gives the 14:00 close of an early-close day before 1993 and refuses dates before 1990 with a CalendarRangeError", () => {
    const early = session("1992-11-27");
    expect([early.earlyClose, ...[early.close, early.postClose].map(ny)]).toEqual([true, "11/27/1992, 14:00:00", "11/27/1992, 18:00:00"]);
    expect(() => session("1989-12-29")).toThrow(CalendarRangeError);
    expect(() => tradingDays("1985-01-01", "1990-01-05")).toThrow(
      /Cannot answer for start '1985-01-01': the NYSE calendar covers dates from 1990-01-01 on/,
    );
  });

  it("labels the sessions of a 14:00 early close (1992) and a 13:00 one (2023) in one frame", () => {
    const times = [
      "1992-11-27T13:59",
      "1992-11-27T14:00",
      "1992-11-27T17:59",
      "1992-11-27T18:00",
      "2023-11-24T12:59",
      "2023-11-24T13:00",
      "2023-11-24T16:59",
      "2023-11-24T17:00",
      "2023-11-22T15:59",
      "2023-11-22T16:00",
    ];
    const frame = pl.DataFrame([pl.Series("At", times.map((t) => new Date(`${t}:00Z`)), pl.Datetime("ms"))])
      .select(pl.col("At").dt.replaceTimeZone(NEW_YORK));
    expect(withSession(frame).getColumn("Session").toArray()).toEqual([
      "regular",
      "post",
      "post",
      null,
      "regular",
      "post",
      "post",
      null,
      "regular",
      "post",
    ]);
  });

  it("refuses a holiday or a weekend, naming it", () => {
    expect(() => session("2023-11-23")).toThrow(/2023-11-23 is not a trading day \(Thanksgiving Day\)/);
    expect(() => session("2023-11-25")).toThrow(/not a trading day \(a weekend\)/);
  });
});

describe("session columns on minute bars", () => {
  const local = withFullAccess();

  it("counts 330 pre, 390 regular and 240 post minutes on a normal day, 330, 210 and 240 after Thanksgiving", async () => {
    // The sandbox still writes bars to 20:00 on early-close days: past the 17:00 post-market
    // end the calendar gives them no session (null), which the count shows.
    const bars = withSessionColumns(
      await local.wb.data.eqTaq1Min("SPY", { start: "2023-11-22", end: "2023-11-24", columns: ["TradeDate", "BarDateTime", "Volume"] }),
    );
    expect(bars.columns).toEqual(["TradeDate", "BarDateTime", "Volume", "MinuteOfDay", "Session"]);
    const counts = bars.groupBy(["TradeDate", "Session"]).len().sort(["TradeDate", "Session"]);
    const rows = counts.toRecords().map((r) => `${(r.TradeDate as Date).toISOString().slice(0, 10)} ${r.Session} ${r.len}`);
    expect(rows).toEqual([
      "2023-11-22 post 240",
      "2023-11-22 pre 330",
      "2023-11-22 regular 390",
      "2023-11-24 null 180",
      "2023-11-24 post 240",
      "2023-11-24 pre 330",
      "2023-11-24 regular 210",
    ]);
    const first = bars.filter(pl.col("Session").eq(pl.lit("regular"))).row(0);
    expect(first[3]).toBe(570);
    expect(String(bars.getColumn("MinuteOfDay").dtype)).toBe("DataType(Int32)");
  });

  it("names the column it needs when the frame has no New York date-time", async () => {
    const daily = await local.wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" }, start: "2023-11-21", end: "2023-11-21" });
    expect(() => withMinuteOfDay(daily)).toThrow(/No date-time column in the frame: its columns are TradeDate/);
  });
});
