/**
 * Efficient (unobserved) prices of every security, minute by minute, over a profile's days.
 * A common market factor moves every security through its beta, so SPY, QQQ and the stocks
 * co-move intraday and across days; the rest is idiosyncratic. Intraday variance follows the
 * square root of activity (busy minutes move more), a fifth of daily variance falls overnight.
 * Splits rescale the level at the ex-date's open; a merger target trades at the deal value
 * less a spread that closes as the effective date nears.
 */
import type { TradingDay } from "../../../calendar/calendar.ts";
import { type CorporateAction, priceFactorOn, tradesOn } from "../corporateActions.ts";
import { Rng } from "../rng.ts";
import type { Security } from "../securities.ts";
import { FIRST_MINUTE_OF_DAY, MINUTES_PER_DAY, tradeActivity } from "./intraday.ts";

const MARKET_ANNUAL_VOL = 0.13;
const MARKET_DAILY_DRIFT = 0.0005;
const OVERNIGHT_VARIANCE_SHARE = 0.2;
const TRADING_DAYS_PER_YEAR = 252;

/** Price at each minute boundary of a day: index m is 04:00 + m minutes, 0..960. */
export type DayPath = Float64Array;

/** Paths keyed by ASID, then by date. */
export type PricePaths = Map<number, Map<string, DayPath>>;

/** Per-minute weights (sum 1) of intraday variance for a day. */
function varianceWeights(day: TradingDay): Float64Array {
  const w = new Float64Array(MINUTES_PER_DAY);
  let sum = 0;
  for (let m = 0; m < MINUTES_PER_DAY; m++) {
    w[m] = Math.sqrt(tradeActivity(FIRST_MINUTE_OF_DAY + m, day.closeMinute));
    sum += w[m];
  }
  for (let m = 0; m < MINUTES_PER_DAY; m++) w[m] /= sum;
  return w;
}

/** Log-return shocks of the market factor: [overnight, minute 0..959], in daily-vol units. */
function marketShocks(seed: number, date: string): Float64Array {
  const rng = Rng.for(seed, "market", date);
  const z = new Float64Array(MINUTES_PER_DAY + 1);
  for (let i = 0; i < z.length; i++) z[i] = rng.normal();
  return z;
}

/**
 * Builds the minute paths of every security for every day it trades.
 *
 * @example
 * ```ts
 * const paths = buildPricePaths(42, tradingDays("2023-11-20", "2023-11-28"), SECURITIES, actions);
 * paths.get(100001)!.get("2023-11-21")![330]; // AAPL efficient price at 09:30
 * ```
 */
export function buildPricePaths(
  seed: number,
  days: readonly TradingDay[],
  securities: readonly Security[],
  actions: readonly CorporateAction[],
): PricePaths {
  const paths: PricePaths = new Map(securities.map((s) => [s.asid, new Map()]));
  const level = new Map(securities.map((s) => [s.asid, Math.log(s.startPrice)]));
  const mergers = actions.filter((a) => a.kind === "merger");
  const marketDailyVol = MARKET_ANNUAL_VOL / Math.sqrt(TRADING_DAYS_PER_YEAR);
  // Targets are priced off their acquirer, so acquirers go first.
  const ordered = [...securities].sort((a, b) =>
    Number(mergers.some((m) => m.targetAsid === a.asid)) - Number(mergers.some((m) => m.targetAsid === b.asid)));

  for (const [dayIndex, day] of days.entries()) {
    const weights = varianceWeights(day);
    const market = marketShocks(seed, day.date);
    for (const sec of ordered) {
      if (!tradesOn(sec.asid, day.date, actions)) continue;
      const rng = Rng.for(seed, "path", String(sec.asid), day.date);
      const dailyVol = sec.annualVol / Math.sqrt(TRADING_DAYS_PER_YEAR);
      const systematic = sec.beta * marketDailyVol;
      const idiosyncratic = Math.sqrt(Math.max(dailyVol * dailyVol - systematic * systematic, 1e-10));
      const path = new Float64Array(MINUTES_PER_DAY + 1);
      const overnight = Math.sqrt(OVERNIGHT_VARIANCE_SHARE);
      const intraday = Math.sqrt(1 - OVERNIGHT_VARIANCE_SHARE);
      let x = level.get(sec.asid)! + Math.log(priceFactorOn(sec.asid, day.date, actions));
      x += MARKET_DAILY_DRIFT * sec.beta + overnight * (systematic * market[0] + idiosyncratic * rng.normal());
      path[0] = x;
      for (let m = 0; m < MINUTES_PER_DAY; m++) {
        const s = intraday * Math.sqrt(weights[m]);
        x += s * (systematic * market[m + 1] + idiosyncratic * rng.normal());
        path[m + 1] = x;
      }
      level.set(sec.asid, x);
      const deal = mergers.find((m) => m.targetAsid === sec.asid);
      if (deal) {
        const acquirer = paths.get(deal.acquirerAsid)!.get(day.date)!;
        const daysLeft = days.findIndex((d) => d.date >= deal.effectiveDate) - dayIndex;
        const spread = Math.min(0.0015 * Math.max(daysLeft, 1), 0.04);
        const ownStart = path[0];
        for (let m = 0; m <= MINUTES_PER_DAY; m++) {
          const dealValue = deal.shareRatio * acquirer[m] + deal.cashPerShare;
          // A little of the target's own noise keeps the arbitrage spread from being perfectly smooth.
          path[m] = dealValue * (1 - spread) * Math.exp(0.05 * (path[m] - ownStart));
        }
        level.set(sec.asid, Math.log(path[MINUTES_PER_DAY]));
      } else {
        for (let m = 0; m <= MINUTES_PER_DAY; m++) path[m] = Math.exp(path[m]);
      }
      paths.get(sec.asid)!.set(day.date, path);
    }
  }
  return paths;
}
