import pl from "nodejs-polars";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { datasetByTextId, DATASETS, partitionPath } from "../../../sandbox/market/catalog.ts";
import { polarsTypeOf } from "../../../contract/polarsTypes.ts";
import { tinyMarketDir } from "./support/market.ts";

describe("the catalog describes the files the generator writes", () => {
  for (const dataset of DATASETS) {
    it(`gives ${dataset.textId} files exactly the catalog's columns, in order, with the catalog's types`, () => {
      const frame = pl.scanParquet(join(tinyMarketDir(), dataset.textId, "**/*.parquet"), { hivePartitioning: false } as never).limit(5)
        .collectSync();
      expect(frame.columns).toEqual(dataset.columns.map((c) => c.name));
      for (const c of dataset.columns) {
        const actual = frame.getColumn(c.name).dtype;
        expect(actual.equals(polarsTypeOf(c.type)), `${c.name}: ${actual} is not ${polarsTypeOf(c.type)}`).toBe(true);
      }
    });

    it(`keys ${dataset.textId} by columns of its schema`, () => {
      const names = dataset.columns.map((c) => c.name);
      for (const k of [...dataset.key, ...dataset.pathParams.map((p) => p.column)]) expect(names).toContain(k);
    });
  }

  it("names a partition file from its values", () => {
    expect(partitionPath(datasetByTextId("eq-taq"), { TradeDate: "2023-11-21", Ticker: "AAPL" })).toBe(
      "eq-taq/TradeDate=2023-11-21/Ticker=AAPL.parquet",
    );
  });

  it("refuses an unknown dataset, naming it and the known ones", () => {
    expect(() => datasetByTextId("eq-nope")).toThrow("Unknown dataset 'eq-nope': known datasets are eq-taq-1min, eq-daily-ohlc, eq-taq");
  });

  it("refuses a missing partition value, naming the partition", () => {
    expect(() => partitionPath(datasetByTextId("eq-taq"), { TradeDate: "2023-11-21" })).toThrow("Partition value for 'Ticker' missing");
  });
});
