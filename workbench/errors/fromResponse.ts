/** Maps a failed response of the service to the workbench's error for it. */
import { type ErrorContext, WorkbenchError } from "./base.ts";
import {
  AccountDeactivatedError,
  ConflictError,
  GatewayTimeoutError,
  InvalidApiKeyError,
  IpNotAllowedError,
  KeyExpiredError,
  NotEntitledError,
  NotFoundError,
  QuotaExceededError,
  type QuotaName,
  ServiceUnavailableError,
  UnauthenticatedError,
  ValidationError,
  type ValidationIssue,
} from "./http.ts";

const QUOTA_BY_MESSAGE: [RegExp, QuotaName][] = [
  [/^Monthly request limit/i, "monthly_requests"],
  [/^Monthly data scanned/i, "monthly_data_scanned"],
  [/^Monthly data returned/i, "monthly_data_returned"],
  [/^Per-minute/i, "per_minute_requests"],
];

function quotaError(message: string, detail: string, context: ErrorContext, retryAfterSeconds: number): QuotaExceededError {
  const quota = QUOTA_BY_MESSAGE.find(([re]) => re.test(detail))?.[1] ??
    (retryAfterSeconds > 120 ? "monthly_requests" : "per_minute_requests");
  const numbers = /(\d+)\/(\d+)/.exec(detail);
  return new QuotaExceededError(message, {
    ...context,
    quota,
    used: numbers ? Number(numbers[1]) : undefined,
    limit: numbers ? Number(numbers[2]) : undefined,
    resetAt: new Date(Date.now() + retryAfterSeconds * 1000),
  });
}

/**
 * The error for a non-2xx answer. `method` and `url` go into the message; the URL never holds
 * the key (it travels in a header).
 */
export function errorFromResponse(status: number, body: unknown, headers: Headers, method: string, url: string): WorkbenchError {
  const rawDetail = (body as { detail?: unknown } | null)?.detail;
  const detail = typeof rawDetail === "string" ? rawDetail : Array.isArray(rawDetail) ? rawDetail : body;
  const requestId = headers.get("X-Request-ID") ?? undefined;
  const path = new URL(url).pathname;
  const text = typeof detail === "string"
    ? detail
    : Array.isArray(detail)
    ? (detail as ValidationIssue[]).map((d) => d.msg).join("; ")
    : `HTTP ${status}`;
  const message = `${text} (${status}): ${method} ${path}${requestId ? ` [request ${requestId}]` : ""}`;
  const context: ErrorContext = { status, detail, requestId, url };
  switch (status) {
    case 401:
      return text === "Not authenticated" ? new UnauthenticatedError(message, context) : new InvalidApiKeyError(message, context);
    case 403:
      return text.startsWith("Forbidden: IP") ? new IpNotAllowedError(message, context) : new NotEntitledError(message, context);
    case 404:
      return /^A dataset with the id/.test(text) ? new NotEntitledError(message, context) : new NotFoundError(message, context);
    case 409:
      return new ConflictError(message, context);
    case 410:
      return /expired/i.test(text) ? new KeyExpiredError(message, context) : new AccountDeactivatedError(message, context);
    case 422:
      return new ValidationError(message, { ...context, issues: Array.isArray(detail) ? detail as ValidationIssue[] : [] });
    case 429:
      return quotaError(message, text, context, Number(headers.get("Retry-After") ?? "60"));
    case 503:
      return new ServiceUnavailableError(message, context);
    case 504:
      return new GatewayTimeoutError(message, context);
    default:
      return new WorkbenchError(message, context);
  }
}
