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
import { type Rendered, renderPage, renderWritten, writtenLines } from "./render.ts";
import { rowCount } from "./writtenResults.ts";

export interface AnsweredPage {
  rendered: Rendered;
  nextOffset: number | null;
  /** Bytes of the Parquet files the query reads. */
  bytesScanned: number;
}

/**
 * The page a checked query asks for, written in its format.
 *
 * @example
 * ```ts
 * const { rendered, nextOffset } = await answerPage(market.files.get("eq-taq-1min")!, dataset, query, constraints, new QueryControl(30_000, 256 * 2 ** 20));
 * ```
 */
export async function answerPage(files: readonly MarketFile[], dataset: Dataset, query: DataQuery, constraints: Constraints, control: QueryControl): Promise<AnsweredPage> {
  const pruned = pruneFiles(files, dataset, query, constraints);
  const key = wholeResultKey(dataset, query, constraints, pruned);
  const written = key === undefined ? undefined : writtenLines({ key }, dataset, query.format === "json");
  if (written) {
    const total = rowCount(written);
    const rows = Math.max(0, Math.min(query.limit, total - query.offset));
    const nextOffset = total > query.offset + query.limit ? query.offset + query.limit : null;
    const pagination = { offset: query.offset, limit: query.limit, next_offset: nextOffset };
    return {
      rendered: renderWritten(written, dataset, query.format, { from: Math.min(query.offset, total), rows }, pagination),
      nextOffset,
      bytesScanned: pruned.reduce((sum, f) => sum + f.bytes, 0),
    };
  }
  const page = await executePage(files, dataset, query, constraints, control);
  const pagination = { offset: query.offset, limit: query.limit, next_offset: page.nextOffset };
  const rendered = renderPage(page.frame, dataset, query.format, pagination, page.slice);
  // The page's frame (and the plan that made it) are not used again: see frameCollector.ts. A
  // page cut from a cached whole result is a view of that result's buffers and frees nothing.
  if (page.slice === undefined) letGo(() => estimatedBytes(page.frame));
  return { rendered, nextOffset: page.nextOffset, bytesScanned: page.bytesScanned };
}
