/**
 * One option root on one trading day: list the expiries and strikes its schedule calls for
 * around today's underlying value, quote every contract at the last minute around its model
 * price on today's surface, value the quotes (pricing.ts), report open interest, and move open
 * interest on to tomorrow.
 */
import type { TradingDay } from "../../../calendar/calendar.ts";
import { nyEpochMs } from "../../../calendar/nyTime.ts";
import { Rng } from "../rng.ts";
import type { Chain, Contract } from "./chain.ts";
import { DAYS_PER_YEAR, type OptionTerms } from "./contract.ts";
import { daysBetween, listedExpiries } from "./expiries.ts";
import { nextOpenInterest, seasonedOpenInterest, targetOpenInterest } from "./openInterest.ts";
import { priceExpiry, type PricingInput } from "./pricing.ts";
import type { Row } from "../frames.ts";
import { quoteAround, quoteTimes, type SpreadClass } from "./quotes.ts";
import { dividendYield } from "../ticks/dividends.ts";
import { RISK_FREE_RATE } from "./rates.ts";
import type { OptionRoot } from "./roots.ts";
import { strikesToList } from "./strikes.ts";
import { atmVol, surfaceVol, type VolLevel, withEventVariance } from "./volSurface.ts";
import { earningsMoveVariance, earningsReactionBetween } from "../ticks/events.ts";
import { SECURITIES } from "../securities.ts";
import { modelSolve } from "./valuation.ts";

export interface RootDayInput {
  seed: number;
  day: TradingDay;
  root: OptionRoot;
  chain: Chain;
  level: VolLevel;
  /** Underlying value per share-equivalent at the root's last minute. */
  value: number;
  /** Epoch ns of the underlying minute bar the value was read from. */
  valueTimeNs: bigint;
  /** True on the market's first day, when contracts already have a history of open interest. */
  seasoned: boolean;
  /** Epoch ms at which today's open interest was published. */
  publishedMs: bigint;
  greeks: Row[];
  openInterest: Row[];
}

const WEEK = 7 / DAYS_PER_YEAR;

/**
 * Generates the root's rows for the day into `input.greeks` and `input.openInterest`.
 *
 * @example
 * ```ts
 * const greeks: Row[] = [], openInterest: Row[] = [];
 * rootDay({ seed: 42, day, root, chain, level, value: 174.465, valueTimeNs, seasoned: true, publishedMs, greeks, openInterest });
 * ```
 */
export function rootDay(input: RootDayInput): void {
  const { seed, day, root, chain, level, value } = input;
  const date = day.date;
  const q = dividendYield(root.underSecId);
  const oiRng = Rng.for(seed, "open-interest", root.ticker, date);
  const target = (c: Contract) => {
    const days = daysBetween(date, c.expiry), years = days / DAYS_PER_YEAR;
    const sd = atmVol(level, years) * Math.sqrt(Math.max(years, WEEK));
    return targetOpenInterest({
      tier: root.tier,
      index: root.kind === "index",
      putHeavy: root.underType === "etf" || root.underType === "index",
      call: c.call,
      strike: c.strike,
      spot: value,
      kind: c.kind,
      sd,
      daysToExpiry: days,
    });
  };
  chain.dropExpired(date);
  if (root.schedule) {
    for (const expiry of listedExpiries(date, root.schedule)) {
      const years = daysBetween(date, expiry.date) / DAYS_PER_YEAR;
      const horizon = expiry.kind === "daily"
        ? root.schedule.dailyDays ?? 0
        : expiry.kind === "weekly"
        ? root.schedule.weeklyDays
        : expiry.kind === "monthly"
        ? 100
        : root.schedule.quarterlyDays;
      chain.list(
        expiry,
        strikesToList(value, atmVol(level, years), years, root.tier, root.kind === "index", root.nearIncrement),
        (c) => input.seasoned ? seasonedOpenInterest(oiRng, target(c), horizon - daysBetween(date, c.expiry)) : 0,
      );
    }
  }
  const contracts = chain.sorted();
  for (const c of contracts) {
    input.openInterest.push({
      TradeDate: date,
      EventDateTime: input.publishedMs,
      Ticker: root.ticker,
      CallPut: c.call ? "C" : "P",
      Strike: c.strike,
      ExpirationDate: c.expiry,
      OpenInterest: c.openInterest,
    });
  }
  if (root.greeksCoverage) priceContracts(input, contracts.filter((c) => c.expiry > date), q);
  for (const c of contracts) {
    if (c.expiry > date) c.openInterest = nextOpenInterest(oiRng, c.openInterest, target(c), root.kind === "adjusted");
  }
}

