/**
 * The root of every error the workbench throws. It carries what a researcher needs to act
 * (status, the service's detail, the request id to quote to support, the URL) and never the
 * API key or a URL's password. A fetch cut short keeps what it got: `partial` holds the rows fetched so far and
 * `resume()` continues from where it stopped.
 */
import type pl from "nodejs-polars";
import { withoutCredentials } from "../runtime/credentials.ts";

/** What an error knows about the answer that caused it (each field as on `WorkbenchError`). */
export interface ErrorContext {
  /** The HTTP status of the answer. */
  status?: number;
  /** The service's `detail`, as it sent it. */
  detail?: unknown;
  /** The answer's X-Request-ID. */
  requestId?: string;
  /** The URL asked (never with the key: the key travels in a header). */
  url?: string;
}

/**
 * Where a notebook asks for short stacks (set by the kernel helpers in a Jupyter kernel): a
 * workbench error then shows its message and hint, not the workbench's internal frames.
 * `MARKETDATA_DEBUG=1` in the kernel's environment keeps the full stacks.
 */
export const SHORT_STACKS: unique symbol = Symbol.for("market-workbench.shortStacks");

/**
 * The root of every error the workbench throws: `status`, `detail`, `requestId` and `url` when
 * the service answered, and `partial` and `resume()` when a fetch was cut short. Tell them apart with `instanceof` (`QueryError`, `RateLimitError`, `QuotaExceededError`, ...).
 *
 * @example
 * ```ts
 * try {
 *   await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
 * } catch (e) {
 *   if (e instanceof WorkbenchError) console.log(e.status, e.requestId, e.message);
 *   if (e instanceof WorkbenchError && e.resume) await e.resume(); // the rows after `e.partial`
 * }
 * ```
 */
export class WorkbenchError extends Error {
  /** The HTTP status of the answer that failed, when one came. */
  readonly status?: number;
  /** The service's `detail`, as it sent it. */
  readonly detail?: unknown;
  /** The answer's X-Request-ID, to quote to the service's support. */
  readonly requestId?: string;
  /** The URL asked (never with the key: the key travels in a header). */
  readonly url?: string;
  /** Rows fetched before the failure, in order, when the failure interrupted a paged fetch. */
  partial?: pl.DataFrame;
  /** Continues the interrupted fetch from the first missing row (same query, same order). */
  resume?: () => Promise<pl.DataFrame>;

  /**
   * An error with what is known about its cause.
   *
   * @param message what failed, with the value and what is allowed
   * @param context what is known about the answer that caused it
   */
  constructor(message: string, context: ErrorContext = {}) {
    // A password in a base URL never reaches a message, a stack or an error's fields.
    super(withoutCredentials(message));
    this.name = new.target.name;
    this.status = context.status;
    this.detail = context.detail;
    this.requestId = context.requestId;
    this.url = context.url === undefined ? undefined : withoutCredentials(context.url);
    // In a notebook the message says what to do; the workbench's frames only hide it.
    if ((globalThis as Record<symbol, unknown>)[SHORT_STACKS] === true) this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * Bad input caught before any request is sent, so no quota is spent on it.
 *
 * @example
 * ```ts
 * try {
 *   await wb.data.eqDailyOhlc({ filters: { TradeDate: "2023-13-01" } });
 * } catch (e) {
 *   if (e instanceof QueryError) console.log(e.message); // names the value and what is allowed
 *   else throw e;
 * }
 * ```
 */
export class QueryError extends WorkbenchError {}
