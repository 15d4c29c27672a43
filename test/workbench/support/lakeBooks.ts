/**
 * Where a test finds a lake folder's bookkeeping (workbench/store/lakeFolder.ts): beside the
 * table, `lake/.bars.workbench/` for `lake/bars`, with the manifest, the journal and the lock.
 *
 * @example
 * ```ts
 * const m = JSON.parse(readFileSync(lakeBooks("lake/bars").manifest, "utf8"));
 * journalPartitions("lake/bars"); // [{ path: "Ticker=AAPL/TradeDate=2023-11-20", file: "Ticker=AAPL/part-…" }, …]
 * ```
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export function lakeBooks(dir: string): { books: string; manifest: string; journal: string; lock: string } {
  const books = join(dirname(dir), `.${basename(dir)}.workbench`);
  return { books, manifest: join(books, "manifest.json"), journal: join(books, "partitions.jsonl"), lock: join(books, "_download.lock") };
}

/** The partition lines of the folder's journal (its file lines left out), in order. */
export function journalPartitions(dir: string): { path: string; rows: number; file?: string }[] {
  const journal = lakeBooks(dir).journal;
  if (!existsSync(journal)) return [];
  return readFileSync(journal, "utf8").split("\n").filter(Boolean).flatMap((line) => {
    try {
      const entry = JSON.parse(line);
      return typeof entry.path === "string" ? [entry] : [];
    } catch {
      return []; // a line torn by a kill
    }
  });
}
