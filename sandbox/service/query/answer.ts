/**
 * One page of a data request as the body of its answer. A page of a query whose whole result
 * this worker holds written (writtenResults.ts: written here or by another worker) is cut
 * from those bytes at once, without the engine; any other page is run (execute.ts) and
 * written (render.ts), and its frame is let go (frameCollector.ts).
 */
import type { Dataset } from "../../market/catalog.ts";
import type { QueryControl } from "./control.ts";
import type { Constraints } from "./entitlement.ts";
import { executePage, wholeResultKey } from "./execute.ts";
import { estimatedBytes } from "./frameCache.ts";
import { letGo } from "./frameCollector.ts";
import { type MarketFile, pruneFiles } from "./marketFiles.ts";
import type { DataQuery } from "./parse.ts";
import { firstRowsOf, type Rendered, renderPage, renderWritten, writtenLines } from "./render.ts";
import { rowCount } from "./writtenResults.ts";

export interface AnsweredPage {
  rendered: Rendered;
  nextOffset: number | null;
  /** Bytes of the Parquet files the query reads. */
  bytesScanned: number;
  /** Rows in the page. */
  rows: number;
  /** The page cut to its first `rows` rows (fewer than it has), written again; its next offset follows them. */
  firstRows: (rows: number) => AnsweredPage;
}

/**
 * The page, or its first rows, within `maxBytes` of body: the count of rows is aimed at by the
 * share of the bytes that fit, so nearly as many as fit (a page shortened so is followed by the
 * rest, from its next offset), or undefined when not even its first row fits. A monthly
 * returned-bytes quota is met so before a page is served.
 *
 * @example
 * ```ts
 * const fitted = pageWithin(page, 1_000_000); // page itself when its body is 1 MB or less
 * ```
 */
export function pageWithin(page: AnsweredPage, maxBytes: number): AnsweredPage | undefined {
  let tried = page;
  while (tried.rendered.byteLength > maxBytes) {
    // A body grows about in step with its rows: aim at the share that fits, below the last try.
    const rows = Math.min(tried.rows - 1, Math.floor((tried.rows * maxBytes) / tried.rendered.byteLength));
    if (rows <= 0) return undefined;
    tried = page.firstRows(rows);
  }
  return tried;
}

/** A page answered with `render(rows)`, and its shortened forms. */
function answered(
  query: DataQuery,
  rows: number,
  nextOffset: number | null,
  bytesScanned: number,
  render: (rows: number, pagination: Pagination) => Rendered,
): AnsweredPage {
  const pagination = (next: number | null) => ({ offset: query.offset, limit: query.limit, next_offset: next });
  const firstRows = (n: number): AnsweredPage => ({
    rendered: render(n, pagination(query.offset + n)),
    nextOffset: query.offset + n,
    bytesScanned,
    rows: n,
    firstRows,
  });
  return { rendered: render(rows, pagination(nextOffset)), nextOffset, bytesScanned, rows, firstRows };
}

type Pagination = { offset: number; limit: number; next_offset: number | null };

/**
 * The page a checked query asks for, written in its format.
 *
 * @example
 * ```ts
 * const { rendered, nextOffset } = await answerPage(market.files.get("eq-taq-1min")!, dataset, query, constraints, new QueryControl(30_000, 256 * 2 ** 20));
 * ```
 */
export async function answerPage(
  files: readonly MarketFile[],
  dataset: Dataset,
  query: DataQuery,
  constraints: Constraints,
  control: QueryControl,
): Promise<AnsweredPage> {
  const pruned = pruneFiles(files, dataset, query, constraints);
  const key = wholeResultKey(dataset, query, constraints, pruned);
  const written = key === undefined ? undefined : writtenLines({ key }, dataset, query.format === "json");
  if (written) {
    const total = rowCount(written);
    const rows = Math.max(0, Math.min(query.limit, total - query.offset));
    const nextOffset = total > query.offset + query.limit ? query.offset + query.limit : null;
    const from = Math.min(query.offset, total);
    return answered(
      query,
      rows,
      nextOffset,
      pruned.reduce((sum, f) => sum + f.bytes, 0),
      (n, pagination) => renderWritten(written, dataset, query.format, { from, rows: n }, pagination),
    );
  }
  const page = await executePage(files, dataset, query, constraints, control);
  const { frame, slice } = page;
  const result = answered(
    query,
    frame.height,
    page.nextOffset,
    page.bytesScanned,
    (n, pagination) => renderPage(firstRowsOf(frame, n), dataset, query.format, pagination, slice),
  );
  // The page's frame (and the plan that made it) are not used again once the page is sent: see
  // frameCollector.ts. A page cut from a cached whole result is a view of that result's buffers
  // and frees nothing.
  if (slice === undefined) letGo(() => estimatedBytes(frame));
  return result;
}
