/**
 * The quota guard of a data call: once the first answer shows the call is large (more pages
 * follow, or more tickers), it projects the requests, rows and bytes still to fetch and
 * compares them with the remaining monthly quotas. Past the threshold (by default more than
 * 10% of any remaining monthly quota, or more than 1 GB) the call stops before its second
 * request with an error giving the figures, unless the call says `force: true`.
 */
import type { Quotas, QuotaValues } from "../../contract/mod.ts";
import { type CallState, WorkbenchError } from "../errors/base.ts";
import { headerNextOffset } from "../http/contractCheck.ts";

/** The quota guard's threshold (`connect({ quotaGuard })`). */
export interface QuotaGuardOptions {
  /** Largest share of any remaining monthly quota one call may take (default 0.1). */
  maxShare?: number;
  /** Largest projected download of one call, in bytes (default 1e9). */
  maxBytes?: number;
}

/** What the rest of a call would take. */
export interface Projection {
  /** Requests still to send. */
  requests: number;
  /** Rows still to fetch. */
  rows: number;
  /** Bytes still to download. */
  bytes: number;
}

/**
 * A call stopped by the quota guard; `needed` and `remaining` carry the figures.
 *
 * @example
 * ```ts
 * try {
 *   await wb.data.eqTaq(null, ["AAPL", "MSFT"], { start: "2023-01-03", end: "2023-12-29" });
 * } catch (e) {
 *   if (e instanceof QuotaGuardError) console.log(e.needed.bytes, e.remaining.monthly_data_returned); // then pass { force: true } if it is meant
 *   else throw e;
 * }
 * ```
 */
export class QuotaGuardError extends WorkbenchError {
  /**
   * A call the guard stopped, with its figures.
   *
   * @param message the projected figures against the quotas left, and how to pass (`force: true`)
   * @param needed what the rest of the call would take
   * @param remaining the quotas left
   * @param state what the call keeps and how it goes on (`resume()` runs it anyway)
   */
  constructor(message: string, readonly needed: Projection, readonly remaining: QuotaValues, state: CallState = {}) {
    super(message, state);
  }

  /** The same stop, made again with what its call keeps. */
  override keeping(state: CallState): QuotaGuardError {
    return new QuotaGuardError(this.message, this.needed, this.remaining, { partial: this.partial, resume: this.resume, ...state });
  }
}

/** What the first answer's headers say. */
export interface FirstAnswer {
  /** Offset of the next page; null when the first page ended the data; undefined when not said. */
  next: number | null | undefined;
  /** Rows asked for (X-Pagination-Limit). */
  limit?: number;
  /** The answer's size in bytes (Content-Length), when sent. */
  contentLength?: number;
}

/** The first answer as its headers describe it. */
function firstAnswer(headers: Headers): FirstAnswer {
  const num = (h: string) => (headers.get(h) === null || headers.get(h) === "" ? undefined : Number(headers.get(h)));
  return { next: headerNextOffset(headers), limit: num("X-Pagination-Limit"), contentLength: num("Content-Length") };
}

const remainingQuotas = (q: Quotas): QuotaValues =>
  Object.fromEntries(
    Object.entries(q.quotas_limit).map(([k, limit]) => [k, Math.max(0, limit - (q.quotas_usage as unknown as Record<string, number>)[k])]),
  ) as unknown as QuotaValues;

/**
 * Projects the rest of a call from the metadata estimate (rows of the whole call, bytes per
 * row by the schema) and the first answer (a full page with more to come; its bytes per row).
 */
export function projectRest(
  first: FirstAnswer,
  estimate: { rows: number; bytesPerRow: number },
  units: number,
  pageSize: number,
): Projection {
  const limit = first.limit ?? pageSize;
  const fullFirst = first.next !== null && first.next !== undefined;
  const bytesPerRow = fullFirst && first.contentLength ? first.contentLength / limit : estimate.bytesPerRow;
  const firstRows = fullFirst ? limit : Math.min(limit, first.contentLength ? Math.round(first.contentLength / bytesPerRow) : 0);
  const total = Math.max(estimate.rows, firstRows + (fullFirst ? 1 : 0));
  const perUnit = Math.max(1, total / units);
  const requests = Math.max(fullFirst ? 1 : 0, units * Math.ceil(perUnit / pageSize) - 1);
  const rows = Math.max(0, Math.ceil(total - firstRows));
  return { requests, rows, bytes: Math.round(rows * bytesPerRow) };
}

const mb = (bytes: number) => `${(bytes / 1e6).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB`;
const n = (x: number) => Math.round(x).toLocaleString("en-US");

/** The guard's verdict: a QuotaGuardError when the projection passes the threshold, else undefined. */
export function judge(
  dataset: string,
  need: Projection,
  quotas: Quotas,
  options: QuotaGuardOptions = {},
  when = "before its second request",
): QuotaGuardError | undefined {
  const share = options.maxShare ?? 0.1;
  const maxBytes = options.maxBytes ?? 1e9;
  const left = remainingQuotas(quotas);
  const over: string[] = [];
  if (need.requests > share * left.monthly_requests) {
    over.push(`${n(need.requests)} requests against ${n(left.monthly_requests)} left this month`);
  }
  if (need.bytes > share * left.monthly_data_returned) {
    over.push(`${mb(need.bytes)} against ${mb(left.monthly_data_returned)} of data returned left this month`);
  }
  if (need.bytes > share * left.monthly_data_scanned) {
    over.push(`${mb(need.bytes)} against ${mb(left.monthly_data_scanned)} of data scanned left this month`);
  }
  if (need.bytes > maxBytes) over.push(`${mb(need.bytes)} against the ${mb(maxBytes)} limit of one call`);
  if (over.length === 0) return undefined;
  return new QuotaGuardError(
    `Stopped ${dataset} ${when}: the rest of this call needs about ${n(need.requests)} requests, ${n(need.rows)} rows and ${
      mb(need.bytes)
    }, ` +
      `more than ${Math.round(share * 100)}% of what remains (${over.join("; ")}). ` +
      `Narrow the query (fewer tickers, a shorter range, fewer columns), or pass { force: true } to run it anyway.`,
    need,
    left,
  );
}

/**
 * The quota guard's gate on a call's first answer (QuotaJudge.gate makes it): holds every
 * request of the call after the first until the first answer's headers are judged. `check`
 * gets the first answer and throws to stop the call.
 */
export class FirstAnswerGate {
  private sentFirst = false;
  private answered!: (first: FirstAnswer) => void;
  private readonly decision: Promise<void>;

  /** Runs `check` on the call's first answer; the call's other requests wait for its verdict. */
  constructor(check: (first: FirstAnswer) => Promise<void>) {
    const first = new Promise<FirstAnswer>((resolve) => (this.answered = resolve));
    this.decision = first.then(check);
    this.decision.catch(() => {}); // awaited by later requests; a one-request call never looks
  }

  /** Lets the first request through; later ones wait for the verdict (and throw its error). */
  beforeSend = (): Promise<void> => {
    if (!this.sentFirst) {
      this.sentFirst = true;
      return Promise.resolve();
    }
    return this.decision;
  };

  /** The first answer's headers (later calls are ignored). */
  onHeaders = (headers: Headers): void => this.answered(firstAnswer(headers));

  /** The first request settled; when it failed without headers, later ones are judged on the estimate alone. */
  settled = (): void => this.answered({ next: undefined });
}
