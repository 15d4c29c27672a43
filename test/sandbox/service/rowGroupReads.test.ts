/**
 * Which queries read their files' row groups of one value from disk instead of decoding whole
 * files into the cache (execute.ts, readsOneRowGroup): those that pin the dataset's row-group
 * column (the catalog's rowGroupColumn) to one value with an equality, as the ticker in the
 * path of eq-taq-1min does; not a list of values, another operator or another dataset.
 */
import { describe, expect, it } from "vitest";
import { datasetByTextId } from "../../../sandbox/market/catalog.ts";
import { readsOneRowGroup } from "../../../sandbox/service/query/execute.ts";
import { type DataQuery, toDataQuery } from "../../../sandbox/service/query/parse.ts";

const minute = datasetByTextId("eq-taq-1min");
const daily = datasetByTextId("eq-daily-ohlc");

/** A checked query as the route builds it: query parameters and path parameters, each a list of value lists. */
const query = (dataset: typeof minute, params: Record<string, string[][]>, path: Record<string, string[][]> = {}): DataQuery =>
  toDataQuery(dataset, { ...params, limit: 100, response_format: "csv" }, path);

describe("queries that read one row group of each file", () => {
  it("is a minute-bar query naming its ticker in the path", () => {
    expect(readsOneRowGroup(minute, query(minute, { "TradeDate.ge": [["2023-11-01"]] }, { ticker: [["AAPL"]] }))).toBe(true);
  });

  it("is not a query whose ticker filter holds several values, or none", () => {
    expect(readsOneRowGroup(minute, query(minute, { "Ticker.in": [["AAPL", "MSFT"]] }))).toBe(false);
    expect(readsOneRowGroup(minute, query(minute, { "TradeDate.ge": [["2023-11-01"]] }))).toBe(false);
  });

  it("is not a query of a dataset written without row groups, even with a ticker filter", () => {
    expect(daily.rowGroupColumn).toBeUndefined();
    expect(readsOneRowGroup(daily, query(daily, { Ticker: [["AAPL"]] }))).toBe(false);
  });
});
