/**
 * The checks of a prepared data call that need what the service knows (free metadata, and
 * the lookup files once per session), run before any data request: a reversed range, dates
 * outside the dataset's availability or with no trading day, and tickers that are lowercase,
 * unknown or renamed.
 */
import type { DatasetStatus } from "../api/meta.ts";
import { type DataEndpoint, PATH_PARAM_COLUMNS } from "../query/endpoints.ts";
import type { ColumnInfo } from "../frames/frames.ts";
import { checkDates, checkReversed, requestedDates, type SentCondition } from "./dateChecks.ts";
import type { PreparedRequest } from "../query/prepare.ts";
import { checkTickersBeforeSending, type TickerAsk, type TickerSource } from "./tickers.ts";

/** The filter conditions a prepared request sends, path values included (as `eq`). */
export function sentConditions(endpoint: DataEndpoint, pathValues: readonly string[], request: PreparedRequest, schema: readonly ColumnInfo[]): SentCondition[] {
  const names = new Set(schema.map((c) => c.name));
  const out: SentCondition[] = endpoint.pathParams.map((p, i) => ({ column: PATH_PARAM_COLUMNS[p] ?? p, op: "eq", texts: [pathValues[i]] }));
  for (const [key, value] of request.params) {
    const dot = key.lastIndexOf(".");
    const [column, op] = names.has(key) ? [key, "eq"] : dot > 0 ? [key.slice(0, dot), key.slice(dot + 1)] : [key, ""];
    if (!names.has(column) || op === "") continue;
    out.push({ column, op, texts: op === "in" ? value.split(",") : [value] });
  }
  return out;
}

export interface ServiceCheckContext {
  endpoint: DataEndpoint;
  pathValues: readonly string[];
  request: PreparedRequest;
  /** The dataset's full column schema. */
  schema: readonly ColumnInfo[];
  /** The dataset's availability (GET /meta/datasets/{id}/status, free). */
  status: () => Promise<DatasetStatus>;
  tickers: TickerSource;
}

/**
 * Runs the checks; throws a QueryError (or UnknownTickerError) naming the value and what is
 * available. Returns the tickers asked for, for judging them from the answer.
 *
 * @example
 * ```ts
 * await checkWithService({ endpoint, pathValues, request, schema, status: () => wb.meta.status(id), tickers });
 * ```
 */
export async function checkWithService(ctx: ServiceCheckContext): Promise<TickerAsk | undefined> {
  const { endpoint, request, schema } = ctx;
  const conditions = sentConditions(endpoint, ctx.pathValues, request, schema);
  checkReversed(endpoint.dataset, schema, conditions);
  const dates = endpoint.dateColumn ? requestedDates(endpoint.dateColumn, conditions) : undefined;
  if (dates && endpoint.dateColumn) checkDates(endpoint.dataset, endpoint.dateColumn, dates, await ctx.status());
  if (endpoint.tickerColumn) {
    const tickers = conditions.filter((c) => c.column === endpoint.tickerColumn && (c.op === "eq" || c.op === "in")).flatMap((c) => c.texts);
    const from = dates?.exact ? [...dates.exact].sort()[0] : dates?.from;
    if (tickers.length === 0) return undefined;
    const asked = [...new Set(tickers)];
    checkTickersBeforeSending(ctx.tickers, endpoint.dataset, asked, from);
    return { asked, from };
  }
  return undefined;
}
