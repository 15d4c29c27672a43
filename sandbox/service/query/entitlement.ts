/**
 * Applies an identity's access rule for a dataset to a parsed query: every date the query
 * names must lie in the rule's window (else 422 with the spec's text), every ticker it names
 * exactly must lie in the universe (else 403), and the window and universe are added as
 * filters, so an unfiltered request, a pattern, a sort or a column choice sees only what the
 * rule allows. Nothing in the query can widen what the rule permits.
 */
import type { Dataset } from "../../market/catalog.ts";
import type { AccessRule } from "../state/accounts.ts";
import { dateOutsideWindowError, HttpError } from "../errors.ts";
import type { DataQuery, Filter } from "./parse.ts";

export interface Constraints {
  /** Inclusive date window on the dataset's date column. */
  window?: { start: string; end: string | null; column: string };
  /** Allowed values of the dataset's ticker column. */
  universe?: { tickers: string[]; column: string };
}

export function applyAccessRule(dataset: Dataset, rule: AccessRule, query: DataQuery): Constraints {
  const constraints: Constraints = {};
  if (dataset.dateColumn) {
    constraints.window = { start: rule.start_date, end: rule.end_date, column: dataset.dateColumn };
    for (const f of filtersOn(query, dataset.dateColumn)) {
      for (const v of f.values) {
        const date = String(v);
        if (date < rule.start_date || (rule.end_date !== null && date > rule.end_date)) throw dateOutsideWindowError(date, f.loc);
      }
    }
  }
  if (dataset.tickerColumn && rule.universe_identifiers.length > 0) {
    const allowed = new Set(rule.universe_identifiers);
    constraints.universe = { tickers: rule.universe_identifiers, column: dataset.tickerColumn };
    for (const f of filtersOn(query, dataset.tickerColumn)) {
      if (f.op !== "eq" && f.op !== "in") continue;
      const outside = f.values.map(String).filter((t) => !allowed.has(t));
      if (outside.length > 0) {
        throw new HttpError(
          403,
          `Ticker '${outside[0]}' is outside of the allowed universe for this account in dataset ${dataset.textId}: allowed tickers are ${
            rule.universe_identifiers.join(", ")
          }`,
        );
      }
    }
  }
  return constraints;
}

function filtersOn(query: DataQuery, column: string): Filter[] {
  return query.filters.filter((f) => f.column.name === column);
}
