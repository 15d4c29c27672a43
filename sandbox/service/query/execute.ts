/**
 * Runs a checked query against the market's Parquet files with Polars: prune files, scan
 * them lazily, filter (query filters and entitlement constraints), order (the dataset key by
 * default; a requested sort is completed by the key so pages never overlap), take one page
 * plus one row to learn whether another page follows, and choose columns. A query that
 * outlives the budget is abandoned and answered 504.
 */
import pl from "nodejs-polars";
import type { Dataset } from "../../market/catalog.ts";
import { polarsType } from "../../market/schema.ts";
import { gatewayTimeout } from "../errors.ts";
import type { Constraints } from "./entitlement.ts";
import { constraintExprs, filterExpr } from "./filters.ts";
import { type MarketFile, pruneFiles } from "./marketFiles.ts";
import type { DataQuery } from "./parse.ts";

export interface PageResult {
  frame: pl.DataFrame;
  nextOffset: number | null;
  /** Bytes of the Parquet files the engine opened. */
  bytesScanned: number;
}

/** Rows a Polars frame can index (u32). */
const MAX_ROWS = 2 ** 32 - 1;

function emptyFrame(dataset: Dataset): pl.DataFrame {
  return pl.DataFrame(dataset.columns.map((c) => pl.Series(c.name, [], polarsType(c.type))));
}

/** The lazy query before paging: pruned files, filters and order. */
export function planQuery(files: readonly MarketFile[], dataset: Dataset, query: DataQuery, constraints: Constraints): { plan: pl.LazyDataFrame; scanned: MarketFile[] } {
  const scanned = pruneFiles(files, dataset, query, constraints);
  let plan = scanned.length === 0
    ? emptyFrame(dataset).lazy()
    : scanned.length === 1
    ? pl.scanParquet(scanned[0].path)
    : pl.concat(scanned.map((f) => pl.scanParquet(f.path)), { how: "vertical" });
  const predicates = [...query.filters.map(filterExpr), ...constraintExprs(constraints)];
  if (predicates.length > 0) plan = plan.filter(predicates.reduce((a, b) => a.and(b)));
  if (query.sort.length > 0) {
    const requested = query.sort.map((s) => s.column);
    const tieBreak = dataset.key.filter((k) => !requested.includes(k));
    plan = plan.sort([...requested, ...tieBreak], [...query.sort.map((s) => s.descending), ...tieBreak.map(() => false)]);
  }
  return { plan, scanned };
}

/**
 * One page of a query.
 *
 * @example
 * ```ts
 * const page = await executePage(files, dataset, query, constraints, 30_000);
 * page.frame.height; page.nextOffset;
 * ```
 */
export async function executePage(
  files: readonly MarketFile[],
  dataset: Dataset,
  query: DataQuery,
  constraints: Constraints,
  budgetMs: number,
): Promise<PageResult> {
  const { plan, scanned } = planQuery(files, dataset, query, constraints);
  const columns = query.columns ?? dataset.columns.map((c) => c.name);
  // Polars counts rows in u32 and panics, aborting the whole process, on a slice offset past
  // that; no result can hold so many rows, so such a page is empty without asking the engine.
  if (query.offset >= MAX_ROWS) return { frame: emptyFrame(dataset).select(...columns), nextOffset: null, bytesScanned: 0 };
  const page = plan.slice(query.offset, query.limit + 1).select(...columns);
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(gatewayTimeout()), budgetMs);
  });
  try {
    const collected = await Promise.race([page.collect(), timeout]);
    // Under Deno a pending native collect holds timers back, so the race alone never answers
    // 504 there: the clock decides too.
    if (performance.now() - started > budgetMs) throw gatewayTimeout();
    const more = collected.height > query.limit;
    return {
      frame: more ? collected.head(query.limit) : collected,
      nextOffset: more ? query.offset + query.limit : null,
      bytesScanned: scanned.reduce((sum, f) => sum + f.bytes, 0),
    };
  } finally {
    clearTimeout(timer);
  }
}
