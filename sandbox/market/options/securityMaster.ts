/**
 * `opt-sec-master`: one record per option root the market ever had, listed or delisted, with
 * the trade-date ranges of the root and of its underlying (`YYYYMMDD:YYYYMMDD`, `29991231` while
 * in use). History before the market's first day is synthetic: every root is taken to have
 * traded since the master's coverage starts (2012), or since its underlying listed.
 */
import type { TradingDay } from "../../../calendar/calendar.ts";
import { type CorporateAction, tickerOn, tradesOn } from "../corporateActions.ts";
import type { Security } from "../securities.ts";
import type { Row } from "../frames.ts";
import type { RootHistory } from "./optionsMarket.ts";
import type { OptionRoot } from "./roots.ts";

const IN_USE = "29991231";
const COVERAGE_START = "2012-01-03";
/** Underlyings that listed after the coverage start (the first trading day of Block, Inc.). */
const LISTED_SINCE: Readonly<Record<number, string>> = { 100013: "2015-11-19" };

const compact = (date: string) => date.replaceAll("-", "");
const range = (from: string, to: string | undefined) => `${compact(from)}:${to === undefined ? IN_USE : compact(to)}`;

export interface SecurityMasterInput {
  roots: readonly OptionRoot[];
  history: ReadonlyMap<string, RootHistory>;
  days: readonly TradingDay[];
  securities: readonly Security[];
  actions: readonly CorporateAction[];
}

/**
 * The security master's records, in ASID order.
 *
 * @example
 * ```ts
 * const rows = securityMasterRows({ roots: market.roots, history: market.history, days, securities, actions });
 * rows.find((r) => r.OptionTicker === "SQ")!.OptionListStatus; // "D"
 * ```
 */
export function securityMasterRows({ roots, history, days, securities, actions }: SecurityMasterInput): Row[] {
  const first = days[0].date, last = days.at(-1)!.date;
  const rows = roots.map((root) => {
    const traded = history.get(root.ticker);
    const since = root.firstDay ?? (root.kind === "index" ? COVERAGE_START : listedSince(root.underSecId));
    // A root stops at its last day, or once its last contract has expired.
    const until = root.lastDay ?? (traded && traded.last < last ? traded.last : undefined);
    const optionTradeDates = [range(since, until)];
    return {
      ASID: root.asid,
      OptionTicker: root.ticker,
      UnderTicker: root.underTicker,
      UnderType: root.underType,
      OptionType: "vanilla",
      OptionStyle: root.american ? "A" : "E",
      IsWeekly: (root.schedule?.weeklyDays ?? 0) > 0 ? "Y" : "N",
      MarketClose: root.lateClose ? "16:15" : "16:00",
      SettlType: root.kind === "index" ? "cash-pm" : "physical",
      SettlTicker: root.kind === "index" ? root.underTicker : "",
      OptionTradeDates: optionTradeDates,
      OptionListStatus: until === undefined ? "L" : "D",
      UnderSecId: root.underSecId,
      UnderTradeDates: root.kind === "index" ? [range(COVERAGE_START, undefined)] : underTradeDates(root, securities, actions, days, first),
      GreeksCoverage: root.greeksCoverage ? "Y" : "N",
    } satisfies Row;
  });
  return rows.sort((a, b) => a.ASID - b.ASID);
}

const listedSince = (secId: number) => LISTED_SINCE[secId] ?? COVERAGE_START;

/** Ranges the root's underlying traded under the root's UnderTicker. */
function underTradeDates(
  root: OptionRoot,
  securities: readonly Security[],
  actions: readonly CorporateAction[],
  days: readonly TradingDay[],
  first: string,
): string[] {
  const s = securities.find((x) => x.asid === root.underSecId)!;
  const under = days.filter((d) => tradesOn(s.asid, d.date, actions) && tickerOn(s.asid, s.ticker, d.date, actions) === root.underTicker);
  if (under.length === 0) return [];
  const from = under[0].date === first ? listedSince(s.asid) : under[0].date;
  return [range(from, under.at(-1)!.date === days.at(-1)!.date ? undefined : under.at(-1)!.date)];
}
