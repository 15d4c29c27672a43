/**
 * Runs a checked query against the market's Parquet files with Polars: prune files, scan
 * them lazily (or, for a query of a few files or a page's window of files, take them decoded
 * from frameCache.ts, unless the query reads one row group of each: see readsOneRowGroup),
 * filter (query filters and entitlement constraints), order (the dataset key by default; a
 * requested sort is completed by the key so pages never overlap), take one page plus one row to
 * learn whether another page follows, choose columns and, but for a CSV page (whose writer
 * formats them), write dates and date-times as text. The work is done in steps checked
 * against the query's control (control.ts): a query past its budget or its memory ceiling
 * stops and is answered 504, one whose client has gone stops too.
 */
import pl from "nodejs-polars";
import type { Dataset } from "../../market/catalog.ts";
import { polarsTypeOf } from "../../../contract/polarsTypes.ts";
import type { Constraints } from "./entitlement.ts";
import { collectInBatches, firstInOrder, type RowOrder } from "./batches.ts";
import type { QueryControl } from "./control.ts";
import { constraintExprs, filterExpr } from "./filters.ts";
import { memoized } from "./exprMemo.ts";
import {
  CACHED_FILES_PER_QUERY,
  CACHED_FILES_PER_WINDOW,
  cachedFrames,
  estimatedBytes,
  FRAME_CACHE_BYTES,
  windowFrames,
} from "./frameCache.ts";
import { markTemporalAsText, temporalAsText } from "./render.ts";
import { fileScan } from "./fileScans.ts";
import { type MarketFile, pruneFiles } from "./marketFiles.ts";
import { cachedResult, RESULT_CACHE_MAX_LIMIT, type ResultSlice } from "./resultCache.ts";
import { pageFiles } from "./rowCounts.ts";
import type { DataQuery } from "./parse.ts";

export interface PageResult {
  frame: pl.DataFrame;
  nextOffset: number | null;
  /** Bytes of the Parquet files the engine opened. */
  bytesScanned: number;
  /** Where the page lies in its query's cached whole result, when it was cut from one. */
  slice?: ResultSlice;
}

/** Rows a Polars frame can index (u32). */
const MAX_ROWS = 2 ** 32 - 1;

/** A frame with no rows and the dataset's column types (so every format writes the right header). */
function emptyFrame(dataset: Dataset): pl.DataFrame {
  // nodejs-polars cannot build an empty List series directly ("not a valid conversion to
  // 'DataType'"): an empty String series cast to List(String) has the same type.
  return pl.DataFrame(
    dataset.columns.map((c) =>
      c.type === "list_string" ? pl.Series(c.name, [], pl.String).cast(polarsTypeOf(c.type)) : pl.Series(c.name, [], polarsTypeOf(c.type))
    ),
  );
}

/** The row filter of a query (its filters and the access rule's), with a key naming it. */
function rowPredicate(dataset: Dataset, query: DataQuery, constraints: Constraints): { key: string; predicate: pl.Expr | null } {
  // pruneFiles kept only files whose partition values the access rule allows, and a file holds
  // only rows of its partition values: a rule on a partition column needs no row filter.
  const partitioned = (column?: string) => column !== undefined && dataset.partitioning.keys.includes(column);
  const rowConstraints: Constraints = {
    ...constraints,
    window: partitioned(constraints.window?.column) ? undefined : constraints.window,
    universe: partitioned(constraints.universe?.column) ? undefined : constraints.universe,
  };
  const filters = query.filters.map((f) => [f.column.name, f.column.type, f.op, f.values.map(String)]);
  const key = `where\u0000${JSON.stringify([filters, rowConstraints])}`;
  const predicate = memoized(key, () => {
    const predicates = [...query.filters.map(filterExpr), ...constraintExprs(rowConstraints)];
    return predicates.length > 0 ? predicates.reduce((a, b) => a.and(b)) : null;
  });
  return { key, predicate };
}

/**
 * Whether a query pins its dataset's row-group column to one value (see the catalog's
 * `rowGroupColumn`): its files are then read from disk, where only that value's row group of
 * each is decoded, instead of being decoded whole into the cache.
 *
 * @example
 * ```ts
 * readsOneRowGroup(datasetByTextId("eq-taq-1min"), query); // true: the path names one ticker
 * ```
 */
