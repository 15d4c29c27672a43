/**
 * The NYSE trading calendar for notebooks, from the one calendar the sandbox's generator also
 * uses (calendar/): trading days, each day's sessions as New York instants (13:00 closes and
 * 17:00 post-market ends included), and column helpers that add `MinuteOfDay` and `Session`
 * to a frame with a New York date-time column.
 */
import pl from "nodejs-polars";
import { holidayName, isTradingDay, type TradingDay, tradingDays as calendarDays } from "../calendar/calendar.ts";

export type { TradingDay } from "../calendar/calendar.ts";
import { nyEpochMs } from "../calendar/nyTime.ts";
import { QueryError } from "./errors/base.ts";
import { NEW_YORK } from "./frames/frames.ts";
import { type DateLike, isoDate } from "./query/dates.ts";

/** One trading day's sessions; bounds are instants (show them in New York time). */
export interface Session {
  /** The trading day, `YYYY-MM-DD`. */
  date: string;
  /** True on an early-close day (regular hours end at 13:00). */
  earlyClose: boolean;
  /** Pre-market start, 04:00 New York time. */
  preOpen: Date;
  /** Regular hours start, 09:30. */
  open: Date;
  /** Regular hours end, 16:00 (13:00 on early-close days; 14:00 before 1993). */
  close: Date;
  /** Post-market end, four hours after the close: 20:00 (17:00 on 13:00 early-close days). */
  postClose: Date;
}

/**
 * NYSE trading days from `start` to `end`, both inclusive, as `YYYY-MM-DD` (holidays and
 * weekends left out; a Date gives its UTC date).
 *
 * @example
 * ```ts
 * import { tradingDays } from "./workbench/mod.ts";
 * tradingDays("2023-11-20", "2023-11-27"); // ["2023-11-20", "2023-11-21", "2023-11-22", "2023-11-24", "2023-11-27"]
 * ```
 */
export function tradingDays(start: DateLike, end: DateLike): string[] {
  const from = isoDate(start, "start"), to = isoDate(end, "end");
  if (from > to) throw new QueryError(`The range is reversed: start ${from} is after end ${to}; swap them`);
  return calendarDays(from, to).map((d) => d.date);
}

/**
 * The trading days from `start` to `end` with their session minutes (pre-open, open, close,
 * post-close, minutes after New York midnight) and early closes: what charts shade.
 *
 * @example
 * ```ts
 * import { tradingSessions } from "./workbench/mod.ts";
 * tradingSessions("2023-11-24", "2023-11-24")[0].closeMinute; // 780 (13:00)
 * ```
 */
export function tradingSessions(start: DateLike, end: DateLike): TradingDay[] {
  const [from, to] = [isoDate(start, "start"), isoDate(end, "end")];
  if (from > to) throw new QueryError(`The range is reversed: start ${from} is after end ${to}; swap them`);
  return calendarDays(from, to);
}

/**
 * The sessions of one trading day as instants; a weekend or holiday is refused, naming it.
 *
 * @example
 * ```ts
 * import { session } from "./workbench/mod.ts";
 * const s = session("2023-11-24"); // the day after Thanksgiving
 * s.earlyClose; // true
 * s.close.toLocaleString("en-US", { timeZone: "America/New_York" }); // "11/24/2023, 1:00:00 PM"
 * ```
 */
export function session(date: DateLike): Session {
  const day = isoDate(date, "date");
  if (!isTradingDay(day)) {
    const why = holidayName(day) ?? "a weekend";
    throw new QueryError(`${day} is not a trading day (${why}); the nearest are listed by tradingDays(start, end)`);
  }
  const [d] = calendarDays(day, day);
  const at = (minute: number) => new Date(nyEpochMs(day, minute * 60_000));
  return {
    date: day,
    earlyClose: d.earlyClose,
    preOpen: at(d.preOpenMinute),
    open: at(d.openMinute),
    close: at(d.closeMinute),
    postClose: at(d.postCloseMinute),
  };
}

/**
 * The calendar as a frame to join on `TradeDate`: one row per trading day from `start` to
 * `end`, with `EarlyClose`, the session bounds `PreOpen`, `Open`, `Close` and `PostClose`
 * (Datetime in America/New_York) and the regular session's `OpenMinute` and `CloseMinute`
 * (minutes after New York midnight, as `MinuteOfDay` counts them: 780 on a 13:00 close).
 *
 * @example
 * ```ts
 * import { sessionTable, withMinuteOfDay } from "./workbench/mod.ts";
 * const bars = withMinuteOfDay(await wb.data.eqTaq1Min("SPY", { start: "2023-11-22", end: "2023-11-24" }));
 * const auction = bars.join(sessionTable("2023-11-22", "2023-11-24"), { on: "TradeDate" })
 *   .filter(pl.col("MinuteOfDay").eq(pl.col("CloseMinute"))); // each day's closing-auction bar
 * ```
 */
