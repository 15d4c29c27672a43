/**
 * Deep pages without rescanning: how many rows each file contributes to a query (after its
 * row filter) is counted once and remembered, so a page at offset N in the default order opens
 * only the files that hold rows N onwards instead of reading every earlier file again. Walking
 * a long query page by page thus costs one pass over the data, not one pass per page.
 */
import pl from "nodejs-polars";
import type { MarketFile } from "./marketFiles.ts";

const MAX_ENTRIES = 500_000;
const BATCH = 32;
const counts = new Map<string, number>();

function countKey(file: MarketFile, predicateKey: string): string {
  return `${file.path}\u0000${file.bytes}\u0000${predicateKey}`;
}

async function countRows(file: MarketFile, predicate: pl.Expr | null): Promise<number> {
  const scan = pl.scanParquet(file.path);
  const frame = await (predicate ? scan.filter(predicate) : scan).select(pl.len().alias("n")).collect();
  return Number(frame.getColumn("n").get(0));
}

/**
 * The files from the one holding row `offset` on, and the offset within them.
 *
 * @example
 * ```ts
 * const { files: rest, offset: local } = await skipToOffset(files, key, predicate, 500_000);
 * ```
 */
export async function skipToOffset(
  files: readonly MarketFile[],
  predicateKey: string,
  predicate: pl.Expr | null,
  offset: number,
): Promise<{ files: MarketFile[]; offset: number }> {
  let skipped = 0;
  for (let i = 0; i < files.length; i += BATCH) {
    const batch = files.slice(i, i + BATCH);
    const missing = batch.filter((f) => !counts.has(countKey(f, predicateKey)));
    // Files are counted a batch at a time, concurrently on the engine's threads.
    const found = await Promise.all(missing.map((f) => countRows(f, predicate)));
    if (counts.size + missing.length > MAX_ENTRIES) counts.clear();
    missing.forEach((f, k) => counts.set(countKey(f, predicateKey), found[k]));
    for (const [k, f] of batch.entries()) {
      const n = counts.get(countKey(f, predicateKey)) ?? 0;
      if (skipped + n > offset) return { files: files.slice(i + k), offset: offset - skipped };
      skipped += n;
    }
  }
  return { files: [], offset: offset - skipped };
}
