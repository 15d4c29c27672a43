/**
 * One class per failure the service's spec lists. Messages say what failed and where, e.g.
 * `Invalid API key (401): GET /api/v1/account/my [request 3be2...]`.
 */
import { type ErrorContext, WorkbenchError } from "./base.ts";

/**
 * 401: no X-API-KEY header was sent.
 *
 * @example
 * ```ts
 * try {
 *   await wb.account.identity();
 * } catch (e) {
 *   if (e instanceof UnauthenticatedError) console.log("connect({ apiKey }) or set MARKETDATA_API_KEY");
 *   else throw e;
 * }
 * ```
 */
export class UnauthenticatedError extends WorkbenchError {}

/**
 * 401: the key is wrong, revoked or malformed.
 *
 * @example
 * ```ts
 * try {
 *   await wb.account.identity();
 * } catch (e) {
 *   if (e instanceof InvalidApiKeyError) console.log(e.message, e.requestId);
 *   else throw e;
 * }
 * ```
 */
export class InvalidApiKeyError extends WorkbenchError {}

/**
 * 403: the request came from an address outside the identity's subnets.
 *
 * @example
 * ```ts
 * try {
 *   await wb.account.identity();
 * } catch (e) {
 *   if (e instanceof IpNotAllowedError) console.log("call from an address in the identity's subnets:", e.message);
 *   else throw e;
 * }
 * ```
 */
export class IpNotAllowedError extends WorkbenchError {}

/**
 * 403 or 404: the dataset (or a ticker) is not in the identity's entitlements, or does not exist.
 *
 * @example
 * ```ts
 * try {
 *   await wb.data.eqTaq1Min("TSLA", { filters: { TradeDate: "2023-11-21" } });
 * } catch (e) {
 *   if (e instanceof NotEntitledError) console.log((await wb.entitlements()).may("eq-taq-1min", { ticker: "TSLA" }).reason);
 *   else throw e;
 * }
 * ```
 */
export class NotEntitledError extends WorkbenchError {
  /**
   * Every reason the read is refused, when the workbench judged it before sending (the same
   * reasons `ent.may(...)` lists: a date outside the access window, each ticker outside the
   * universe); the message names them all.
   */
  readonly reasons?: string[];

  /**
   * A refused read.
   *
   * @param message why, naming the dataset and what the identity may read
   * @param context the answer's context (none when refused before sending), with every reason judged
   */
  constructor(message: string, context: ErrorContext & { reasons?: string[] } = {}) {
    super(message, context);
    this.reasons = context.reasons;
  }
}

/**
 * 404: the path does not exist.
 *
 * @example
 * ```ts
 * try {
 *   await wb.meta.status("eq-taq-1min");
 * } catch (e) {
 *   if (e instanceof NotFoundError) console.log(e.url, e.message);
 *   else throw e;
 * }
 * ```
 */
export class NotFoundError extends WorkbenchError {}

/**
 * 409: e.g. too many active API keys.
 *
 * @example
 * ```ts
 * try {
 *   await wb.account.identity();
 * } catch (e) {
 *   if (e instanceof ConflictError) console.log(e.status, e.detail);
 *   else throw e;
 * }
 * ```
 */
export class ConflictError extends WorkbenchError {}

/**
 * 410: the account is deactivated.
 *
 * @example
 * ```ts
 * try {
 *   await wb.account.identity();
 * } catch (e) {
 *   if (e instanceof AccountDeactivatedError) console.log("ask the service's support:", e.requestId);
 *   else throw e;
 * }
 * ```
 */
export class AccountDeactivatedError extends WorkbenchError {}

/**
 * 410: the API key's access has expired.
 *
 * @example
 * ```ts
 * try {
 *   await wb.account.identity();
 * } catch (e) {
 *   if (e instanceof KeyExpiredError) console.log("renew the key:", e.message);
 *   else throw e;
 * }
 * ```
 */
export class KeyExpiredError extends WorkbenchError {}

/**
 * 503: maintenance, outage or overload (retried with backoff before this is thrown).
 *
 * @example
 * ```ts
 * try {
 *   await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
 * } catch (e) {
 *   if (e instanceof ServiceUnavailableError) console.log("still unavailable after the retries:", e.message);
 *   else throw e;
 * }
 * ```
 */
export class ServiceUnavailableError extends WorkbenchError {}

