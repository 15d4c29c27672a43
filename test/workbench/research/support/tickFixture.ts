/**
 * The hand-built tick day of the Lee-Ready tests (2023-11-21, ticker TEST), with the sign and
 * spreads of each trade worked out by hand in the comments. Plain Polars, no test runner, so
 * that a Deno process (denoSign.ts) signs the same day as the Node tests.
 *
 * @example
 * ```ts
 * signTrades(TICKS).getColumn("Sign").toArray(); // [null, 1, 1, -1, -1, 1, null, null, 1, -1]
 * ```
 */
import pl from "nodejs-polars";

/** One event: New York time of day, EventType, price, quantity, exchange and condition code. */
type Event = [time: string, type: string, price: number, quantity: number, exchange?: string, condition?: string];

/** 2023-11-21 (EST, UTC-5): New York `HH:MM:SS.mmm` to a tick row. */
function fixture(events: Event[]): pl.DataFrame {
  const ms = events.map(([time]) => Date.parse(`2023-11-21T${time}-05:00`));
  return pl.DataFrame([
    pl.Series("TradeDate", events.map(() => new Date("2023-11-21T00:00:00Z")), pl.Date),
    pl.Series("EventDateTime", ms, pl.Int64),
    pl.Series("EventType", events.map((e) => e[1]), pl.String),
    pl.Series("Ticker", events.map(() => "TEST"), pl.String),
    pl.Series("ASID", events.map(() => 1), pl.Int64),
    pl.Series("Price", events.map((e) => e[2]), pl.Float64),
    pl.Series("Quantity", events.map((e) => e[3]), pl.Int64),
    pl.Series("Exchange", events.map((e) => e[4] ?? "Q"), pl.String),
    pl.Series("ConditionCode", events.map((e) => e[5] ?? (e[1].startsWith("QUOTE") ? "R" : "@")), pl.String),
  ]).withColumns(
    pl.col("EventDateTime").cast(pl.Datetime("ms", "UTC")).dt.convertTimeZone("America/New_York").cast(
      pl.Datetime("ns", "America/New_York"),
    ),
  );
}

/** The day: every rule of the module exercised once (see the comment on each event). */
export const TICKS = fixture([
  ["08:00:00.000", "TRADE", 9.9, 100, "Q", "T"], // pre-market, no quote yet: unsigned, outside regular hours
  ["09:29:00.000", "QUOTE BID", 10.0, 500],
  ["09:29:00.100", "QUOTE ASK", 10.1, 500], // mid 10.05
  ["09:30:00.000", "TRADE", 10.1, 1000, "Q", "O"], // opening auction print: left out
  ["09:31:00.000", "TRADE", 10.08, 100], // above mid: buy by the quote rule; eff 2(10.08-10.05)=0.06
  ["09:32:00.000", "TRADE", 10.05, 200], // at mid, last different price 10.08 higher: sell by tick; eff 0
  ["09:33:00.000", "TRADE", 10.02, 100], // below mid: sell by quote; eff 0.06
  ["09:34:00.000", "QUOTE BID", 10.05, 300], // mid 10.075
  ["09:34:30.000", "TRADE", 10.075, 100], // at mid, last different 10.02 lower: buy by tick; eff 0
  ["09:35:00.000", "QUOTE ASK", 10.05, 300], // locked 10.05/10.05
  ["09:35:30.000", "TRADE", 10.05, 100], // locked: left out
  ["09:36:00.000", "QUOTE BID", 10.06, 300], // crossed 10.06/10.05
  ["09:36:30.000", "TRADE", 10.05, 100], // crossed: left out
  ["09:37:00.000", "QUOTE BID", 10.0, 300], // mid 10.025
  ["09:37:00.100", "QUOTE ASK", 10.2, 300], // mid 10.10
  ["09:38:00.000", "TRADE", 10.2, 300], // buy by quote; eff 2(10.20-10.10)=0.20
  ["09:38:10.000", "TRADE", 10.2, 50, "Z", "@"], // cancelled below
  ["09:38:20.000", "TRADE CANCEL", 10.2, 50, "Z", "@"],
  ["16:00:00.000", "TRADE", 10.1, 5000, "Q", "6"], // closing print at 16:00: after regular hours
]);
