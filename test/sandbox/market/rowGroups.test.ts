/**
 * A dataset with a row-group column (the catalog's `rowGroupColumn`) is written one row group
 * per value, in key order, each with statistics: what lets a query for one ticker decode only
 * its rows of a file (sandbox/service/query/execute.ts, readsOneRowGroup). Read with DuckDB,
 * an engine other than the one that wrote the files.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../sandbox/market/catalog.ts";
import { tinyMarketDir } from "./support/market.ts";

describe("row groups of a dataset with a row-group column", () => {
  const grouped = DATASETS.filter((d) => d.rowGroupColumn !== undefined);

  it("is eq-taq-1min by Ticker, a column every query of it pins through the path", () => {
    expect(grouped.map((d) => [d.textId, d.rowGroupColumn])).toEqual([["eq-taq-1min", "Ticker"]]);
    for (const d of grouped) expect(d.pathParams.map((p) => p.column)).toContain(d.rowGroupColumn);
  });

  it("holds one value per row group, every value of the file in its own group, with min and max", async () => {
    const duck = await (await DuckDBInstance.create(":memory:")).connect();
    try {
      for (const d of grouped) {
        const root = join(tinyMarketDir(), d.textId);
        const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".parquet")).map((f) =>
          join(root, f)
        );
        expect(files.length).toBeGreaterThan(0);
        for (const file of files.slice(0, 3)) {
          const groups = (await duck.runAndReadAll(
            `SELECT row_group_id, stats_min_value, stats_max_value FROM parquet_metadata('${file}') WHERE path_in_schema = '${d.rowGroupColumn}' ORDER BY row_group_id`,
          )).getRows().map(([, min, max]) => [String(min), String(max)]);
          const values = (await duck.runAndReadAll(`SELECT DISTINCT "${d.rowGroupColumn}" FROM read_parquet('${file}') ORDER BY 1`))
            .getRows().map(([v]) => String(v));
          expect(groups.length, file).toBeGreaterThan(1);
          expect(groups.map(([min]) => min), file).toEqual(values);
          expect(groups.every(([min, max]) => min === max), file).toBe(true);
        }
      }
    } finally {
      duck.closeSync();
    }
  });
});
