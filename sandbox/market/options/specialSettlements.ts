/**
 * `occ-eq-spec-settl`: the deliverables of the adjusted roots, one record per component, as
 * OCC announces them on the corporate action's ex or effective date. The strike is allocated
 * to components by their value on that date (StrikePercent, whole percents summing to 100).
 */
import type { Security } from "../securities.ts";
import { tickerOn } from "../corporateActions.ts";
import type { CorporateAction } from "../corporateActions.ts";
import type { Row } from "../frames.ts";
import type { OptionRoot } from "./roots.ts";

/**
 * Settlement records of every adjusted root, in key order (process date, root, component).
 * `processPrices` holds each root's share price on its first day.
 *
 * @example
 * ```ts
 * specialSettlementRows(market.roots, market.processPrices, securities, actions);
 * // [{ OptionTicker: "ODFL1", UnderTicker: "ODFL", DeliverableUnits: 150, CashAmount: 0, ... }, ...]
 * ```
 */
export function specialSettlementRows(
  roots: readonly OptionRoot[],
  processPrices: ReadonlyMap<string, number>,
  securities: readonly Security[],
  actions: readonly CorporateAction[],
): Row[] {
  const rows: Row[] = [];
  for (const root of roots) {
    if (root.kind !== "adjusted" || !root.firstDay) continue;
    const date = root.firstDay;
    const shares = root.deliverable.shares.map((s) => {
      const sec = securities.find((x) => x.asid === s.asid)!;
      return {
        ticker: tickerOn(s.asid, sec.ticker, date, actions),
        units: s.units,
        value: s.units * (processPrices.get(root.ticker) ?? NaN),
      };
    });
    const cash = root.deliverable.cash;
    const total = shares.reduce((sum, s) => sum + s.value, cash);
    const components = [
      ...shares.map((s) => ({
        UnderTicker: s.ticker,
        UnderType: "stock",
        SettlementMethod: "physical",
        DeliverableUnits: s.units,
        CashAmount: 0,
        value: s.value,
      })),
      ...(cash > 0
        ? [{ UnderTicker: "USD", UnderType: "cash", SettlementMethod: "cash", DeliverableUnits: 0, CashAmount: cash, value: cash }]
        : []),
    ];
    // Whole percents; the first component takes the rounding so they sum to 100.
    const percents = components.map((c) => (components.length === 1 ? 100 : Math.round((100 * c.value) / total)));
    percents[0] += 100 - percents.reduce((a, b) => a + b, 0);
    components.forEach(({ value: _value, ...c }, k) =>
      rows.push({
        ProcessDate: date,
        SettlementDate: date,
        OptionTicker: root.ticker,
        StrikeCurrency: "USD",
        TotalDelivComponents: components.length,
        DeliveryComponents: k + 1,
        StrikePercent: percents[k],
        ...c,
      })
    );
  }
  return rows.sort((
    a,
    b,
  ) => (a.ProcessDate < b.ProcessDate
    ? -1
    : a.ProcessDate > b.ProcessDate
    ? 1
    : a.OptionTicker < b.OptionTicker
    ? -1
    : a.OptionTicker > b.OptionTicker
    ? 1
    : (a.DeliveryComponents as number) - (b.DeliveryComponents as number))
  );
}
