/**
 * Pages of long queries without rescanning: how many rows each file contributes to a query
 * (after its row filter) is counted once and remembered, so a page in the default order opens
 * only the files that hold its rows instead of every earlier file again (and planning a scan
 * of thousands of files costs seconds by itself). Walking a long query page by page thus costs
 * one pass over the data, not one pass per page.
 */
import pl from "nodejs-polars";
import type { QueryControl } from "./control.ts";
import { fileScan } from "./fileScans.ts";
import type { MarketFile } from "./marketFiles.ts";

const MAX_ENTRIES = 500_000;
const BATCH = 32;
const counts = new Map<string, number>();

function countKey(file: MarketFile, predicateKey: string): string {
  return `${file.path}\u0000${file.bytes}\u0000${predicateKey}`;
}

async function countRows(file: MarketFile, predicate: pl.Expr | null): Promise<number> {
  const scan = fileScan(file);
  const frame = await (predicate ? scan.filter(predicate) : scan).select(pl.len().alias("n")).collect();
  return Number(frame.getColumn("n").get(0));
}

/**
 * The files that hold rows `offset` to `offset + rows - 1` of a query in the default order,
 * and the offset of the first of them within those files. A page then plans a scan of a
 * hundred files rather than thousands. Each batch of files counted is a step of the query
 * under `control` (control.ts), when given.
 *
 * @example
 * ```ts
 * const { files: window, offset: local } = await pageFiles(files, key, predicate, 500_000, 10_001, control);
 * ```
 */
export async function pageFiles(
  files: readonly MarketFile[],
  predicateKey: string,
  predicate: pl.Expr | null,
  offset: number,
  rows: number,
  control?: QueryControl,
): Promise<{ files: MarketFile[]; offset: number }> {
  let before = 0, first = -1, covered = 0;
  for (let i = 0; i < files.length; i += BATCH) {
    const batch = files.slice(i, i + BATCH);
    const missing = batch.filter((f) => !counts.has(countKey(f, predicateKey)));
    // Files are counted a batch at a time, concurrently on the engine's threads.
    const count = () => Promise.all(missing.map((f) => countRows(f, predicate)));
    const found = missing.length === 0 ? [] : control ? await control.step(count) : await count();
    if (counts.size + missing.length > MAX_ENTRIES) counts.clear();
    missing.forEach((f, k) => counts.set(countKey(f, predicateKey), found[k]));
    for (const [k, f] of batch.entries()) {
      const n = counts.get(countKey(f, predicateKey)) ?? 0;
      if (first < 0) {
        if (before + n <= offset) {
          before += n;
          continue;
        }
        first = i + k;
      }
      covered += n;
      if (before + covered >= offset + rows) return { files: files.slice(first, i + k + 1), offset: offset - before };
    }
  }
  return { files: first < 0 ? [] : files.slice(first), offset: offset - before };
}
