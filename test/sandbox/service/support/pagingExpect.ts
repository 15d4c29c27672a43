/**
 * Assertions shared by the paging and query tests: canonical rows equal (reporting the first
 * differing row instead of a diff of thousands), and one page's paging promises (media type,
 * body pagination, X-Pagination-* headers, Link) for a known position in a walk.
 */
import { expect } from "vitest";
import type { ExpectedRows } from "./expectedRows.ts";
import { sameRowsQuickly } from "./fastRows.ts";
import type { Page } from "./pagingWalk.ts";
import { type Format, MEDIA_TYPES, type WireTable } from "./pagingWire.ts";

/**
 * The tables' rows, in order, are `expected`'s rows from `from` on; a failure names the first
 * canonical row that differs. The equal case is told quickly (fastRows.ts); any other builds
 * the canonical rows of both sides and compares them.
 */
export function expectSameRows(actual: WireTable | readonly WireTable[], expected: ExpectedRows, label = "", from = 0): void {
  const tables = Array.isArray(actual) ? actual : [actual as WireTable];
  if (sameRowsQuickly(tables, expected, from)) return;
  expectSameRowTexts(tables.flatMap((t) => t.rows), expected.rows.slice(from), label);
}

/** Same canonical rows in the same order; a failure names the first row that differs. */
export function expectSameRowTexts(actual: readonly string[], expected: readonly string[], label = ""): void {
  const first = actual.findIndex((row, i) => row !== expected[i]);
  if (first >= 0) expect(actual[first], `${label} row ${first} differs`).toBe(expected[first]);
  expect(actual.length, `${label} row count`).toBe(expected.length);
}

export function mediaType(contentType: string | null): string | undefined {
  return contentType?.split(";")[0].trim().toLowerCase();
}

/** Query parameters of a path as sorted [name, value] pairs (duplicates kept). */
function sortedParams(pathAndQuery: string): [string, string][] {
  return [...new URL(pathAndQuery, "http://x").searchParams].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : 1));
}

export interface PagePosition {
  format: Format;
  offset: number;
  limit: number;
  rows: number;
  nextOffset: number | null;
  columns: readonly string[];
}

/** One page keeps every paging promise for its place in the walk. */
export function expectPage(page: Page, at: PagePosition): void {
  const label = `page at offset ${at.offset} (${page.requested})`;
  expect(mediaType(page.contentType), label).toBe(MEDIA_TYPES[at.format]);
  expect(page.headers, label).toMatchObject({
    offset: String(at.offset),
    limit: String(at.limit),
    nextOffset: at.nextOffset === null ? "" : String(at.nextOffset),
  });
  if (at.format === "json") {
    expect(page.table.keys, label).toEqual(["data", "pagination"]);
    expect(page.table.pagination, label).toStrictEqual({ offset: at.offset, limit: at.limit, next_offset: at.nextOffset });
  }
  if (at.format !== "json" || at.rows > 0) expect(page.table.columns, label).toEqual(at.columns);
  expect(page.table.height, label).toBe(at.rows);
  if (at.nextOffset === null) expect(page.headers.link, label).toBeNull();
  else {
    const target = page.headers.link?.match(/^<([^>]+)>; rel="next"$/)?.[1];
    expect(target, `${label}: Link header ${page.headers.link}`).toBeDefined();
    expect(new URL(target!, "http://x").pathname, label).toBe(new URL(page.requested, "http://x").pathname);
    const wanted = sortedParams(page.requested).filter(([k]) => k !== "offset");
    wanted.push(["offset", String(at.nextOffset)]);
    expect(sortedParams(target!), label).toEqual(sortedParams(`?${new URLSearchParams(wanted)}`));
  }
}
