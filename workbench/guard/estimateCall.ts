/**
 * `wb.estimate` of a whole call: each unit's estimate from free metadata, with the rows of
 * datasets whose rows vary by symbol (ticks, option chains, some reference data) counted by
 * a small paid read (rowCount.ts) unless the caller keeps the estimate free. The quota guard
 * stays on free metadata alone: it judges every call, and a count would spend quota on each.
 */
import { WorkbenchError } from "../errors/base.ts";
import type { DataEndpoint } from "../query/endpoints.ts";
import type { PreparedRequest } from "../query/prepare.ts";
import type { ServiceFacts } from "../service/facts.ts";
import { combineEstimates, type Estimate, estimateContext, estimateDownload, estimateOfRows } from "./estimate.ts";
import { COUNTED_DATASETS, countRows, type RowCount } from "./rowCount.ts";
import { loadedTickerBook } from "./tickers.ts";

/** How `wb.estimate` may size a call. */
export interface EstimateOptions {
  /**
   * Whether the estimate may send a small read of its own (one request per ticker, a few
   * columns: far smaller than the call) to count the rows of ticks, option chains and
   * reference data whose rows vary by symbol, which the free status sizes only as the
   * average symbol's (true by default; `lookupRequests` and `lookupBytes` say what it spent).
   */
  lookups?: boolean;
}

/**
 * The estimate of a call's requests (`units` their path values): summed over the units, the
 * quotas read after any count so they include it.
 *
 * @example
 * ```ts
 * const e = await estimateCall(facts, dataEndpoint("eq-taq"), requests, units);
 * e.basis; // "minute-bars"
 * ```
 */
export async function estimateCall(
  facts: ServiceFacts,
  endpoint: DataEndpoint,
  requests: readonly PreparedRequest[],
  units: readonly string[][],
  options: EstimateOptions = {},
): Promise<Estimate> {
  const status = await facts.status(endpoint.dataset);
  const spent = { requests: 0, bytes: 0 };
  let count: RowCount | undefined, failure: string | undefined;
  if (options.lookups !== false && COUNTED_DATASETS[endpoint.dataset] && requests.length > 0) {
    try {
      count = await countRows(
        (dataset, path, query) => facts.countRead(dataset, path, query, spent),
        endpoint,
        requests,
        status,
        loadedTickerBook(facts),
      );
    } catch (error) {
      // Not entitled to the 1-minute bars, a quota hit: the estimate stays on free metadata and says why.
      if (!(error instanceof WorkbenchError)) throw error;
      failure = error.message;
    }
  }
  const quotas = await facts.quotas();
  const cost = { lookupRequests: spent.requests, lookupBytes: spent.bytes };
  if (count) {
    const counted = count;
    const each = requests.map((r, i) => estimateOfRows(endpoint, r, counted.rows[i], quotas));
    return combineEstimates(endpoint, each, quotas, {
      basis: counted.basis,
      ...cost,
      ...(counted.days ? { countedDays: counted.days } : {}),
    });
  }
  const context = await estimateContext(facts, status);
  const each = requests.map((r, i) => estimateDownload(endpoint, r, status, quotas, units[i], context));
  return combineEstimates(endpoint, each, quotas, { basis: "metadata", ...cost, ...(failure ? { lookupFailure: failure } : {}) });
}
