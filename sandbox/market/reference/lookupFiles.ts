/**
 * `eq-lookup-files`: which security a ticker named up to an end date. A ticker change ends the
 * old ticker the calendar day before the change and starts the new one under the same SecId; a
 * merger ends the target's ticker the day before the effective date. A ticker still in use
 * ends 2999-12-31. To resolve (ticker, date), take the ticker's record with the earliest
 * EndDate on or after the date.
 */
import { addDays } from "../../../calendar/nyTime.ts";
import type { CorporateAction } from "../corporateActions.ts";
import type { Row } from "../frames.ts";
import type { Security } from "../securities.ts";

const STILL_IN_USE = "2999-12-31";

/**
 * Lookup records of the market's securities, in key order (ticker, end date).
 *
 * @example
 * ```ts
 * lookupRows(securities, actions).filter((r) => r.SecId === 100013);
 * // [{ Ticker: "SQ", EndDate: "2024-01-04", SecId: 100013 }, { Ticker: "XYZ", EndDate: "2999-12-31", SecId: 100013 }]
 * ```
 */
export function lookupRows(securities: readonly Security[], actions: readonly CorporateAction[]): Row[] {
  const rows: Row[] = [];
  for (const s of securities) {
    let ticker = s.ticker;
    for (const a of actions) {
      if (a.kind === "ticker-change" && a.asid === s.asid) {
        rows.push({ Ticker: ticker, EndDate: addDays(a.date, -1), SecId: s.asid });
        ticker = a.newTicker;
      }
    }
    const merger = actions.find((a) => a.kind === "merger" && a.targetAsid === s.asid);
    rows.push({ Ticker: ticker, EndDate: merger?.kind === "merger" ? addDays(merger.effectiveDate, -1) : STILL_IN_USE, SecId: s.asid });
  }
  return rows.sort((a, b) => (a.Ticker < b.Ticker ? -1 : a.Ticker > b.Ticker ? 1 : a.EndDate < b.EndDate ? -1 : 1));
}
