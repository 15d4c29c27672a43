/**
 * Efficient (unobserved) prices of every security, minute by minute, over a profile's days, and
 * how busy each minute is. A security's log price moves with the market factor (through its
 * beta), its sector's factor and its own noise; each part's variance follows a stochastic
 * volatility state (ticks/volatility.ts) that persists across days and clusters within the day,
 * with Student-t shocks. Factor moves reach a security with a short lag (price discovery), so
 * correlations rise with the sampling interval (Epps). A fifth of daily variance falls overnight.
 * Earnings move the price at the report (before the open, or just after the close) and lift the
 * name's volatility for days; other company news gaps a stock overnight now and then;
 * ex-dividend days open lower by the dividend; splits rescale the
 * level at the ex-date's open; a merger target trades at the deal value less a closing spread.
 * Activity (the multiplier of trade and quote intensity) follows the variance, minute by minute.
 */
import type { TradingDay } from "../../../calendar/calendar.ts";
import { type CorporateAction, priceFactorOn, tradesOn } from "../corporateActions.ts";
import { Rng } from "../rng.ts";
import type { Security } from "../securities.ts";
import { EARNINGS_JUMP_MIN, EARNINGS_JUMP_SD, earningsOf, exDividendDrop, reactionDay } from "./events.ts";
import { dayActivity, FIRST_MINUTE_OF_DAY, MINUTES_PER_DAY, OPEN_MINUTE_OF_DAY } from "./intraday.ts";
import { DailyVolState, intradayVarianceScales, LEVERAGE, studentT8 } from "./volatility.ts";

const MARKET_ANNUAL_VOL = 0.13;
const MARKET_DAILY_DRIFT = 0.0005;
const OVERNIGHT_VARIANCE_SHARE = 0.2;
const TRADING_DAYS_PER_YEAR = 252;
/** Log-volatility lift of a name on its earnings reaction day (about 2x), decaying with the state. */
const EARNINGS_VOL_LIFT = 0.7;
/** Activity rises with variance to this power (volume follows volatility, about one-for-one in sd). */
const ACTIVITY_ELASTICITY = 0.85;
/**
 * Price discovery at the open: the first minutes' variance is lifted by up to these factors over
 * their trading activity, fading over OPEN_DISCOVERY_MINUTES. It is mostly company-specific (the
 * night's news reaching each name), so a single stock's own part is lifted most and the market
 * and sector factors less: 09:30-09:34 is 5-8x midday's volatility for a stock, less for an index.
 */
const OPEN_DISCOVERY_FACTORS = 3;
const OPEN_DISCOVERY_OWN = 10;
const OPEN_DISCOVERY_MINUTES = 5;
/**
 * Company news outside earnings (guidance, analyst calls, deals): a common stock or ADR gaps
 * overnight on about one day in 33, by a normal move with this many daily sd, and trades busier
 * after the open. Overnight, so the day's realized intraday variance does not carry it.
 */
const NEWS_PROBABILITY = 0.03;
const NEWS_SD = 4;

/** One security-day: prices at each minute boundary (index m is 04:00 + m minutes, 0..960) and activity per minute (mean about 1). */
export interface DayPath {
  price: Float64Array;
  activity: Float64Array;
}

/** Paths keyed by ASID, then by date. */
export type PricePaths = Map<number, Map<string, DayPath>>;

/** Per-minute weights (sum 1) of intraday variance: trading activity, with the open's price discovery on top. */
function varianceWeights(day: TradingDay, openDiscovery: number): Float64Array {
  const w = new Float64Array(MINUTES_PER_DAY);
  let sum = 0;
  for (let m = 0; m < MINUTES_PER_DAY; m++) {
    const minute = FIRST_MINUTE_OF_DAY + m, sinceOpen = minute - OPEN_MINUTE_OF_DAY;
    w[m] = dayActivity(day, minute) *
      (sinceOpen >= 0 && minute < day.closeMinute ? 1 + openDiscovery * Math.exp(-sinceOpen / OPEN_DISCOVERY_MINUTES) : 1);
    sum += w[m];
  }
  for (let m = 0; m < MINUTES_PER_DAY; m++) w[m] /= sum;
  return w;
}

/** A common factor's shocks for a day: [overnight, minute 0..959] with their variance scales. */
interface FactorDay {
  shocks: Float64Array;
  /** Variance scale of the day (daily state) times each minute's intraday scale; index 0 is overnight. */
  scales: Float64Array;
}

