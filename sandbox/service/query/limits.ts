/**
 * The most a data request may ask, so that no request can cost the service more than a bounded
 * amount of work: values in one `in` list, characters of a like/ilike pattern, and bytes of the
 * request target (path and query string). Past either, the request is refused with a 422 in the FastAPI/pydantic shape naming
 * the limit, before any query runs; both are documented in /openapi.json (api/routes.ts) and
 * docs/sandbox.md. A filter given twice is refused too (query/parse.ts), so the number of
 * filters is bounded by the dataset's columns and operators.
 */
import type { ValidationIssue } from "../errors.ts";

/** Values an `in` list may hold. */
export const MAX_IN_VALUES = 1000;

/**
 * Characters of a like/ilike pattern: a pattern becomes a regular expression, which the engine
 * compiles for every file it filters, and a long one with many wildcards costs it a second each.
 */
export const MAX_PATTERN_LENGTH = 256;

/**
 * Bytes of a data request's target (its path and query string, as sent). Room for an `in` list
 * of MAX_IN_VALUES values of 15 characters; Deno's HTTP server itself refuses a target of 65,535
 * bytes or more with 414, before the service sees it.
 */
export const MAX_REQUEST_TARGET_BYTES = 16_384;

/**
 * The 422 issue of an `in` list longer than MAX_IN_VALUES (pydantic's `too_long`), or undefined.
 *
 * @example
 * ```ts
 * inListIssue(["query", "Ticker.in"], "A,B", 2); // undefined
 * inListIssue(["query", "DailyVolume.in"], "1,2,...", 1001)?.msg; // "List should have at most 1000 items after validation, not 1001"
 * ```
 */
export function inListIssue(loc: (string | number)[], input: string, count: number): ValidationIssue | undefined {
  if (count <= MAX_IN_VALUES) return undefined;
  return {
    type: "too_long",
    loc,
    msg: `List should have at most ${MAX_IN_VALUES} items after validation, not ${count}`,
    input,
    ctx: { field_type: "List", max_length: MAX_IN_VALUES, actual_length: count },
  };
}

/**
 * The 422 issue of a like/ilike pattern longer than MAX_PATTERN_LENGTH (pydantic's
 * `string_too_long`), or undefined.
 *
 * @example
 * ```ts
 * patternIssue(["query", "Ticker.like"], "A*"); // undefined
 * ```
 */
export function patternIssue(loc: (string | number)[], pattern: string): ValidationIssue | undefined {
  if (pattern.length <= MAX_PATTERN_LENGTH) return undefined;
  return {
    type: "string_too_long",
    loc,
    msg: `String should have at most ${MAX_PATTERN_LENGTH} characters`,
    input: pattern,
    ctx: { max_length: MAX_PATTERN_LENGTH },
  };
}

/**
 * The path and query string of a request URL, as the client sent them (Deno's URL keeps them
 * percent-encoded).
 *
 * @example
 * ```ts
 * requestTarget("http://127.0.0.1:8000/api/v1/account/my?x=1"); // "/api/v1/account/my?x=1"
 * ```
 */
function requestTarget(url: string): string {
  const path = url.indexOf("/", url.indexOf("//") + 2);
  return path < 0 ? "/" : url.slice(path);
}

/**
 * The 422 issue of a request target longer than MAX_REQUEST_TARGET_BYTES, or undefined. Its
 * input is the query string received (at most Deno's 64 KiB), as FastAPI echoes what it refuses.
 *
 * @example
 * ```ts
 * requestTargetIssue(`http://h/api/v1/data/us-equity/eq-daily-ohlc?Ticker.in=${"A,".repeat(9000)}A`)?.type; // "string_too_long"
 * ```
 */
export function requestTargetIssue(url: string): ValidationIssue | undefined {
  const target = requestTarget(url);
  // Percent-encoded, the target is ASCII: its length is its size in bytes.
  if (target.length <= MAX_REQUEST_TARGET_BYTES) return undefined;
  const query = target.indexOf("?");
  return {
    type: "string_too_long",
    loc: ["query"],
    msg:
      `The request target (path and query string) should have at most ${MAX_REQUEST_TARGET_BYTES} bytes, not ${target.length}: ask for fewer values (an 'in' list takes at most ${MAX_IN_VALUES}) or split the request`,
    input: query < 0 ? "" : target.slice(query + 1),
    ctx: { max_length: MAX_REQUEST_TARGET_BYTES, actual_length: target.length },
  };
}
