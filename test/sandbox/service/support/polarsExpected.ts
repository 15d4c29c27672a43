/**
 * What the service should answer, computed without it: a dataset read straight from the
 * market's Parquet files with Polars, and its rows in the canonical text form the wire
 * readers (pagingWire.ts) also produce, so a page and a frame compare with one `toEqual`.
 *
 * Canonical cells: dates `YYYY-MM-DD`; date-times epoch nanoseconds as decimal text (read
 * from the Int64 storage, never through a JS number); integers their exact decimal digits;
 * floats the shortest text of the double (`String(x)`), so equal text means the same double;
 * strings themselves; null stays null. A row is the JSON text of its cells.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import pl from "nodejs-polars";
import type { Dataset } from "../../../../sandbox/market/catalog.ts";
import type { ColumnType } from "../../../../sandbox/market/schema.ts";

/** Every Parquet file at or under a path, in name order. */
function parquetFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => parquetFiles(join(path, name))).filter((p) => p.endsWith(".parquet"));
}

/**
 * A dataset's rows read from its files (all of them, or those under `under`: a partition
 * folder or one file), in the catalog's key order.
 *
 * @example
 * ```ts
 * readDataset(dir, datasetByTextId("eq-taq-1min"), "aggregation_logic=core");
 * ```
 */
export function readDataset(marketDir: string, dataset: Dataset, under = ""): pl.DataFrame {
  const files = parquetFiles(join(marketDir, dataset.textId, under));
  if (files.length === 0) throw new Error(`No Parquet files for ${dataset.textId} under '${under}' in ${marketDir}`);
  const frame = files.length === 1 ? pl.readParquet(files[0]) : pl.concat(files.map((f) => pl.readParquet(f)), { how: "vertical" });
  return frame.sort(dataset.key);
}

export function columnTypes(dataset: Dataset): Map<string, ColumnType> {
  return new Map(dataset.columns.map((c) => [c.name, c.type]));
}

/** The frame's columns as canonical cells (see the module note), column by column. */
function canonicalColumns(frame: pl.DataFrame, dataset: Dataset): (string | null)[][] {
  const types = columnTypes(dataset);
  const exprs = frame.columns.map((name) => {
    const c = pl.col(name);
    switch (types.get(name)) {
      case "date":
        return c.dt.strftime("%Y-%m-%d");
      case "datetime_ns":
      case "datetime_ms":
        return c.cast(pl.Int64).cast(pl.Utf8);
      case "int64":
        return c.cast(pl.Utf8);
      case undefined:
        throw new Error(`Column '${name}' is not in the catalog of ${dataset.textId}`);
      default:
        return c;
    }
  });
  const text = frame.select(...exprs);
  return text.columns.map((name) =>
    (text.getColumn(name).toArray() as unknown[]).map((
      v,
    ) => (v === null || v === undefined ? null : Array.isArray(v) ? JSON.stringify(v) : String(v)))
  );
}

/** Zips columns of cells into canonical row texts. */
export function rowTexts(columns: (string | null)[][], height: number): string[] {
  const rows: string[] = new Array(height);
  for (let i = 0; i < height; i++) rows[i] = JSON.stringify(columns.map((col) => col[i]));
  return rows;
}

/** The frame's rows in canonical form. */
export function frameRows(frame: pl.DataFrame, dataset: Dataset): string[] {
  return rowTexts(canonicalColumns(frame, dataset), frame.height);
}
