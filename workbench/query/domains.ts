/**
 * Columns whose values the spec lists in full (`CallPut` is C or P, `OptionStyle` A or E,
 * `IsWeekly` Y or N, ...): a filter value outside the list can match no row, so it is refused
 * before any request, naming the allowed values and the one meant ("CALL": did you mean 'C'?),
 * instead of an empty answer that blames the ticker. `EventType` (the spec's notes: TRADE,
 * QUOTE BID, QUOTE ASK, cancels) and `ImpliedVolConvergence` (computed, interpolated or not
 * converged) take the exact words of the service's column schema (GET .../columns). Columns the
 * spec describes only by example (UnderType "e.g. stock, index", OptionType, SettlType) are
 * left to the service.
 */
import { QueryError } from "../errors/base.ts";
import { nearestNames } from "../errors/nearest.ts";

/** One allowed value and what it means. */
export interface Allowed {
  /** The value as the service writes it, e.g. `C`. */
  value: string;
  /** What it means, e.g. `call`. */
  means: string;
}

const CALL_PUT: Allowed[] = [{ value: "C", means: "call" }, { value: "P", means: "put" }];
const STYLE: Allowed[] = [{ value: "A", means: "American" }, { value: "E", means: "European" }];
const YES_NO: Allowed[] = [{ value: "Y", means: "yes" }, { value: "N", means: "no" }];
const LIST_STATUS: Allowed[] = [{ value: "L", means: "listed" }, { value: "D", means: "delisted" }];
const EVENT_TYPE: Allowed[] = [
  { value: "TRADE", means: "a trade" },
  { value: "QUOTE BID", means: "a bid quote" },
  { value: "QUOTE ASK", means: "an ask quote" },
  { value: "TRADE CANCEL", means: "a cancelled trade" },
];
const CONVERGENCE: Allowed[] = [
  { value: "computed", means: "by the model" },
  { value: "interpolated", means: "from nearby contracts of the expiry" },
  { value: "not converged", means: "no implied volatility" },
];

/** The closed value lists of the spec (datasets-service.md), by dataset and column. */
const VALUE_DOMAINS: Readonly<Record<string, Readonly<Record<string, readonly Allowed[]>>>> = {
  "opt-greeks-daily": { CallPut: CALL_PUT, OptionStyle: STYLE, ImpliedVolConvergence: CONVERGENCE },
  "opt-open-interest": { CallPut: CALL_PUT },
  "eq-taq": { EventType: EVENT_TYPE },
  "opt-sec-master": { OptionStyle: STYLE, IsWeekly: YES_NO, OptionListStatus: LIST_STATUS, GreeksCoverage: YES_NO },
};

/** The value meant by a word such as "CALL", "put", "american" or "yes", else the nearest by spelling. */
function meant(text: string, allowed: readonly Allowed[]): string[] {
  const lower = text.trim().toLowerCase();
  const byMeaning = allowed.filter((a) =>
    a.value.toLowerCase() === lower || a.means.toLowerCase() === lower || (lower.length > 1 && a.means.toLowerCase().startsWith(lower))
  );
  if (byMeaning.length) return byMeaning.map((a) => a.value);
  return nearestNames(text, allowed.map((a) => a.value));
}

/**
 * Refuses a filter value (compared with `eq` or `in`) outside the column's closed list.
 *
 * @example
 * ```ts
 * checkDomain("opt-greeks-daily", "CallPut", "eq", ["CALL"]);
 * // QueryError: Cannot filter opt-greeks-daily.CallPut by 'CALL': CallPut is C (call) or P (put) (did you mean 'C'?)
 * ```
 */
export function checkDomain(dataset: string, column: string, op: string, texts: readonly string[]): void {
  const allowed = VALUE_DOMAINS[dataset]?.[column];
  if (!allowed || (op !== "eq" && op !== "in")) return;
  for (const text of texts) {
    if (allowed.some((a) => a.value === text)) continue;
    const near = meant(text, allowed);
    const named = allowed.map((a) => `${a.value} (${a.means})`);
    const list = `${named.slice(0, -1).join(", ")} or ${named.at(-1)}`;
    throw new QueryError(
      `Cannot filter ${dataset}.${column} by '${text}': ${column} is ${list}${near.length ? ` (did you mean '${near[0]}'?)` : ""}`,
    );
  }
}
