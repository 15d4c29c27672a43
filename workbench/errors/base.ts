/**
 * The root of every error the workbench throws. It carries what a researcher needs to act
 * (status, the service's detail, the request id to quote to support, the URL) and never the
 * API key or a URL's password. A fetch cut short keeps what it got: `partial` holds the rows fetched so far and
 * `resume()` continues from where it stopped.
 */
import type pl from "nodejs-polars";
import { withoutCredentials } from "./credentials.ts";

/**
 * What a call cut short keeps (each field as on `WorkbenchError`): given to an error when it is
 * made, never attached after.
 */
export interface CallState {
  /** Rows fetched before the failure, in order. */
  partial?: pl.DataFrame;
  /** Continues the call from the first missing row. */
  resume?: () => Promise<pl.DataFrame>;
}

/** What an error knows about the answer that caused it, and what its call keeps (each field as on `WorkbenchError`). */
export interface ErrorContext extends CallState {
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
const SHORT_STACKS = Symbol.for("market-workbench.shortStacks");

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
  readonly partial?: pl.DataFrame;
  /** Continues the interrupted fetch from the first missing row (same query, same order). */
  readonly resume?: () => Promise<pl.DataFrame>;
  /** The context it was made with, to make it again with a call's state (`keeping`). */
  readonly #context: ErrorContext;

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
    this.partial = context.partial;
    this.resume = context.resume;
    this.#context = context;
    // In a notebook the message says what to do; the workbench's frames only hide it.
    if ((globalThis as Record<symbol, unknown>)[SHORT_STACKS] === true) this.stack = `${this.name}: ${this.message}`;
  }

  /**
   * The same failure, made again with what its call keeps (`partial`) and how it goes on
   * (`resume`): the pager and the pipeline throw this one, so an error is whole when it is
   * made and never changed after. A class whose constructor takes other arguments than
   * (message, context) makes itself again in its own `keeping`.
   *
   * @example
   * ```ts
   * import { NetworkError } from "./workbench/mod.ts";
   * const dropped = new NetworkError("Connection dropped while reading the answer", { url: "http://127.0.0.1:8000/api/v1/data/eq-daily-ohlc" });
   * const whole = dropped.keeping({ partial: pl.DataFrame({ Ticker: ["AAPL"] }) });
   * whole instanceof NetworkError; // true
   * whole.partial?.height; // 1
   * ```
   */
  keeping(state: CallState): WorkbenchError {
    const Made = this.constructor as new (message: string, context: ErrorContext) => WorkbenchError;
    return new Made(this.message, { ...this.#context, ...state });
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
