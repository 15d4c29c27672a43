/**
 * One class per failure the service's spec lists. Messages say what failed and where, e.g.
 * `Invalid API key (401): GET /api/v1/account/my [request 3be2...]`.
 */
import { type ErrorContext, WorkbenchError } from "./base.ts";

/** 401: no X-API-KEY header was sent. */
export class UnauthenticatedError extends WorkbenchError {}
/** 401: the key is wrong, revoked or malformed. */
export class InvalidApiKeyError extends WorkbenchError {}
/** 403: the request came from an address outside the identity's subnets. */
export class IpNotAllowedError extends WorkbenchError {}
/** 403 or 404: the dataset (or a ticker) is not in the identity's entitlements, or does not exist. */
export class NotEntitledError extends WorkbenchError {}
/** 404: the path does not exist. */
export class NotFoundError extends WorkbenchError {}
/** 409: e.g. too many active API keys. */
export class ConflictError extends WorkbenchError {}
/** 410: the account is deactivated. */
export class AccountDeactivatedError extends WorkbenchError {}
/** 410: the API key's access has expired. */
export class KeyExpiredError extends WorkbenchError {}
/** 503: maintenance, outage or overload (retried with backoff before this is thrown). */
export class ServiceUnavailableError extends WorkbenchError {}
/** 504: the query was too heavy (page size is halved before this is thrown). */
export class GatewayTimeoutError extends WorkbenchError {}
/** No answer: a connection reset or dropped mid-response, or a timeout (retried before this is thrown). */
export class NetworkError extends WorkbenchError {}
/** No answer that retrying could bring: connection refused, a host name that does not resolve (raised at once). */
export class ServiceUnreachableError extends NetworkError {}
/** Something answered, but not a Datasets Service: an error without a JSON detail, or the wrong content type (raised at once). */
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

/** 422: the service refused the query; `issues` lists why (never retried). */
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

/** 429: a quota is exhausted. Per-minute quotas are waited out; monthly ones stop at once. */
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
