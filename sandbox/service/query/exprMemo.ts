/**
 * Polars expressions built once and reused. Building one takes tens of microseconds of native
 * calls, a page's filters, column choice and date formats take dozens, and they recur from
 * page to page (a client walking a query asks the same thing at another offset). Expressions
 * are immutable values, so queries can share them. The memo is bounded: emptied when full.
 */
const MAX_ENTRIES = 4096;
const memo = new Map<string, unknown>();

/** The value memoized under `key`, made by `make` the first time. */
export function memoized<T>(key: string, make: () => T): T {
  const found = memo.get(key) as T | undefined;
  if (found !== undefined) return found;
  if (memo.size >= MAX_ENTRIES) memo.clear();
  const made = make();
  memo.set(key, made);
  return made;
}
