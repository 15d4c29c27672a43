/**
 * Fetching data pages with everything paging promises (body pagination, X-Pagination-*
 * headers, the Link header), and walking a query to its end by `next_offset` (from the JSON
 * body, or from X-Pagination-Next-Offset for CSV) or by the Link header. A walker that is
 * handed a `next_offset` that does not move forward refuses to go on instead of looping.
 */
import type { Dataset } from "../../../../sandbox/market/catalog.ts";
import { type Format, type WireTable, wireTable } from "./pagingWire.ts";
import type { AppSandbox } from "./appSandbox.ts";

export const KEY = "demo-full-access";

export interface Page {
  /** Path and query that was requested. */
  requested: string;
  status: number;
  contentType: string | null;
  headers: { offset: string | null; limit: string | null; nextOffset: string | null; link: string | null };
  table: WireTable;
  /** The next offset as the format states it: body for JSON, header for CSV. */
  nextOffset: number | null;
}

export interface PageRequest {
  sb: Pick<AppSandbox, "get">;
  dataset: Dataset;
  /** Data path without query, e.g. `/api/v1/data/us-equity/eq-daily-ohlc`. */
  path: string;
  /** Query parameters other than `offset` and `response_format`. */
  params: Record<string, string>;
  format: Format;
}

function queryPath(path: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return query === "" ? path : `${path}?${query}`;
}

/** Fetches one page at `offset` (no offset parameter when undefined). */
export function fetchPage(r: PageRequest, offset?: number): Promise<Page> {
  const params = { ...r.params, response_format: r.format, ...(offset === undefined ? {} : { offset: String(offset) }) };
  return fetchTarget(r, queryPath(r.path, params));
}

/** Fetches a page by its path and query as given (e.g. a Link target). */
async function fetchTarget(r: PageRequest, requested: string): Promise<Page> {
  const response = await r.sb.get(requested, KEY);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`GET ${requested} answered ${response.status}: ${new TextDecoder().decode(bytes)}`);
  const h = response.headers;
  const table = wireTable(bytes, r.format, r.dataset);
  const headerNext = h.get("X-Pagination-Next-Offset");
  const nextOffset = table.pagination ? table.pagination.next_offset : headerNext === null || headerNext === "" ? null : Number(headerNext);
  return {
    requested,
    status: response.status,
    contentType: h.get("Content-Type"),
    headers: { offset: h.get("X-Pagination-Offset"), limit: h.get("X-Pagination-Limit"), nextOffset: headerNext, link: h.get("Link") },
    table,
    nextOffset,
  };
}

/** The target of a `Link: <...>; rel="next"` header, or undefined when there is none. */
function nextLinkTarget(link: string | null): string | undefined {
  if (link === null) return undefined;
  const m = /^<([^>]+)>;\s*rel="next"$/.exec(link.trim());
  if (!m) throw new Error(`Link header '${link}' is not a single rel="next" link`);
  return m[1];
}

function refuseStall(offset: number, next: number): void {
  if (next <= offset) throw new Error(`next_offset ${next} does not advance past offset ${offset}: refusing to walk on`);
}

/**
 * Every page of a query from `start` (or no offset) on, following `next_offset` until it is
 * null; throws when it does not advance or after `maxPages`.
 */
export async function walkPages(r: PageRequest, start?: number, maxPages = 2_000): Promise<Page[]> {
  const pages = [await fetchPage(r, start)];
  let offset = start ?? 0;
  for (let next = pages[0].nextOffset; next !== null; next = pages.at(-1)!.nextOffset) {
    refuseStall(offset, next);
    if (pages.length >= maxPages) throw new Error(`More than ${maxPages} pages: refusing to walk on`);
    pages.push(await fetchPage(r, next));
    offset = next;
  }
  return pages;
}

/** Like walkPages, but follows the Link header's target as sent. */
export async function walkLinks(r: PageRequest, maxPages = 2_000): Promise<Page[]> {
  const pages = [await fetchPage(r)];
  for (let target = nextLinkTarget(pages[0].headers.link); target !== undefined; target = nextLinkTarget(pages.at(-1)!.headers.link)) {
    if (pages.length >= maxPages) throw new Error(`More than ${maxPages} pages: refusing to walk on`);
    const page = await fetchTarget(r, target);
    refuseStall(Number(pages.at(-1)!.headers.offset), Number(page.headers.offset));
    pages.push(page);
  }
  return pages;
}
