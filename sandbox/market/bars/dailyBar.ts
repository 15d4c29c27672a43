/**
 * The daily bar of one security-day, derived from its ticks. Market hours are 09:30 to the
 * close, plus the opening and closing auction prints (the closing cross prints just after the
 * bell). Volumes split exchange and TRF prints like the minute bars; VWAPs are consolidated
 * (every print). Cancelled prints count as reported, as in the minute bars.
 */
import { OPEN_MINUTE_OF_DAY } from "../ticks/intraday.ts";
import { COND_CLOSE_AUCTION, COND_OPEN_AUCTION, type TickColumns, TRADE, TRF_EXCHANGE } from "../ticks/tickColumns.ts";

/** The fields of a daily bar, in the order {@link dailyBar} writes them. */
export const DAILY_BAR_FIELDS = [
  "OpenPrice",
  "HighPrice",
  "LowPrice",
  "ClosePrice",
  "MarketHoursVolume",
  "MarketHoursFinraVolume",
  "DailyVolume",
  "DailyFinraVolume",
  "MarketHoursVWAP",
  "DailyVWAP",
] as const;

/**
 * A daily bar: its fields' values in {@link DAILY_BAR_FIELDS} order. A typed array, not an
 * object literal: under Deno (V8 14) about one generation in fifteen wrote a bar whose
 * fractional fields (prices and VWAPs) held the next security's values while its whole-number
 * volumes stayed its own. V8 keeps an object's fractional numbers in separate boxes and its
 * small integers in the object, so the boxes were most likely shared between two bars; a
 * Float64Array holds its doubles itself.
 */
export type DailyBar = Float64Array;

const NS_PER_MINUTE = 60e9;
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Aggregates a day's ticks; prices are NaN when there was no market-hours trade.
 *
 * @example
 * ```ts
 * const bar = dailyBar(ticks, 960); // closeMinute 960 = 16:00
 * bar[DAILY_BAR_FIELDS.indexOf("ClosePrice")];
 * ```
 */
export function dailyBar(ticks: TickColumns, closeMinuteOfDay: number): DailyBar {
  const openNs = OPEN_MINUTE_OF_DAY * NS_PER_MINUTE, closeNs = closeMinuteOfDay * NS_PER_MINUTE;
  let open = NaN, firstRegular = NaN, close = NaN, lastRegular = NaN, high = NaN, low = NaN;
  let mhVol = 0, mhTrf = 0, mhNotional = 0, dayVol = 0, dayTrf = 0, dayNotional = 0;
  for (let i = 0; i < ticks.length; i++) {
    if (ticks.type[i] !== TRADE) continue;
    const price = ticks.price[i], size = ticks.size[i], cond = ticks.condition[i];
    const trf = ticks.exchange[i] === TRF_EXCHANGE;
    if (trf) dayTrf += size;
    else dayVol += size;
    dayNotional += price * size;
    const ns = ticks.nsOfDay[i];
    const auction = cond === COND_OPEN_AUCTION || cond === COND_CLOSE_AUCTION;
    if (!auction && (ns < openNs || ns >= closeNs)) continue;
    if (cond === COND_OPEN_AUCTION) open = price;
    if (cond === COND_CLOSE_AUCTION) close = price;
    if (!auction) {
      if (firstRegular !== firstRegular) firstRegular = price;
      lastRegular = price;
    }
    if (!(price <= high)) high = price;
    if (!(price >= low)) low = price;
    if (trf) mhTrf += size;
    else mhVol += size;
    mhNotional += price * size;
  }
  return Float64Array.of(
    open === open ? open : firstRegular,
    high,
    low,
    close === close ? close : lastRegular,
    mhVol,
    mhTrf,
    dayVol,
    dayTrf,
    mhVol + mhTrf > 0 ? round6(mhNotional / (mhVol + mhTrf)) : NaN,
    dayVol + dayTrf > 0 ? round6(dayNotional / (dayVol + dayTrf)) : NaN,
  );
}
