/**
 * The option roots of a market: a standard root per optionable security, the index root, and
 * the roots corporate actions create. A split that is not whole-number, or a merger, leaves
 * the standard root's terms alone for new listings: every contract outstanding on the ex-date
 * moves to an adjusted root with a digit suffix that delivers the adjusted deliverable (ODFL1:
 * 150 ODFL shares after the 3-for-2 split; SIRI1: 25 SIRI shares after the 1-for-4 reverse
 * split; HES1: 102 CVX shares plus cash after the merger). A ticker change renames the root: the
 * old root stops the day before and a new root under the new ticker takes over its contracts.
 *
 * Root ASIDs are derived from the underlying's ASID (standard 2xxxxx, renamed 21xxxx,
 * adjusted 22xxxx, index 29xxxx) so they are the same in every profile.
 */
import type { TradingDay } from "../../../calendar/calendar.ts";
import type { CorporateAction, Merger } from "../corporateActions.ts";
import type { Security } from "../securities.ts";
import type { ExpirySchedule } from "./expiries.ts";

type RootKind = "standard" | "adjusted" | "index";
/** Quote increments: all pennies (SPY, QQQ); penny class (0.01 under $3, 0.05 above); nickel class (0.05, 0.10). */
export type TickClass = "penny-all" | "penny" | "nickel";

export interface OptionRoot {
  asid: number;
  ticker: string;
  kind: RootKind;
  /** The security whose quotes value the deliverable (the acquirer for a merger's root). */
  underAsid: number;
  underTicker: string;
  underType: "stock" | "etf" | "adr" | "index";
  /** SecId of the underlying in the lookup files (the index has its own). */
  underSecId: number;
  american: boolean;
  /** Liquidity tier 1 (most liquid) to 3; sets expiries, strikes, spreads, open interest. */
  tier: 1 | 2 | 3;
  tickClass: TickClass;
  /** Expiries it lists; undefined for an adjusted root, which never lists new contracts. */
  schedule: ExpirySchedule | undefined;
  /** Strike increment near the money, finer than the ladder's ($1 SPY, 5 points SPX). */
  nearIncrement?: number;
  /** Its options stop trading 15 minutes after the equity close (SPY, QQQ, the index). */
  lateClose: boolean;
  /** Shares per contract by ASID, plus cash per contract (cash in lieu set when known). */
  deliverable: { shares: { asid: number; units: number }[]; cash: number };
  /** First trading day, when it starts inside the market's range. */
  firstDay?: string;
  /** Last trading day, when it stops inside the market's range. */
  lastDay?: string;
  /** The root whose outstanding contracts it takes over on its first day. */
  predecessor?: string;
  /** The corporate action that created it (adjusted roots). */
  action?: CorporateAction;
  /** Whether opt-greeks-daily values it (not when cash is part of the deliverable). */
  greeksCoverage: boolean;
}

/** SecId of the S&P 500 index level the index root settles on. */
const INDEX_SEC_ID = 100100;
/** The index level is this many SPY shares' worth, so 100 index units deliver the value of 1000 SPY. */
const INDEX_PER_SPY = 10;

const SCHEDULES: Readonly<Record<number, ExpirySchedule>> = {
  1: { weeklyDays: 35, monthlies: 3, quarterlyDays: 366 },
  2: { weeklyDays: 21, monthlies: 3, quarterlyDays: 270 },
  3: { weeklyDays: 0, monthlies: 3, quarterlyDays: 190 },
};
/** Daily expiries a week or so ahead (SPY, SPXW). */
const DAILY_SCHEDULE: ExpirySchedule = { ...{ weeklyDays: 35, monthlies: 3, quarterlyDays: 366 }, dailyDays: 8 };
const LIQUIDITY: Readonly<
  Record<string, { tier: 1 | 2 | 3; tickClass: TickClass; lateClose?: boolean; daily?: boolean; nearIncrement?: number }>
> = {
  SPY: { tier: 1, tickClass: "penny-all", lateClose: true, daily: true, nearIncrement: 1 },
  QQQ: { tier: 1, tickClass: "penny-all", lateClose: true },
  AAPL: { tier: 1, tickClass: "penny" },
  MSFT: { tier: 1, tickClass: "penny" },
  JPM: { tier: 2, tickClass: "penny" },
  TSM: { tier: 2, tickClass: "penny" },
  CVX: { tier: 2, tickClass: "penny" },
  SQ: { tier: 2, tickClass: "penny" },
  SIRI: { tier: 3, tickClass: "penny" },
  HES: { tier: 3, tickClass: "penny" },
  ODFL: { tier: 3, tickClass: "nickel" },
};
const UNDER_TYPE = { common: "stock", etf: "etf", adr: "adr", preferred: "stock", warrant: "stock" } as const;

/** The previous trading day of the market before `date`. */
const dayBefore = (days: readonly TradingDay[], date: string) => days[days.findIndex((d) => d.date === date) - 1]?.date;

