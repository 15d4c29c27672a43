/**
 * Frames of one trading day: the tick file of a security, and the minute and daily bars of
 * every security of the day, typed by the catalog's schemas.
 */
import type pl from "nodejs-polars";
import { type BarColumns } from "./bars/minuteBars.ts";
import { DAILY_BAR_FIELDS, type DailyBar } from "./bars/dailyBar.ts";
import { EQ_DAILY_OHLC_COLUMNS, EQ_TAQ_1MIN_COLUMNS, EQ_TAQ_COLUMNS } from "./columns/equities.ts";
import { buildFrame, wholeNumbers } from "./frames.ts";
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

const TWO_32 = 2 ** 32;

/**
 * Epoch nanoseconds `base + offsets[i]` as int64, without a BigInt per value (which cost more
 * than the rest of a tick frame): each sum is written as two 32-bit halves. Offsets are whole
 * nanoseconds in [0, 2^53), exact as doubles.
 */
function epochNs(base: bigint, offsets: Float64Array): BigInt64Array {
  const out = new BigInt64Array(offsets.length);
  const halves = new Uint32Array(out.buffer);
  const baseLo = Number(BigInt.asUintN(32, base)), baseHi = Number(base >> 32n);
  // Little-endian: the low half of element i is halves[2i]. (Every platform Deno and Node run on.)
  for (let i = 0; i < offsets.length; i++) {
    const x = offsets[i];
    const hi = Math.floor(x / TWO_32);
    let lo = baseLo + (x - hi * TWO_32), carry = 0;
    if (lo >= TWO_32) {
      lo -= TWO_32;
      carry = 1;
    }
    halves[2 * i] = lo;
    halves[2 * i + 1] = baseHi + hi + carry;
  }
  return out;
}

/** The `eq-taq` frame of one security-day. */
export function tickFrame(id: SecurityDay, ticks: TickColumns): pl.DataFrame {
  return buildFrame(EQ_TAQ_COLUMNS, {
    TradeDate: { constant: epochDay(id.date) },
    EventDateTime: { base: nyEpochNs(id.date, 0n), offsets: ticks.nsOfDay },
    EventType: { codes: ticks.type, labels: EVENT_TYPES },
    Ticker: { constant: id.ticker },
    ASID: { constant: id.asid },
    Price: ticks.price,
    Quantity: wholeNumbers(ticks.size),
    Exchange: { codes: ticks.exchange, labels: EXCHANGES },
    ConditionCode: { codes: ticks.condition, labels: CONDITIONS },
  });
}

/** Nanoseconds from a day's first bar to each of its bars. */
const BAR_OFFSETS_NS = Float64Array.from({ length: MINUTES_PER_DAY }, (_, m) => m * Number(NS_PER_MINUTE));

/** The `eq-taq-1min` frame of a day: the bars of each security, in the order given. */
export function minuteBarFrame(ids: readonly SecurityDay[], bars: readonly BarColumns[]): pl.DataFrame {
  const n = ids.length * MINUTES_PER_DAY;
  const values: Record<string, Float64Array | Int32Array | BigInt64Array> = {};
  const barTime = new BigInt64Array(n);
  const tickerCodes = new Int32Array(n);
  const asids = new Float64Array(n);
  for (const [k, id] of ids.entries()) {
    barTime.set(epochNs(nyEpochNs(id.date, BigInt(FIRST_MINUTE_OF_DAY) * NS_PER_MINUTE), BAR_OFFSETS_NS), k * MINUTES_PER_DAY);
    tickerCodes.fill(k, k * MINUTES_PER_DAY, (k + 1) * MINUTES_PER_DAY);
    asids.fill(id.asid, k * MINUTES_PER_DAY, (k + 1) * MINUTES_PER_DAY);
  }
  for (const c of EQ_TAQ_1MIN_COLUMNS.slice(4)) {
    const column = new Float64Array(n);
    bars.forEach((b, k) => column.set(b[c.name], k * MINUTES_PER_DAY));
    // Counts and volumes (never empty) cross as int32: half the bytes, no NaN to look for.
    values[c.name] = c.type === "int64" ? wholeNumbers(column) : column;
  }
  return buildFrame(EQ_TAQ_1MIN_COLUMNS, {
    ...values,
    TradeDate: new Int32Array(n).fill(ids.length ? epochDay(ids[0].date) : 0),
    BarDateTime: barTime,
    Ticker: { codes: tickerCodes, labels: ids.map((id) => id.ticker) },
    ASID: wholeNumbers(asids),
  });
}

/** The `eq-daily-ohlc` frame of a day. */
export function dailyBarFrame(ids: readonly SecurityDay[], bars: readonly DailyBar[]): pl.DataFrame {
  const numeric: Record<string, Float64Array> = {};
  for (const c of EQ_DAILY_OHLC_COLUMNS.slice(3)) {
    const field = DAILY_BAR_FIELDS.indexOf(c.name as (typeof DAILY_BAR_FIELDS)[number]);
    if (field < 0) throw new Error(`Column '${c.name}' of eq-daily-ohlc is not a daily bar field (${DAILY_BAR_FIELDS.join(", ")})`);
    const column = new Float64Array(bars.length);
    bars.forEach((b, k) => (column[k] = b[field]));
    numeric[c.name] = column;
  }
  return buildFrame(EQ_DAILY_OHLC_COLUMNS, {
    ...numeric,
    TradeDate: Int32Array.from(ids, (id) => epochDay(id.date)),
    Ticker: ids.map((id) => id.ticker),
    ASID: Float64Array.from(ids, (id) => id.asid),
  });
}