/**
 * 504: the query was too heavy (page size is halved before this is thrown).
 *
 * @example
 * ```ts
 * try {
 *   await wb.data.eqTaq("2023-11-21", "AAPL");
 * } catch (e) {
 *   if (e instanceof GatewayTimeoutError) console.log("narrow the query (fewer columns or dates):", e.message);
 *   else throw e;
 * }
 * ```
 */
export class GatewayTimeoutError extends WorkbenchError {}

/**
 * No answer: a connection reset or dropped mid-response, or a timeout (retried before this is thrown).
 *
 * @example
 * ```ts
 * try {
 *   await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
 * } catch (e) {
 *   if (e instanceof NetworkError) await e.resume?.(); // continues after the rows in e.partial
 *   else throw e;
 * }
 * ```
 */
export class NetworkError extends WorkbenchError {}

/**
 * No answer that retrying could bring: connection refused, a host name that does not resolve (raised at once).
 *
 * @example
 * ```ts
 * try {
 *   await wb.account.identity();
 * } catch (e) {
 *   if (e instanceof ServiceUnreachableError) console.log("check the base URL:", e.url);
 *   else throw e;
 * }
 * ```
 */
export class ServiceUnreachableError extends NetworkError {}

/**
 * Something answered, but not a Datasets Service: an error without a JSON detail, or the wrong content type (raised at once).
 *
 * @example
 * ```ts
 * try {
 *   await wb.account.identity();
 * } catch (e) {
 *   if (e instanceof NotTheServiceError) console.log("check the base URL (host, port, path prefix):", e.message);
 *   else throw e;
 * }
 * ```
 */
export class NotTheServiceError extends WorkbenchError {}

/** One entry of a 422 detail list. */
export interface ValidationIssue {
  /** The kind of problem, e.g. `value_error`. */
  type: string;
  /** Where: `["query", "TradeDate.ge"]`. */
  loc: (string | number)[];
  /** The service's sentence about it. */
  msg: string;
  /** The value refused, when the service says it. */
  input?: unknown;
  /** Further facts the service gives (e.g. the allowed values). */
  ctx?: Record<string, unknown>;
}

/**
 * 422: the service refused the query; `issues` lists why (never retried).
 *
 * @example
 * ```ts
 * try {
 *   await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
 * } catch (e) {
 *   if (e instanceof ValidationError) e.issues.forEach((i) => console.log(i.loc.join("."), i.msg));
 *   else throw e;
 * }
 * ```
 */
export class ValidationError extends WorkbenchError {
  /** Every problem the service found, in its order. */
  readonly issues: ValidationIssue[];
  /**
   * A query the service refused, with its issues.
   *
   * @param message the service's refusal, in one sentence
   * @param context the answer's context, with the issues listed
   */
  constructor(message: string, context: ErrorContext & { issues: ValidationIssue[] }) {
    super(message, context);
    this.issues = context.issues;
  }
}

/** The service's four quotas, as named in its answers and in `QuotaValues`. */
export type QuotaName = "per_minute_requests" | "monthly_requests" | "monthly_data_scanned" | "monthly_data_returned";

/**
 * 429: a quota is exhausted. Per-minute quotas are waited out; monthly ones stop at once.
 *
 * @example
 * ```ts
 * try {
 *   await wb.data.eqTaq1Min("AAPL", { start: "2023-11-20", end: "2023-11-24" });
 * } catch (e) {
 *   if (e instanceof QuotaExceededError) console.log(e.quota, e.used, e.limit, e.resetAt);
 *   else throw e;
 * }
 * ```
 */
export class QuotaExceededError extends WorkbenchError {
  /** Which quota is exhausted. */
  readonly quota: QuotaName;
  /** Its usage, when the service says it. */
  readonly used?: number;
  /** Its limit, when the service says it. */
  readonly limit?: number;
  /** When the quota resets. */
  readonly resetAt: Date;
  /**
   * An exhausted quota, with its figures.
   *
   * @param message which quota, its usage and limit, and when it resets
   * @param context the answer's context, with the quota's figures
   */
  constructor(message: string, context: ErrorContext & { quota: QuotaName; used?: number; limit?: number; resetAt: Date }) {
    super(message, context);
    this.quota = context.quota;
    this.used = context.used;
    this.limit = context.limit;
    this.resetAt = context.resetAt;
  }
}

// Errors that are not an HTTP status, exported from here so the workbench's one export of
// errors (mod.ts re-exports this file) carries them too.
export { ContractError } from "./contract.ts";
export { UnknownDatasetError, UnknownTickerError } from "./unknown.ts";
