/**
 * A query over many files, read a batch of files at a time: each batch is one step of the
 * query (control.ts), so a query past its budget, its memory ceiling or its client stops after
 * the batch under way instead of running over every file. A batch holds at most BATCH_FILES
 * files and BATCH_BYTES of Parquet (one larger file alone), which bounds both what runs on after
 * a query is stopped and what a step adds to the worker's memory before the next check. Within
 * a batch the engine still reads the files side by side.
 */
import pl from "nodejs-polars";
import type { QueryControl } from "./control.ts";
import { estimatedBytes } from "./frameCache.ts";
import type { MarketFile } from "./marketFiles.ts";

/** Files read in one step of a query. */
const BATCH_FILES = 16;
/** Parquet bytes read in one step of a query (a larger file is a batch of its own). */
const BATCH_BYTES = 8 * 2 ** 20;

/**
 * `files` in order, cut into batches of at most `maxFiles` files and `maxBytes` bytes.
 *
 * @example
 * ```ts
 * batches(files).map((b) => b.length); // [16, 16, 7]
 * ```
 */
export function batches(files: readonly MarketFile[], maxFiles = BATCH_FILES, maxBytes = BATCH_BYTES): MarketFile[][] {
  const out: MarketFile[][] = [];
  let current: MarketFile[] = [], bytes = 0;
  for (const file of files) {
    if (current.length > 0 && (current.length >= maxFiles || bytes + file.bytes > maxBytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += file.bytes;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * The rows `read` gives for each batch of `files` (at least one), in file order, collected a
 * batch at a time under `control`; what the query holds is counted against its ceiling.
 *
 * @example
 * ```ts
 * const rows = await collectInBatches(window, (batch) => pl.concat(batch.map(fileScan)).filter(predicate), control);
 * ```
 */
export async function collectInBatches(
  files: readonly MarketFile[],
  read: (batch: MarketFile[]) => pl.LazyDataFrame,
  control: QueryControl,
): Promise<pl.DataFrame> {
  const parts: pl.DataFrame[] = [];
  for (const batch of batches(files)) {
    const part = await control.step(() => read(batch).collect());
    control.hold(estimatedBytes(part));
    parts.push(part);
  }
  return parts.length === 1 ? parts[0] : pl.concat(parts, { rechunk: false, how: "vertical" });
}

/** An order of rows: columns, each ascending or descending. */
export interface RowOrder {
  columns: string[];
  descending: boolean[];
}

/**
 * The first `count` rows of `files` (at least one) in `order`, a batch at a time: each batch's
 * first `count` rows are merged with those kept so far, so the query holds at most twice
 * `count` rows whatever the number of files. The order must be total (ended by the dataset's
 * key) for the answer to be the one a single sort of every row gives.
 *
 * @example
 * ```ts
 * const top = await firstInOrder(files, (batch) => pl.concat(batch.map(fileScan)).filter(predicate), { columns: ["Volume", "Ticker"], descending: [true, false] }, 101, control);
 * ```
 */
export async function firstInOrder(
  files: readonly MarketFile[],
  read: (batch: MarketFile[]) => pl.LazyDataFrame,
  order: RowOrder,
  count: number,
  control: QueryControl,
): Promise<pl.DataFrame> {
  const first = (lazy: pl.LazyDataFrame) => lazy.sort(order.columns, order.descending).head(count);
  let kept: pl.DataFrame | undefined;
  for (const batch of batches(files)) {
    const top = await control.step(() => first(read(batch)).collect());
    control.hold(estimatedBytes(top));
    if (kept === undefined) {
      kept = top;
      continue;
    }
    const before = kept;
    kept = await control.step(() => first(pl.concat([before.lazy(), top.lazy()], { how: "vertical" })).collect());
    control.hold(estimatedBytes(kept));
    control.release(estimatedBytes(before) + estimatedBytes(top));
  }
  return kept!;
}