export function sessionTable(start: DateLike, end: DateLike): pl.DataFrame {
  const days = tradingDays(start, end).map(session);
  const instants = (name: string, pick: (s: Session) => Date) =>
    pl.Series(name, days.map(pick), pl.Datetime("ms")).toFrame().select(pl.col(name).dt.replaceTimeZone("UTC").dt.convertTimeZone(NEW_YORK))
      .getColumn(name);
  const bounds = [
    instants("PreOpen", (s) => s.preOpen),
    instants("Open", (s) => s.open),
    instants("Close", (s) => s.close),
    instants("PostClose", (s) => s.postClose),
  ];
  return pl.DataFrame([
    pl.Series("TradeDate", days.map((s) => new Date(`${s.date}T00:00:00Z`)), pl.Date),
    pl.Series("EarlyClose", days.map((s) => s.earlyClose), pl.Bool),
    ...bounds,
  ])
    .withColumns(minuteOf("Open").alias("OpenMinute"), minuteOf("Close").alias("CloseMinute"));
}

/** The frame's New York date-time column: the one named, else the first Datetime column. */
function timeColumn(frame: pl.DataFrame, column?: string): string {
  const name = column ?? frame.columns.find((_, i) => String(frame.dtypes[i]).includes("Datetime"));
  if (!name || !frame.columns.includes(name)) {
    throw new QueryError(`No date-time column${column ? ` '${column}'` : ""} in the frame: its columns are ${frame.columns.join(", ")}`);
  }
  const type = String(frame.getColumn(name).dtype);
  if (!type.includes("Datetime") || !type.includes("America/New_York")) {
    throw new QueryError(`Column '${name}' is ${type}, not a New York date-time (Datetime in America/New_York)`);
  }
  return name;
}

/** Minutes after New York midnight of the column's instants. */
const minuteOf = (c: string) => pl.col(c).dt.hour().cast(pl.Int32).mul(60).add(pl.col(c).dt.minute().cast(pl.Int32)).cast(pl.Int32); // a JS number literal would make it Float64

/**
 * Adds `MinuteOfDay` (Int32, minutes after New York midnight: 570 is 09:30) from a New York
 * date-time column (`column`, else the first Datetime column).
 *
 * @example
 * ```ts
 * const bars = withMinuteOfDay(await wb.data.eqTaq1Min("AAPL", { start: "2023-11-24", end: "2023-11-24" }));
 * bars.filter(pl.col("MinuteOfDay").eq(570)); // the 09:30 bar
 * ```
 */
export function withMinuteOfDay(frame: pl.DataFrame, column?: string): pl.DataFrame {
  const c = timeColumn(frame, column);
  return frame.withColumns(minuteOf(c).alias("MinuteOfDay"));
}

/**
 * Adds `Session`: "pre" (04:00 to the open), "regular" (09:30 to the close, 13:00 on early-close
 * days, 14:00 before 1993) or "post" (the close to four hours after it: 20:00, 17:00 after a
 * 13:00 close); null outside them. Dates before 1990 raise the calendar's CalendarRangeError.
 *
 * @example
 * ```ts
 * const bars = withSession(await wb.data.eqTaq1Min("SPY", { start: "2023-11-22", end: "2023-11-24" }));
 * bars.groupBy(["TradeDate", "Session"]).agg(pl.col("Volume").sum());
 * ```
 */
export function withSession(frame: pl.DataFrame, column?: string): pl.DataFrame {
  const c = timeColumn(frame, column);
  const dates = frame.select(pl.col(c).dt.strftime("%Y-%m-%d").unique().alias("d")).getColumn("d").toArray().filter((d): d is string =>
    d !== null
  );
  const early = dates.filter(isTradingDay).map((d) => calendarDays(d, d)[0]).filter((d) => d.earlyClose);
  const day = pl.col(c).dt.strftime("%Y-%m-%d");
  const minute = minuteOf(c);
  let close = pl.lit(960), postClose = pl.lit(1200);
  // One branch per closing minute: 13:00, and 14:00 before 1993.
  for (const closeMinute of new Set(early.map((d) => d.closeMinute))) {
    const same = early.filter((d) => d.closeMinute === closeMinute);
    const isEarly = day.isIn(same.map((d) => d.date));
    close = pl.when(isEarly).then(pl.lit(closeMinute)).otherwise(close);
    postClose = pl.when(isEarly).then(pl.lit(same[0].postCloseMinute)).otherwise(postClose);
  }
  const label = pl.when(minute.lt(240)).then(pl.lit(null).cast(pl.String))
    .when(minute.lt(570)).then(pl.lit("pre"))
    .when(minute.lt(close)).then(pl.lit("regular"))
    .when(minute.lt(postClose)).then(pl.lit("post"))
    .otherwise(pl.lit(null).cast(pl.String));
  return frame.withColumns(label.alias("Session"));
}

/**
 * Both column helpers at once: `MinuteOfDay` and `Session`.
 *
 * @example
 * ```ts
 * const bars = withSessionColumns(await wb.data.eqTaq1Min("AAPL", { start: "2023-11-24", end: "2023-11-24" }));
 * ```
 */
export function withSessionColumns(frame: pl.DataFrame, column?: string): pl.DataFrame {
  return withSession(withMinuteOfDay(frame, column), column);
}
