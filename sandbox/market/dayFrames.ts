/**
 * Frames of one trading day: the tick file of a security, and the minute and daily bars of
 * every security of the day, typed by the catalog's schemas.
 */
import type pl from "nodejs-polars";
import { type BarColumns } from "./bars/minuteBars.ts";
import type { DailyBar } from "./bars/dailyBar.ts";
import { EQ_DAILY_OHLC_COLUMNS, EQ_TAQ_1MIN_COLUMNS, EQ_TAQ_COLUMNS } from "./columns/equities.ts";
import { buildFrame } from "./frames.ts";
import { epochDay, nyEpochNs } from "../../calendar/nyTime.ts";
import { FIRST_MINUTE_OF_DAY, MINUTES_PER_DAY } from "./ticks/intraday.ts";
import { CONDITIONS, EVENT_TYPES, EXCHANGES, type TickColumns } from "./ticks/tickColumns.ts";

const NS_PER_MINUTE = 60_000_000_000n;

/** Identity of a security on a day. */
export interface SecurityDay {
  date: string;
  ticker: string;
  asid: number;
}

const repeat = <T>(value: T, n: number): T[] => new Array(n).fill(value);

/** The `eq-taq` frame of one security-day. */
export function tickFrame(id: SecurityDay, ticks: TickColumns): pl.DataFrame {
  const n = ticks.length;
  const midnight = nyEpochNs(id.date, 0n);
  const eventTime = new BigInt64Array(n);
  const eventType = new Array<string>(n), exchange = new Array<string>(n), condition = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    eventTime[i] = midnight + BigInt(ticks.nsOfDay[i]);
    eventType[i] = EVENT_TYPES[ticks.type[i]];
    exchange[i] = EXCHANGES[ticks.exchange[i]];
    condition[i] = CONDITIONS[ticks.condition[i]];
  }
  return buildFrame(EQ_TAQ_COLUMNS, {
    TradeDate: new Int32Array(n).fill(epochDay(id.date)),
    EventDateTime: eventTime,
    EventType: eventType,
    Ticker: repeat(id.ticker, n),
    ASID: new Float64Array(n).fill(id.asid),
    Price: ticks.price,
    Quantity: ticks.size,
    Exchange: exchange,
    ConditionCode: condition,
  });
}

/** The `eq-taq-1min` frame of a day: the bars of each security, in the order given. */
export function minuteBarFrame(ids: readonly SecurityDay[], bars: readonly BarColumns[]): pl.DataFrame {
  const n = ids.length * MINUTES_PER_DAY;
  const values: Record<string, Float64Array | Int32Array | BigInt64Array | string[]> = {};
  const barTime = new BigInt64Array(n);
  const tickers: string[] = [];
  const asids = new Float64Array(n);
  for (const [k, id] of ids.entries()) {
    const first = nyEpochNs(id.date, BigInt(FIRST_MINUTE_OF_DAY) * NS_PER_MINUTE);
    for (let m = 0; m < MINUTES_PER_DAY; m++) barTime[k * MINUTES_PER_DAY + m] = first + BigInt(m) * NS_PER_MINUTE;
    tickers.push(...repeat(id.ticker, MINUTES_PER_DAY));
    asids.fill(id.asid, k * MINUTES_PER_DAY, (k + 1) * MINUTES_PER_DAY);
  }
  for (const c of EQ_TAQ_1MIN_COLUMNS.slice(4)) {
    const column = new Float64Array(n);
    bars.forEach((b, k) => column.set(b[c.name], k * MINUTES_PER_DAY));
    values[c.name] = column;
  }
  return buildFrame(EQ_TAQ_1MIN_COLUMNS, {
    ...values,
    TradeDate: new Int32Array(n).fill(ids.length ? epochDay(ids[0].date) : 0),
    BarDateTime: barTime,
    Ticker: tickers,
    ASID: asids,
  });
}

/** The `eq-daily-ohlc` frame of a day. */
export function dailyBarFrame(ids: readonly SecurityDay[], bars: readonly DailyBar[]): pl.DataFrame {
  const numeric: Record<string, Float64Array> = {};
  for (const c of EQ_DAILY_OHLC_COLUMNS.slice(3)) {
    numeric[c.name] = Float64Array.from(bars, (b) => b[c.name as keyof DailyBar]);
  }
  return buildFrame(EQ_DAILY_OHLC_COLUMNS, {
    ...numeric,
    TradeDate: Int32Array.from(ids, (id) => epochDay(id.date)),
    Ticker: ids.map((id) => id.ticker),
    ASID: Float64Array.from(ids, (id) => id.asid),
  });
}
