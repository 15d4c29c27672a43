/**
 * Scheduled events of the securities: earnings reports of the common stocks (and the ADR) on
 * their 2023-24 dates, and quarterly ex-dividend days whose drop is the quarter's share of the
 * continuous dividend yield the option model uses (dividends.ts), so the two agree. Also the
 * calendar's quiet and busy days (early closes, the holiday week, quadruple witching).
 * An event outside a profile's range simply does not happen in it.
 */
import { isTradingDay, type TradingDay } from "../../../calendar/calendar.ts";
import { addDays } from "../../../calendar/nyTime.ts";
import { dividendYield } from "./dividends.ts";

/** An earnings report: the date it lands and whether before the open or after the close. */
export interface Earnings {
  date: string;
  timing: "before-open" | "after-close";
}

/** Earnings dates by ASID, as the companies reported in 2023 and early 2024. */
const EARNINGS: Readonly<Record<number, readonly Earnings[]>> = {
  100001: [{ date: "2023-08-03", timing: "after-close" }, { date: "2023-11-02", timing: "after-close" }], // AAPL
  100002: [{ date: "2023-07-25", timing: "after-close" }, { date: "2023-10-24", timing: "after-close" }, {
    date: "2024-01-30",
    timing: "after-close",
  }], // MSFT
  100003: [{ date: "2023-07-14", timing: "before-open" }, { date: "2023-10-13", timing: "before-open" }, {
    date: "2024-01-12",
    timing: "before-open",
  }], // JPM
  100006: [{ date: "2023-07-20", timing: "before-open" }, { date: "2023-10-19", timing: "before-open" }, {
    date: "2024-01-18",
    timing: "before-open",
  }], // TSM
  100009: [{ date: "2023-07-26", timing: "after-close" }, { date: "2023-10-25", timing: "after-close" }], // ODFL
  100010: [{ date: "2023-07-27", timing: "before-open" }, { date: "2023-10-26", timing: "before-open" }], // SIRI
  100011: [{ date: "2023-07-26", timing: "before-open" }, { date: "2023-10-25", timing: "before-open" }], // HES
  100012: [{ date: "2023-07-28", timing: "before-open" }, { date: "2023-10-27", timing: "before-open" }], // CVX
  100013: [{ date: "2023-08-03", timing: "after-close" }, { date: "2023-11-02", timing: "after-close" }], // SQ
};

/** Ex-dividend dates by ASID (quarterly payers; SPY and QQQ in the last month of each quarter). */
const EX_DIVIDENDS: Readonly<Record<number, readonly string[]>> = {
  100001: ["2023-05-12", "2023-08-11", "2023-11-10"], // AAPL
  100002: ["2023-05-17", "2023-08-16", "2023-11-15"], // MSFT
  100003: ["2023-07-05", "2023-10-05", "2024-01-04"], // JPM
  100004: ["2023-06-16", "2023-09-15", "2023-12-15"], // SPY
  100005: ["2023-06-20", "2023-09-18", "2023-12-18"], // QQQ
  100006: ["2023-06-15", "2023-09-14", "2023-12-14"], // TSM
  100009: ["2023-06-01", "2023-08-30", "2023-11-30"], // ODFL
  100010: ["2023-05-09", "2023-08-09", "2023-11-08"], // SIRI
  100011: ["2023-06-15", "2023-09-14", "2023-12-14"], // HES
  100012: ["2023-05-18", "2023-08-17", "2023-11-16"], // CVX
};

/**
 * The day the market reacts to a report: the report day before the open, the next trading
 * day after the close.
 *
 * @example
 * ```ts
 * reactionDay({ date: "2023-11-02", timing: "after-close" }); // "2023-11-03"
 * ```
 */
export function reactionDay(e: Earnings): string {
  if (e.timing === "before-open") return e.date;
  let d = addDays(e.date, 1);
  while (!isTradingDay(d)) d = addDays(d, 1);
  return d;
}

/** An earnings surprise moves the price by at least this many daily standard deviations, plus a half-normal with this sd. */
export const EARNINGS_JUMP_MIN = 3;
export const EARNINGS_JUMP_SD = 1.5;

/**
 * Expected squared earnings move, as a share of the price squared, for a name of annual
 * volatility `annualVol`: what options expiring after the report price in (and lose after it).
 *
 * @example
 * ```ts
 * earningsMoveVariance(0.2); // 0.0029: a move of about 5.4%
 * ```
 */
export function earningsMoveVariance(annualVol: number): number {
  const dailyVar = (annualVol * annualVol) / 252;
  const halfNormalMean = Math.sqrt(2 / Math.PI);
  return dailyVar * (EARNINGS_JUMP_MIN ** 2 + 2 * EARNINGS_JUMP_MIN * EARNINGS_JUMP_SD * halfNormalMean + EARNINGS_JUMP_SD ** 2);
}

/** The next earnings reaction day of a security after `date` and on or before `until`, if any. */
export function earningsReactionBetween(asid: number, date: string, until: string): string | undefined {
  return earningsOf(asid).map(reactionDay).find((d) => d > date && d <= until);
}

/** Every earnings report of a security. */
export function earningsOf(asid: number): readonly Earnings[] {
  return EARNINGS[asid] ?? [];
}

/**
 * Fraction of the price a security drops by at the open of `date` for its dividend (0 on any
 * other day): a quarter of its continuous dividend yield.
 *
 * @example
 * ```ts
 * exDividendDrop(100012, "2023-11-16"); // 0.01 (CVX, 4% a year)
 * ```
 */
export function exDividendDrop(asid: number, date: string): number {
  return EX_DIVIDENDS[asid]?.includes(date) ? dividendYield(asid) / 4 : 0;
}

/** Third Friday of March, June, September or December: index options and futures expire, rebalances trade at the close. */
export function isQuadWitching(date: string): boolean {
  const month = Number(date.slice(5, 7)), day = Number(date.slice(8, 10));
  return month % 3 === 0 && day >= 15 && day <= 21 && new Date(`${date}T12:00:00Z`).getUTCDay() === 5;
}

/**
 * A day's volume relative to an ordinary day: early closes and the week between Christmas and
 * New Year are quiet, quadruple witching is busy.
 *
 * @example
 * ```ts
 * seasonalVolume({ date: "2023-11-24", earlyClose: true, ... }); // 0.55
 * ```
 */
export function seasonalVolume(day: TradingDay): number {
  if (day.earlyClose) return 0.55;
  const md = day.date.slice(5);
  if (md >= "12-26" && md <= "12-31") return 0.62;
  if (isQuadWitching(day.date)) return 1.5;
  return 1;
}