export function readsOneRowGroup(dataset: Dataset, query: DataQuery): boolean {
  const column = dataset.rowGroupColumn;
  return column !== undefined && query.filters.some((f) => f.column.name === column && f.op === "eq" && f.values.length === 1);
}

/** The columns a query returns, and the key naming them for the expression memo. */
function returnedColumns(dataset: Dataset, query: DataQuery): { columns: string[]; key: string } {
  const columns = query.columns ?? dataset.columns.map((c) => c.name);
  return { columns, key: `${dataset.textId}\u0000${columns.join("\u0000")}` };
}

/**
 * The key of a query's whole result when its pages are cut from it (a small page of a query
 * of a few files, answered from decoded files: see resultCache.ts and writtenResults.ts), or
 * undefined when its pages are read on their own. `pruned` are the query's files (pruneFiles).
 *
 * @example
 * ```ts
 * const key = wholeResultKey(dataset, query, constraints, pruneFiles(files, dataset, query, constraints));
 * ```
 */
export function wholeResultKey(
  dataset: Dataset,
  query: DataQuery,
  constraints: Constraints,
  pruned: readonly MarketFile[],
): string | undefined {
  if (
    query.limit > RESULT_CACHE_MAX_LIMIT || query.offset >= MAX_ROWS || pruned.length === 0 || pruned.length > CACHED_FILES_PER_QUERY ||
    FRAME_CACHE_BYTES === 0
  ) return undefined;
  return `${rowPredicate(dataset, query, constraints).key}\u0000${pruned.map((f) => f.path).join("\u0000")}\u0000${
    returnedColumns(dataset, query).key
  }\u0000${JSON.stringify(query.sort)}`;
}

/**
 * The lazy query before paging: pruned files, filters and order. A file found in `frames`
 * (already decoded, see frameCache.ts) is read from memory instead of disk.
 */
export function planQuery(
  files: readonly MarketFile[],
  dataset: Dataset,
  query: DataQuery,
  constraints: Constraints,
  frames?: ReadonlyMap<string, pl.DataFrame>,
  only?: MarketFile[],
): { plan: pl.LazyDataFrame; scanned: MarketFile[] } {
  const scanned = only ?? pruneFiles(files, dataset, query, constraints);
  const source = (f: MarketFile) => frames?.get(f.path)?.lazy() ?? fileScan(f);
  let plan = scanned.length === 0
    ? emptyFrame(dataset).lazy()
    : scanned.length === 1
    ? source(scanned[0])
    : pl.concat(scanned.map(source), { how: "vertical" });
  const { predicate } = rowPredicate(dataset, query, constraints);
  if (predicate !== null) plan = plan.filter(predicate);
  if (query.sort.length > 0) {
    const order = rowOrder(dataset, query);
    plan = plan.sort(order.columns, order.descending);
  }
  return { plan, scanned };
}

/** The order a sorted query's rows come in: the requested columns, then the dataset's key. */
function rowOrder(dataset: Dataset, query: DataQuery): RowOrder {
  const requested = query.sort.map((s) => s.column);
  const tieBreak = dataset.key.filter((k) => !requested.includes(k));
  return { columns: [...requested, ...tieBreak], descending: [...query.sort.map((s) => s.descending), ...tieBreak.map(() => false)] };
}

/**
 * One page of a query, its work bounded by `control` (control.ts): a budget, the client's
 * connection and a memory ceiling, checked between the steps of the query (batches of files,
 * batches.ts), so a query stopped by any of them runs at most the step under way.
 *
 * @example
 * ```ts
 * const page = await executePage(files, dataset, query, constraints, new QueryControl(30_000, 256 * 2 ** 20));
 * page.frame.height; page.nextOffset;
 * ```
 */
