/**
 * The option market beside the equities, generated day by day right after each day's equity
 * bars so that every option quote is consistent with its underlying's last NBBO mid. It holds
 * what carries from one day to the next: each root's listed contracts (with their open
 * interest) and each underlying's volatility level. Roots start and stop as the corporate
 * actions dictate; an adjusted or renamed root takes over its predecessor's contracts.
 */
import type { TradingDay } from "../../../calendar/calendar.ts";
import { type CorporateAction, priceFactorOn } from "../corporateActions.ts";
import { nyEpochMs, nyEpochNs } from "../../../calendar/nyTime.ts";
import { Rng } from "../rng.ts";
import type { Security } from "../securities.ts";
import { FIRST_MINUTE_OF_DAY } from "../ticks/intraday.ts";
import { Chain } from "./chain.ts";
import type { Row } from "../frames.ts";
import { fractionalShares, type OptionRoot, planRoots } from "./roots.ts";
import { rootDay } from "./rootDay.ts";
import { advanceLevel, initialLevel, type VolLevel } from "./volSurface.ts";

/** An underlying's NBBO at the close of each minute bar of the day (index 0 is the 04:00 bar). */
export interface CloseQuotes {
  bid: Float64Array;
  ask: Float64Array;
}

/** The rows of the two daily option datasets for one trading day. */
export interface OptionsDay {
  greeks: Row[];
  openInterest: Row[];
}

/** First and last trading days on which a root had contracts. */
export interface RootHistory {
  first: string;
  last: string;
}

const NS_PER_MINUTE = 60_000_000_000n;

export class OptionsMarket {
  readonly roots: OptionRoot[];
  /** Trading days each root had contracts on, by root ticker. */
  readonly history = new Map<string, RootHistory>();
  /** Price of an adjusted root's share component on its first day (the acquirer's close mid), by root ticker. */
  readonly processPrices = new Map<string, number>();
  private readonly chains = new Map<string, Chain>();
  private readonly levels = new Map<number, VolLevel>();
  private readonly lastMid = new Map<number, number>();
  private days = 0;

  constructor(
    private readonly seed: number,
    tradingDays: readonly TradingDay[],
    private readonly securities: readonly Security[],
    private readonly actions: readonly CorporateAction[],
  ) {
    this.roots = planRoots(securities, actions, tradingDays).sort((a, b) => (a.ticker < b.ticker ? -1 : 1));
    for (const r of this.roots) this.chains.set(r.ticker, new Chain());
  }

  /**
   * The option rows of a day, given the close NBBO of every underlying trading that day.
   *
   * @example
   * ```ts
   * const market = new OptionsMarket(42, days, securities, actions);
   * const { greeks, openInterest } = market.day(days[0], quotes);
   * ```
   */
  day(day: TradingDay, quotes: ReadonlyMap<number, CloseQuotes>): OptionsDay {
    const regular = day.closeMinute - 1 - FIRST_MINUTE_OF_DAY;
    const mid = (asid: number, minute: number) => {
      const q = quotes.get(asid);
      return q ? (q.bid[minute] + q.ask[minute]) / 2 : NaN;
    };
    this.advanceLevels(day.date, (asid) => mid(asid, regular));
    const active = this.roots.filter((r) => (r.firstDay ?? "") <= day.date && (r.lastDay ?? "9999") >= day.date);
    for (const r of active) {
      if (r.firstDay !== day.date || !r.predecessor) continue;
      this.chains.get(r.ticker)!.takeOver(this.chains.get(r.predecessor)!);
      const price = mid(r.deliverable.shares[0].asid, regular);
      this.processPrices.set(r.ticker, price);
      // OCC pays a fractional acquirer share in cash, at its price on the effective date.
      if (r.action?.kind === "merger") r.deliverable.cash += Math.round(fractionalShares(r.action) * price * 100) / 100;
    }
    const publishedRng = Rng.for(this.seed, "open-interest-published", day.date);
    const publishedMs = BigInt(nyEpochMs(day.date, (6 * 60 + 30) * 60_000 + Math.floor(publishedRng.uniform() * 20 * 60_000)));
    const out: OptionsDay = { greeks: [], openInterest: [] };
    for (const root of active) {
      // Index options value the index as of the equity close; the rest read their underlying at their own last minute.
      const minute = root.lateClose && root.kind !== "index" ? regular + 15 : regular;
      const value = root.deliverable.shares.reduce((sum, s) => sum + s.units * mid(s.asid, minute), root.deliverable.cash) / 100;
      if (!(value > 0)) continue;
      rootDay({
        seed: this.seed,
        day,
        root,
        chain: this.chains.get(root.ticker)!,
        level: this.levels.get(root.underAsid)!,
        value: Math.round(value * 1e6) / 1e6,
        valueTimeNs: nyEpochNs(day.date, BigInt(FIRST_MINUTE_OF_DAY + minute) * NS_PER_MINUTE),
        seasoned: this.days === 0,
        publishedMs,
        greeks: out.greeks,
        openInterest: out.openInterest,
      });
      if (this.chains.get(root.ticker)!.size > 0) {
        const h = this.history.get(root.ticker);
        this.history.set(root.ticker, { first: h?.first ?? day.date, last: day.date });
      }
    }
    this.days++;
    return out;
  }

  /** Moves each underlying's volatility level by its split-adjusted close-to-close return. */
  private advanceLevels(date: string, closeMid: (asid: number) => number): void {
    for (const s of this.securities) {
      const m = closeMid(s.asid);
      if (!(m > 0)) continue;
      const previous = this.lastMid.get(s.asid);
      let level = this.levels.get(s.asid) ?? initialLevel(s.annualVol, s.kind === "etf" ? "index" : "stock");
      if (previous !== undefined) {
        const logReturn = Math.log(m / (previous * priceFactorOn(s.asid, date, this.actions)));
        level = advanceLevel(level, logReturn, Rng.for(this.seed, "vol-level", String(s.asid), date));
      }
      this.levels.set(s.asid, level);
      this.lastMid.set(s.asid, m);
    }
  }
}