function priceContracts(input: RootDayInput, contracts: readonly Contract[], q: number): void {
  const { seed, day, root, level, value } = input;
  const rng = Rng.for(seed, "option-quotes", root.ticker, day.date);
  const cls: SpreadClass = root.kind === "adjusted"
    ? "adjusted"
    : root.kind === "index"
    ? "index"
    : root.tickClass === "penny-all"
    ? "etf"
    : root.tier;
  const skew = root.underType === "etf" || root.underType === "index" ? "index" : "stock";
  const closeMs = (day.closeMinute + (root.lateClose ? 15 : 0)) * 60_000;
  for (let start = 0; start < contracts.length;) {
    let end = start;
    while (end < contracts.length && contracts[end].expiry === contracts[start].expiry) end++;
    const group = contracts.slice(start, end);
    const days = daysBetween(day.date, group[0].expiry);
    const years = days / DAYS_PER_YEAR;
    const forward = value * Math.exp((RISK_FREE_RATE - q) * years);
    // An earnings report before expiry adds its expected move's variance (and nothing once past).
    const under = SECURITIES.find((s) => s.asid === root.underAsid);
    const event = under && root.kind === "standard" && earningsReactionBetween(under.asid, day.date, group[0].expiry)
      ? earningsMoveVariance(under.annualVol)
      : 0;
    const quoted = group.map((c) => {
      const terms: OptionTerms = {
        call: c.call,
        american: root.american,
        spot: value,
        strike: c.strike,
        years,
        rate: RISK_FREE_RATE,
        dividendYield: q,
      };
      const vol = withEventVariance(surfaceVol(level, skew, c.strike, forward, years), years, event);
      const fair = modelSolve(terms, vol, undefined, undefined, false); // a price to quote around; Greeks at the implied vol
      const quote = quoteAround(rng, fair.price, cls, root.tickClass);
      const quietness = Math.abs(Math.log(c.strike / forward)) / (vol * Math.sqrt(Math.max(years, WEEK))) + (days > 120 ? 1 : 0);
      const times = quoteTimes(rng, closeMs, cls, quietness);
      return { c, input: { terms, mid: quote.mid, fair, surfaceVol: vol } as PricingInput, quote, times };
    });
    const valued = priceExpiry(quoted.map((x) => x.input));
    for (const [k, { c, quote, times }] of quoted.entries()) {
      const { vol, status, valuation: v } = valued[k];
      input.greeks.push({
        TradeDate: day.date,
        Ticker: root.ticker,
        CallPut: c.call ? "C" : "P",
        OptionStyle: root.american ? "A" : "E",
        Strike: c.strike,
        ExpirationDate: c.expiry,
        YearsToMaturity: years,
        DaysToMaturity: days,
        UnderLastMidPrice: value,
        UnderLastMidTime: input.valueTimeNs,
        LastBidPrice: quote.bid,
        LastMidPrice: quote.mid,
        LastAskPrice: quote.ask,
        LastBidTime: BigInt(nyEpochMs(day.date, times.bidMs)),
        LastAskTime: BigInt(nyEpochMs(day.date, times.askMs)),
        MidImpliedVol: status === "not converged" ? NaN : vol,
        MidTheoPrice: v?.price ?? NaN,
        MidDelta: v?.delta ?? NaN,
        MidGamma: v?.gamma ?? NaN,
        MidTheta: v?.theta ?? NaN,
        MidVega: v?.vega ?? NaN,
        MidRho: v?.rho ?? NaN,
        ImpliedVolConvergence: status,
      });
    }
    start = end;
  }
}
