/**
 * The market's files as the query engine sees them: every Parquet file of every dataset with
 * its hive partition values and size, indexed once at start-up, and the pruning that keeps a
 * query to the files its filters can match (a one-ticker, one-day query reads one file).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Dataset } from "../../market/catalog.ts";
import type { Constraints } from "./entitlement.ts";
import type { DataQuery } from "./parse.ts";

export interface MarketFile {
  path: string;
  bytes: number;
  partition: Record<string, string>;
}

/** Lists a dataset's files in partition order (which is also the key order of their rows). */
export function indexDatasetFiles(marketDir: string, dataset: Dataset): MarketFile[] {
  const root = join(marketDir, dataset.textId);
  if (!existsSync(root)) return [];
  const files: MarketFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".parquet")) {
        const segments = relative(root, path).replace(/\.parquet$/, "").split("/");
        const partition = Object.fromEntries(segments.map((s) => s.split("=") as [string, string]));
        files.push({ path, bytes: statSync(path).size, partition });
      }
    }
  };
  walk(root);
  return files;
}

/** Values a query allows for one column, or undefined when it does not restrict them. */
function allowedValues(query: DataQuery, column: string): Set<string> | undefined {
  let allowed: Set<string> | undefined;
  for (const f of query.filters) {
    if (f.column.name !== column || (f.op !== "eq" && f.op !== "in")) continue;
    const values = new Set(f.values.map(String));
    allowed = allowed ? new Set([...allowed].filter((v) => values.has(v))) : values;
  }
  return allowed;
}

/** Inclusive string bounds a query's range filters put on a column. */
function bounds(query: DataQuery, column: string, constraints: Constraints): { low?: string; high?: string } {
  let low = constraints.window?.column === column ? constraints.window.start : undefined;
  let high = constraints.window?.column === column ? constraints.window.end ?? undefined : undefined;
  for (const f of query.filters) {
    if (f.column.name !== column) continue;
    const v = String(f.values[0]);
    if ((f.op === "ge" || f.op === "gt") && (low === undefined || v > low)) low = v;
    if ((f.op === "le" || f.op === "lt") && (high === undefined || v < high)) high = v;
  }
  return { low, high };
}

/** The files a query can match, in partition order. */
export function pruneFiles(files: readonly MarketFile[], dataset: Dataset, query: DataQuery, constraints: Constraints): MarketFile[] {
  const checks: ((f: MarketFile) => boolean)[] = [];
  for (const key of dataset.partitioning.keys) {
    if (dataset.variant && key === dataset.variant.param) {
      checks.push((f) => f.partition[key] === query.variant);
      continue;
    }
    const allowed = allowedValues(query, key);
    if (allowed) checks.push((f) => allowed.has(f.partition[key]));
    if (constraints.universe?.column === key) {
      const universe = new Set(constraints.universe.tickers);
      checks.push((f) => universe.has(f.partition[key]));
    }
    const { low, high } = bounds(query, key, constraints);
    if (low !== undefined) checks.push((f) => f.partition[key] >= low);
    if (high !== undefined) checks.push((f) => f.partition[key] <= high);
  }
  return files.filter((f) => checks.every((check) => check(f)));
}
