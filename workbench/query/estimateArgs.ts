/**
 * `wb.estimate`'s arguments: the dataset id, then exactly what its data function takes (the
 * symbols first or as `tickers:`, `start`/`end` or `date`, filters ...), then the estimate's own
 * options. `wb.estimate("eq-taq-1min", ["AAPL", "MSFT"], { start, end })` sizes the call
 * `wb.data.eqTaq1Min(["AAPL", "MSFT"], { start, end })` would send. The REST form of
 * `wb.data.get` (a query, then a list of path values) is still taken.
 */
import type { DataEndpoint } from "./endpoints.ts";
import type { DataQuery, PathArg } from "./plan.ts";
import { symbolCall } from "./symbols.ts";

/** An estimate's arguments in the form `wb.data.get` takes, and the estimate's own options as given. */
export interface EstimateCall {
  /** The path values (a ticker, a date), as a data call takes them. */
  pathArgs: PathArg[];
  /** The data call's query. */
  query: DataQuery;
  /** The estimate's options (`{ lookups }`), unchecked. */
  options: unknown;
}

const isSymbols = (v: unknown) => typeof v === "string" || Array.isArray(v);

/**
 * The call `wb.estimate(dataset, ...args)` sizes.
 *
 * @example
 * ```ts
 * estimateArgs(dataEndpoint("eq-taq-1min"), [["AAPL", "MSFT"], { start: "2023-11-20", end: "2023-11-24" }]);
 * // { pathArgs: [["AAPL", "MSFT"]], query: { start: "2023-11-20", end: "2023-11-24" }, options: undefined }
 * ```
 */
export function estimateArgs(endpoint: DataEndpoint, args: readonly unknown[]): EstimateCall {
  const [first, second, third] = args;
  const lead = `"${endpoint.dataset}", `;
  // The REST form: a query, then the path values as a list.
  if (!isSymbols(first) && Array.isArray(second)) {
    return { pathArgs: [...second] as PathArg[], query: (first ?? {}) as DataQuery, options: third };
  }
  if (isSymbols(first)) return { ...symbolCall("wb.estimate", endpoint, first, second, lead), options: third };
  return { ...symbolCall("wb.estimate", endpoint, first, undefined, lead), options: second };
}