export async function executePage(
  files: readonly MarketFile[],
  dataset: Dataset,
  query: DataQuery,
  constraints: Constraints,
  control: QueryControl,
): Promise<PageResult> {
  const { columns, key } = returnedColumns(dataset, query);
  // Polars counts rows in u32 and panics, aborting the whole process, on a slice offset past
  // that; no result can hold so many rows, so such a page is empty without asking the engine.
  if (query.offset >= MAX_ROWS) return { frame: emptyFrame(dataset).select(...columns), nextOffset: null, bytesScanned: 0 };
  const pruned = pruneFiles(files, dataset, query, constraints);
  const fromDisk = readsOneRowGroup(dataset, query);
  let frames = fromDisk ? undefined : await control.step(() => cachedFrames(pruned, CACHED_FILES_PER_QUERY));
  // A query of a few files has its whole result cached and its pages cut from it.
  const few = frames !== undefined || (fromDisk && pruned.length <= CACHED_FILES_PER_QUERY);
  // A page in the default order opens only the files that hold its rows, decoded ones as far as
  // the cache can hold them (the rest are read from disk: see windowFrames).
  let only: MarketFile[] | undefined;
  let offset = query.offset;
  if (!few && query.sort.length === 0 && pruned.length > 1) {
    const { key, predicate } = rowPredicate(dataset, query, constraints);
    ({ files: only, offset } = await pageFiles(pruned, key, predicate, offset, query.limit + 1, control));
    if (!fromDisk) frames = await control.step(() => windowFrames(only!, CACHED_FILES_PER_WINDOW, dataset.textId));
  }
  const { plan, scanned } = planQuery(files, dataset, query, constraints, frames, only);
  // One multi-column expression: sixty-odd single-column ones cost a millisecond to build.
  // Dates and date-times become text here, on the engine's threads, rather than on the page,
  // for a whole result (written in either format) and a JSON page; a CSV page's are written
  // by the CSV writer itself (render.ts), for less.
  const asText = memoized(`text\u0000${key}`, () => temporalAsText(columns, dataset));
  const shaped = (lazy: pl.LazyDataFrame, text: boolean) => {
    const selected = lazy.select(memoized(`columns\u0000${key}`, () => pl.col(columns)));
    return text && asText.length > 0 ? selected.withColumns(...asText) : selected;
  };
  // A batch of the query's files as one lazy frame, filtered (for the steps of batches.ts).
  const source = (f: MarketFile) => frames?.get(f.path)?.lazy() ?? fileScan(f);
  const { predicate } = rowPredicate(dataset, query, constraints);
  const filtered = (batch: MarketFile[]) => {
    const lazy = batch.length === 1 ? source(batch[0]) : pl.concat(batch.map(source), { how: "vertical" });
    return predicate === null ? lazy : lazy.filter(predicate);
  };
  const pageAsText = query.format === "json";
  let collected: pl.DataFrame;
  let slice: ResultSlice | undefined;
  const resultKey = few ? wholeResultKey(dataset, query, constraints, scanned) : undefined;
  if (resultKey !== undefined) {
    // A small page of a query of a few files: cut it from the query's whole result. Over
    // decoded files on this thread: their result is small, and handing it to the engine's
    // pool and back cost more CPU than computing it (about 10% of a first page).
    const compute = () => frames ? Promise.resolve().then(() => shaped(plan, true).collectSync()) : shaped(plan, true).collect();
    const whole = await control.step(() => cachedResult(resultKey, compute));
    control.hold(estimatedBytes(whole));
    collected = whole.slice(offset, query.limit + 1);
    slice = { key: resultKey, whole: markTemporalAsText(whole), from: offset };
  } else if (only && only.length > 0) {
    // The window holds the page's rows and at most the rest of its first and last files, read a
    // batch of files at a time. Polars reads a concatenation under a slice one file after
    // another; without it, side by side.
    collected = (await collectInBatches(only, (batch) => shaped(filtered(batch), pageAsText), control)).slice(offset, query.limit + 1);
  } else if (query.sort.length > 0 && !few && scanned.length > 1) {
    // A sorted query over many files: each batch's first rows in the order, merged, so neither
    // the work between two checks nor the rows held grow with the number of files.
    const order = rowOrder(dataset, query);
    const kept = [...new Set([...columns, ...order.columns])];
    const first = await firstInOrder(scanned, (batch) => filtered(batch).select(...kept), order, offset + query.limit + 1, control);
    collected = await control.step(() => shaped(first.slice(offset, query.limit + 1).lazy(), pageAsText).collect());
  } else {
    collected = await control.step(() => shaped(plan.slice(offset, query.limit + 1), pageAsText).collect());
    control.hold(estimatedBytes(collected));
  }
  const more = collected.height > query.limit;
  const frame = more ? collected.head(query.limit) : collected;
  return {
    frame: slice || pageAsText ? markTemporalAsText(frame) : frame,
    nextOffset: more ? query.offset + query.limit : null,
    bytesScanned: scanned.reduce((sum, f) => sum + f.bytes, 0),
    slice,
  };
}
