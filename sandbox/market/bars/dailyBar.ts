/**
 * The daily bar of one security-day, derived from its ticks. Market hours are 09:30 to the
 * close, plus the opening and closing auction prints (the closing cross prints just after the
 * bell). Volumes split exchange and TRF prints like the minute bars; VWAPs are consolidated
 * (every print). Cancelled prints count as reported, as in the minute bars.
 */
import { OPEN_MINUTE_OF_DAY } from "../ticks/intraday.ts";
import { COND_CLOSE_AUCTION, COND_OPEN_AUCTION, type TickColumns, TRADE, TRF_EXCHANGE } from "../ticks/tickColumns.ts";

export interface DailyBar {
  OpenPrice: number;
  HighPrice: number;
  LowPrice: number;
  ClosePrice: number;
  MarketHoursVolume: number;
  MarketHoursFinraVolume: number;
  DailyVolume: number;
  DailyFinraVolume: number;
  MarketHoursVWAP: number;
  DailyVWAP: number;
}

const NS_PER_MINUTE = 60e9;
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Aggregates a day's ticks; prices are NaN when there was no market-hours trade.
 *
 * @example
 * ```ts
 * const bar = dailyBar(ticks, 960); // closeMinute 960 = 16:00
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
  return {
    OpenPrice: open === open ? open : firstRegular,
    HighPrice: high,
    LowPrice: low,
    ClosePrice: close === close ? close : lastRegular,
    MarketHoursVolume: mhVol,
    MarketHoursFinraVolume: mhTrf,
    DailyVolume: dayVol,
    DailyFinraVolume: dayTrf,
    MarketHoursVWAP: mhVol + mhTrf > 0 ? round6(mhNotional / (mhVol + mhTrf)) : NaN,
    DailyVWAP: dayVol + dayTrf > 0 ? round6(dayNotional / (dayVol + dayTrf)) : NaN,
  };
}