/**
 * Every root the market's options trade under, in a fixed order.
 *
 * @example
 * ```ts
 * const roots = planRoots(securities, planCorporateActions(days), days);
 * roots.find((r) => r.ticker === "ODFL1")!.deliverable; // { shares: [{ asid: 100009, units: 150 }], cash: 0 }
 * ```
 */
export function planRoots(securities: readonly Security[], actions: readonly CorporateAction[], days: readonly TradingDay[]): OptionRoot[] {
  const roots: OptionRoot[] = [];
  const byAsid = new Map(securities.map((s) => [s.asid, s]));
  for (const s of securities.filter((x) => x.optionable)) {
    const liquidity = LIQUIDITY[s.ticker] ?? { tier: 3, tickClass: "nickel" };
    const standard: OptionRoot = {
      asid: 200000 + (s.asid - 100000),
      ticker: s.ticker,
      kind: "standard",
      underAsid: s.asid,
      underTicker: s.ticker,
      underType: UNDER_TYPE[s.kind],
      underSecId: s.asid,
      american: true,
      tier: liquidity.tier,
      tickClass: liquidity.tickClass,
      schedule: liquidity.daily ? DAILY_SCHEDULE : SCHEDULES[liquidity.tier],
      nearIncrement: liquidity.nearIncrement,
      lateClose: liquidity.lateClose ?? false,
      deliverable: { shares: [{ asid: s.asid, units: 100 }], cash: 0 },
      greeksCoverage: true,
    };
    roots.push(standard);
    const adjusted = (ticker: string, firstDay: string, action: CorporateAction, patch: Partial<OptionRoot>): OptionRoot => ({
      ...standard,
      asid: 220000 + (s.asid - 100000),
      ticker,
      kind: "adjusted",
      tickClass: "nickel",
      schedule: undefined,
      firstDay,
      lastDay: undefined,
      predecessor: standard.ticker,
      action,
      ...patch,
    });
    for (const a of actions) {
      if (a.kind === "split" && a.asid === s.asid) {
        roots.push(
          adjusted(`${s.ticker}1`, a.exDate, a, {
            deliverable: { shares: [{ asid: s.asid, units: (100 * a.newShares) / a.oldShares }], cash: 0 },
          }),
        );
      } else if (a.kind === "merger" && a.targetAsid === s.asid) {
        standard.lastDay = dayBefore(days, a.effectiveDate);
        const acquirer = byAsid.get(a.acquirerAsid)!;
        roots.push(adjusted(`${s.ticker}1`, a.effectiveDate, a, {
          underAsid: acquirer.asid,
          underTicker: acquirer.ticker,
          underSecId: acquirer.asid,
          deliverable: mergerDeliverable(a),
          greeksCoverage: false,
        }));
      } else if (a.kind === "ticker-change" && a.asid === s.asid) {
        standard.lastDay = dayBefore(days, a.date);
        roots.push({
          ...standard,
          asid: 210000 + (s.asid - 100000),
          ticker: a.newTicker,
          underTicker: a.newTicker,
          firstDay: a.date,
          lastDay: undefined,
          predecessor: standard.ticker,
        });
      }
    }
  }
  const spy = securities.find((s) => s.ticker === "SPY");
  if (spy) {
    roots.push({
      asid: 290001,
      ticker: "SPXW",
      kind: "index",
      underAsid: spy.asid,
      underTicker: "SPX",
      underType: "index",
      underSecId: INDEX_SEC_ID,
      american: false,
      tier: 1,
      tickClass: "nickel",
      schedule: DAILY_SCHEDULE,
      nearIncrement: 5,
      lateClose: true,
      deliverable: { shares: [{ asid: spy.asid, units: 100 * INDEX_PER_SPY }], cash: 0 },
      greeksCoverage: true,
    });
  }
  return roots;
}

/**
 * A merger's adjusted deliverable per contract: the whole acquirer shares of 100 x ratio and
 * 100 x the cash; OCC pays the fractional share in cash, added once its price is known.
 *
 * @example
 * ```ts
 * const hesIntoCvx = { kind: "merger", targetAsid: 100011, acquirerAsid: 100012, effectiveDate: "2023-11-24", shareRatio: 1.025, cashPerShare: 4.5 } as const;
 * mergerDeliverable(hesIntoCvx); // { shares: [{ asid: 100012, units: 102 }], cash: 450 }
 * ```
 */
function mergerDeliverable(a: Merger): OptionRoot["deliverable"] {
  return {
    shares: [{ asid: a.acquirerAsid, units: Math.floor(100 * a.shareRatio + 1e-9) }],
    cash: Math.round(100 * a.cashPerShare * 100) / 100,
  };
}

/**
 * The fraction of an acquirer share per contract paid in cash in lieu.
 *
 * @example
 * ```ts
 * fractionalShares({ kind: "merger", targetAsid: 100011, acquirerAsid: 100012, effectiveDate: "2023-11-24", shareRatio: 1.025, cashPerShare: 4.5 });
 * // 0.5 (100 x 1.025 = 102.5 shares)
 * ```
 */
export function fractionalShares(a: Merger): number {
  return Math.round((100 * a.shareRatio - Math.floor(100 * a.shareRatio + 1e-9)) * 1e6) / 1e6;
}
