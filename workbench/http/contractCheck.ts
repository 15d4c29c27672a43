/**
 * Checks what the service answered against the contract (contract/), the one description of
 * its records shared with the sandbox. A mismatch raises a ContractError naming the endpoint,
 * the field, what the contract expects and what came instead.
 */
import type { z } from "zod";
import { PaginationHeaders } from "../../contract/mod.ts";
import { ContractError } from "../errors/contract.ts";

/** A short, bounded rendering of a received value for a message. */
function show(value: unknown): string {
  if (value === undefined) return "nothing (the field is missing)";
  const text = typeof value === "string"
    ? JSON.stringify(value)
    : JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? String(v) : v));
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  return `${text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 77)}...` : text} (${kind})`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) v = v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

/**
 * The value if it matches `schema`; otherwise throws a ContractError about `endpoint`.
 *
 * @example
 * ```ts
 * const me = checkAnswer(Identity, JSON.parse(text), "GET /api/v1/account/my", url);
 * ```
 */
export function checkAnswer<T extends z.ZodType>(schema: T, value: unknown, endpoint: string, url?: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.length ? issue.path.map(String).join(".") : "(answer)";
  const received = valueAt(value, issue.path);
  const more = result.error.issues.length > 1
    ? ` (and ${result.error.issues.length - 1} more mismatch${result.error.issues.length > 2 ? "es" : ""})`
    : "";
  throw new ContractError(
    `The service's answer to ${endpoint} does not match the Datasets Service contract: ${field}: ${issue.message}; got ${
      show(received)
    }${more}. ` +
      "Is the base URL a Datasets Service of this API version?",
    { endpoint, field, received, url, detail: result.error.issues },
  );
}

/**
 * The pagination headers of a data answer, checked: undefined when absent, null on the last
 * page, else the next offset.
 *
 * @example
 * ```ts
 * const next = checkedNextOffset(response.headers, "GET /api/v1/data/us-equity/eq-daily-ohlc");
 * ```
 */
export function checkedNextOffset(headers: Headers, endpoint: string, url?: string): number | null | undefined {
  const names = ["x-pagination-offset", "x-pagination-limit", "x-pagination-next-offset"];
  const present = Object.fromEntries(names.flatMap((n) => (headers.has(n) ? [[n, headers.get(n)!]] : [])));
  const checked = checkAnswer(PaginationHeaders, present, `${endpoint} (headers)`, url);
  const value = checked["x-pagination-next-offset"];
  return value === undefined ? undefined : value === "" ? null : Number(value);
}

/**
 * The X-Pagination-Next-Offset header, read early (checked against the contract once the page
 * is in): a number, null on the last page (empty), undefined when absent or not digits.
 */
export function headerNextOffset(headers: Headers): number | null | undefined {
  const value = headers.get("X-Pagination-Next-Offset");
  return value === null || !/^\d*$/.test(value) ? undefined : value === "" ? null : Number(value);
}
