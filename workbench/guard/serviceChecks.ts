/**
 * The checks of a prepared data call that need what the service knows (free metadata, and
 * the lookup files once per session), run before any data request: a reversed range, dates
 * outside the dataset's availability or with no trading day, and tickers that are lowercase,
 * unknown or renamed.
 */
import type { DatasetStatus } from "../../contract/mod.ts";
import type { DataEndpoint } from "../query/endpoints.ts";
import type { ColumnInfo } from "../frames/frames.ts";
import { type PreparedRequest, sentConditions, type TickerAsk } from "../query/prepare.ts";
import type { TickerSource } from "../service/facts.ts";
import { checkDates, checkReversed, requestedDates } from "./dateChecks.ts";
import { checkTickersBeforeSending } from "./tickers.ts";
import { checkRefRootsBeforeSending } from "./refRoots.ts";

/** What a request's checks against the service read: the endpoint, the request, the dataset's status and tickers. */
export interface ServiceCheckContext {
  /** The endpoint called. */
  endpoint: DataEndpoint;
  /** The request checked. */
  request: PreparedRequest;
  /** The dataset's full column schema. */
  schema: readonly ColumnInfo[];
  /** The dataset's availability (GET /meta/datasets/{id}/status, free). */
  status: () => Promise<DatasetStatus>;
  /** Where tickers are resolved. */
  tickers: TickerSource;
}

/**
 * Runs the checks; throws a QueryError (or UnknownTickerError) naming the value and what is
 * available. Returns the tickers asked for, for judging them from the answer.
 *
 * @example
 * ```ts
 * await checkWithService({ endpoint, request, schema, status: () => facts.availability(id), tickers: facts });
 * ```
 */
export async function checkWithService(ctx: ServiceCheckContext): Promise<TickerAsk | undefined> {
  const { endpoint, request, schema } = ctx;
  const conditions = sentConditions(endpoint, request);
  checkReversed(endpoint.dataset, schema, conditions);
  const dates = endpoint.dateColumn ? requestedDates(endpoint.dateColumn, conditions) : undefined;
  if (dates && endpoint.dateColumn) checkDates(endpoint.dataset, endpoint.dateColumn, dates, await ctx.status());
  checkRefRootsBeforeSending(ctx.tickers, endpoint, request); // opt-sec-master, occ-eq-spec-settl: no ticker column
  if (endpoint.tickerColumn) {
    const tickers = conditions.filter((c) => c.column === endpoint.tickerColumn && (c.op === "eq" || c.op === "in")).flatMap((c) =>
      c.texts
    );
    const from = dates?.exact ? [...dates.exact].sort()[0] : dates?.from;
    if (tickers.length === 0) return undefined;
    const asked = [...new Set(tickers)];
    checkTickersBeforeSending(ctx.tickers, endpoint.dataset, asked, from);
    const to = dates?.exact ? [...dates.exact].sort().at(-1) : dates?.to;
    return { asked, from, to };
  }
  return undefined;
}
