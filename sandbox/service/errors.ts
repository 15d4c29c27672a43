/**
 * The service's errors: one class that carries a status, the spec's `detail` and optional
 * headers, and the FastAPI/pydantic v2 shape of 422 bodies (`{"detail": [issue, ...]}`).
 * Every failure path throws one of these; `onError` in app.ts turns them into responses, and
 * anything else into a 4xx-safe answer (never a stack trace).
 */

/** One entry of a 422 `detail` array, as FastAPI writes it. */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === "string" ? detail : detail.map((d) => d.msg).join("; "));
  }
}

/** 422 with one or more validation issues. */
export function validationError(...issues: ValidationIssue[]): HttpError {
  return new HttpError(422, issues);
}

/** 422 for columns absent from a dataset (filters, `columns` or `sort`). */
export function unknownColumnsError(columns: string[]): HttpError {
  return validationError({
    type: "value_error",
    loc: ["query", "filters"],
    msg: `The following columns do not exist in the dataset: ${columns.join(", ")}`,
    input: "",
    ctx: { cause: "UnprocessableEntityException" },
  });
}

/** 422 for a date outside the account's entitlement window. */
export function dateOutsideWindowError(date: string, loc: (string | number)[]): HttpError {
  return validationError({
    type: "value_error",
    loc,
    msg: `The date value '${date}' is outside of the allowed range for this account`,
    input: date,
    ctx: { cause: "UnprocessableEntityException" },
  });
}

export const notAuthenticated = () => new HttpError(401, "Not authenticated", { "WWW-Authenticate": "APIKey" });
export const invalidApiKey = () => new HttpError(401, "Invalid API key", { "WWW-Authenticate": "APIKey" });
export const ipNotAllowed = () => new HttpError(403, "Forbidden: IP address not allowed");
export const accountDeactivated = () => new HttpError(410, "The account is deactivated");
export const keyExpired = () => new HttpError(410, "The API key access has expired");
export const datasetNotFound = (id: string) => new HttpError(404, `A dataset with the id '${id}' is not found`);
export const datasetForbidden = (id: string) => new HttpError(403, `This identity does not have access to dataset ${id}`);
export const tooManyKeys = (max: number) => new HttpError(409, `An account cannot have more than ${max} active API keys`);
export const serviceUnavailable = () => new HttpError(503, "Service unavailable", { "Retry-After": "1" });
export const gatewayTimeout = () => new HttpError(504, "Gateway timeout");
/** 429 for an address that presented too many invalid keys (state/keyGuesses.ts). */
export const tooManyInvalidKeys = (retryAfterSeconds: number) =>
  new HttpError(429, `Too many invalid API keys from this address: try again in ${retryAfterSeconds} s`, {
    "Retry-After": String(retryAfterSeconds),
  });