function factorDay(rng: Rng, dailyScale: number): FactorDay {
  const intraday = intradayVarianceScales(rng, MINUTES_PER_DAY);
  const shocks = new Float64Array(MINUTES_PER_DAY + 1), scales = new Float64Array(MINUTES_PER_DAY + 1);
  scales[0] = dailyScale;
  shocks[0] = studentT8(rng);
  for (let m = 0; m < MINUTES_PER_DAY; m++) {
    shocks[m + 1] = studentT8(rng);
    scales[m + 1] = dailyScale * intraday[m];
  }
  return { shocks, scales };
}

/**
 * Builds the minute paths of every security for every day it trades.
 *
 * @example
 * ```ts
 * const paths = buildPricePaths(42, tradingDays("2023-11-20", "2023-11-28"), SECURITIES, actions);
 * paths.get(100001)!.get("2023-11-21")!.price[330]; // AAPL efficient price at 09:30
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
    Number(mergers.some((m) => m.targetAsid === a.asid)) - Number(mergers.some((m) => m.targetAsid === b.asid))
  );
  const start = Rng.for(seed, "vol-start");
  const marketState = new DailyVolState(start);
  const sectors = [...new Set(securities.map((s) => s.sector))];
  const sectorStates = new Map(sectors.map((s) => [s, new DailyVolState(start)]));
  const ownStates = new Map(securities.map((s) => [s.asid, new DailyVolState(Rng.for(seed, "vol-start", String(s.asid)))]));
  const reactions = new Map(securities.map((s) => [s.asid, earningsOf(s.asid).map((e) => ({ e, day: reactionDay(e) }))]));
  let lastMarketShock = 0;

  for (const [dayIndex, day] of days.entries()) {
    const weights = varianceWeights(day, OPEN_DISCOVERY_FACTORS), ownWeights = varianceWeights(day, OPEN_DISCOVERY_OWN);
    const stateRng = Rng.for(seed, "vol-state", day.date);
    if (dayIndex > 0) {
      marketState.step(stateRng, lastMarketShock, LEVERAGE);
      for (const s of sectors) sectorStates.get(s)!.step(stateRng);
    }
    const market = factorDay(Rng.for(seed, "market", day.date), marketState.varianceScale());
    const sectorDays = new Map(
      sectors.map((s) => [s, factorDay(Rng.for(seed, "sector", s, day.date), sectorStates.get(s)!.varianceScale())]),
    );
    let marketMove = 0;
    for (let m = 0; m <= MINUTES_PER_DAY; m++) {
      const w = m === 0 ? OVERNIGHT_VARIANCE_SHARE : (1 - OVERNIGHT_VARIANCE_SHARE) * weights[m - 1];
      marketMove += Math.sqrt(w * market.scales[m]) * market.shocks[m];
    }
    lastMarketShock = marketMove / Math.sqrt(marketState.varianceScale());

    for (const sec of ordered) {
      if (!tradesOn(sec.asid, day.date, actions)) continue;
      const rng = Rng.for(seed, "path", String(sec.asid), day.date);
      const own = ownStates.get(sec.asid)!;
      if (dayIndex > 0) own.step(rng);
      const dailyVol = sec.annualVol / Math.sqrt(TRADING_DAYS_PER_YEAR);
      const systematic = sec.beta * marketDailyVol;
      const residualVar = Math.max(dailyVol * dailyVol - systematic * systematic, 1e-10);
      const sectorLoad = Math.sqrt(sec.sectorShare * residualVar), ownVol = Math.sqrt((1 - sec.sectorShare) * residualVar);
      // Earnings: the jump at the report, and a lift of the name's volatility from the reaction day on.
      const reaction = reactions.get(sec.asid)!.find((r) => r.e.date === day.date || r.day === day.date);
      const lift = reaction?.day === day.date ? EARNINGS_VOL_LIFT : 0;
      if (lift) own.x += lift;
      const ownDay = factorDay(rng, own.varianceScale());
      const sectorDay = sectorDays.get(sec.sector)!;
      const jumpAt = reaction?.e.date === day.date
        ? (reaction.e.timing === "after-close" ? day.closeMinute + 5 : 7 * 60) - FIRST_MINUTE_OF_DAY
        : -1;
      const jump = jumpAt >= 0
        ? (rng.chance(0.5) ? 1 : -1) * (EARNINGS_JUMP_MIN + EARNINGS_JUMP_SD * Math.abs(rng.normal())) * dailyVol
        : 0;
      const hasNews = (sec.kind === "common" || sec.kind === "adr") && jumpAt < 0 && rng.chance(NEWS_PROBABILITY);
      const news = hasNews ? NEWS_SD * rng.normal() * dailyVol : 0;

      const price = new Float64Array(MINUTES_PER_DAY + 1), activity = new Float64Array(MINUTES_PER_DAY);
      const baseline = systematic * systematic + residualVar;
      let x = level.get(sec.asid)! + Math.log(priceFactorOn(sec.asid, day.date, actions) * (1 - exDividendDrop(sec.asid, day.date)));
      let factor = 0, seen = 0;
      const follow = 1 - Math.exp(-1 / sec.lagMinutes);
      for (let m = 0; m <= MINUTES_PER_DAY; m++) {
        const w = m === 0 ? OVERNIGHT_VARIANCE_SHARE : (1 - OVERNIGHT_VARIANCE_SHARE) * weights[m - 1];
        const wOwn = m === 0 ? OVERNIGHT_VARIANCE_SHARE : (1 - OVERNIGHT_VARIANCE_SHARE) * ownWeights[m - 1];
        const marketPart = systematic * Math.sqrt(w * market.scales[m]) * market.shocks[m];
        const sectorPart = sectorLoad * Math.sqrt(w * sectorDay.scales[m]) * sectorDay.shocks[m];
        const ownPart = ownVol * Math.sqrt(wOwn * ownDay.scales[m]) * ownDay.shocks[m];
        if (m === 0) {
          x += MARKET_DAILY_DRIFT * sec.beta + marketPart + sectorPart + ownPart + news;
          price[0] = x;
          continue;
        }
        // The factors' moves reach this security's price over about lagMinutes.
        factor += marketPart + sectorPart;
        const absorbed = follow * (factor - seen);
        seen += absorbed;
        x += absorbed + ownPart + (m - 1 === jumpAt ? jump : 0);
        price[m] = x;
        const variance = systematic * systematic * market.scales[m] + sectorLoad * sectorLoad * sectorDay.scales[m] +
          ownVol * ownVol * ownDay.scales[m];
        activity[m - 1] = (variance / baseline) ** ACTIVITY_ELASTICITY;
      }
      // News brings a burst of trading that fades over the next hour.
      if (jumpAt >= 0) { for (let m = jumpAt; m < MINUTES_PER_DAY; m++) activity[m] *= 1 + 8 * Math.exp(-(m - jumpAt) / 45); }
      const openAt = OPEN_MINUTE_OF_DAY - FIRST_MINUTE_OF_DAY;
      if (hasNews) { for (let m = openAt; m < MINUTES_PER_DAY; m++) activity[m] *= 1 + 2 * Math.exp(-(m - openAt) / 90); }
      x += factor - seen; // what the lag had not yet passed on arrives overnight
      level.set(sec.asid, x);
      if (lift) own.x -= lift * 0.5; // the lift fades with the state from here
      const deal = mergers.find((m) => m.targetAsid === sec.asid);
      if (deal) {
        const acquirer = paths.get(deal.acquirerAsid)!.get(day.date)!.price;
        const daysLeft = days.findIndex((d) => d.date >= deal.effectiveDate) - dayIndex;
        const spread = Math.min(0.0015 * Math.max(daysLeft, 1), 0.04);
        const ownStart = price[0];
        for (let m = 0; m <= MINUTES_PER_DAY; m++) {
          const dealValue = deal.shareRatio * acquirer[m] + deal.cashPerShare;
          // A little of the target's own noise keeps the arbitrage spread from being perfectly smooth.
          price[m] = dealValue * (1 - spread) * Math.exp(0.05 * (price[m] - ownStart));
        }
        level.set(sec.asid, Math.log(price[MINUTES_PER_DAY]));
      } else {
        for (let m = 0; m <= MINUTES_PER_DAY; m++) price[m] = Math.exp(price[m]);
      }
      paths.get(sec.asid)!.set(day.date, { price, activity });
    }
  }
  return paths;
}
