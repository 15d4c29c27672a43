/**
 * Every endpoint of the spec through the workbench, against the sandbox's app in-process:
 * account (identity, quotas, access rules), metadata (datasets, status, columns) and data.
 */
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connect, dtypeOf, NotEntitledError, type Workbench } from "../../workbench/mod.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";
import { expectSameFrame, schemaOf, typeText } from "./support/frames.ts";
import { marketDatasets, marketFrame } from "./support/market.ts";

let sb: AppSandbox;
let full: Workbench;
let restricted: Workbench;
const dir = () => inject("tinyMarketDir");
const date = (d: string) => pl.lit(d).str.strptime(pl.Date, "%Y-%m-%d");

beforeAll(async () => {
  sb = await openAppSandbox();
  full = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
  restricted = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-restricted" });
});
afterAll(() => sb?.stop());

describe("wb.account", () => {
  it("identity names the account behind each key", async () => {
    const me = await full.account.identity();
    expect(me).toEqual({ identity_id: expect.any(Number), name: "Demo full access", max_active_api_keys: 5, ip_subnets: [] });
    expect((await restricted.account.identity()).name).toBe("Demo restricted");
  });

  it("quotas give one Int64 row per quota, and a data request adds exactly one to the month's requests", async () => {
    const before = await restricted.account.quotas();
    expect(schemaOf(before)).toEqual(["quota: String", "used: Int64", "limit: Int64", "remaining: Int64"]);
    expect(before.getColumn("quota").toArray()).toEqual([
      "per_minute_requests",
      "monthly_requests",
      "monthly_data_scanned",
      "monthly_data_returned",
    ]);
    expect(before.getColumn("limit").toArray()).toEqual([30, 100_000, 10 * 2 ** 30, 2 ** 30]);
    await restricted.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
    const after = await restricted.account.quotas();
    const monthly = (f: pl.DataFrame) => f.filter(pl.col("quota").eq(pl.lit("monthly_requests"))).row(0);
    const [, usedBefore] = monthly(before);
    const [, usedAfter, limit, remaining] = monthly(after);
    expect(usedAfter).toBe(usedBefore + 1);
    expect(remaining).toBe(limit - usedAfter);
  });

  it("dataAccessRules give the restricted key's window and universe as dates and a list of strings", async () => {
    const rules = (await restricted.account.dataAccessRules()).sort("dataset_text_id");
    expect(schemaOf(rules)).toEqual([
      "dataset_text_id: String",
      "dataset_id: String",
      "dataset_name: String",
      "dataset_version: String",
      "start_date: Date",
      "end_date: Date",
      "universe_identifiers: List(String)",
    ]);
    expect(rules.getColumn("dataset_text_id").toArray()).toEqual(["eq-daily-ohlc", "eq-taq-1min"]);
    expect(rules.select(pl.col("start_date").dt.strftime("%Y-%m-%d"), pl.col("end_date").dt.strftime("%Y-%m-%d")).rows()).toEqual([
      ["2023-11-21", "2023-11-27"],
      ["2023-11-21", "2023-11-27"],
    ]);
    expect(rules.getColumn("universe_identifiers").toArray().map((l) => [...(l as Iterable<string>)])).toEqual([["AAPL", "MSFT"], [
      "AAPL",
      "MSFT",
    ]]);
  });

  it("dataAccessRules of an unrestricted key keep the same types: an ongoing end is null, an empty universe a list of strings", async () => {
    const rules = await full.account.dataAccessRules();
    expect(rules.getColumn("dataset_text_id").toArray().sort()).toEqual(marketDatasets(dir()));
    expect(schemaOf(rules).slice(4)).toEqual(["start_date: Date", "end_date: Date", "universe_identifiers: List(String)"]);
    expect(rules.getColumn("end_date").nullCount()).toBe(rules.height);
  });
});

describe("wb.meta", () => {
  it("datasets lists what each key may reach", async () => {
    const all = await full.meta.datasets();
    expect(schemaOf(all)).toEqual([
      "dataset_id: String",
      "dataset_text_id: String",
      "dataset_name: String",
      "data_group: String",
      "vendor: String",
    ]);
    expect(all.getColumn("dataset_text_id").toArray().sort()).toEqual(marketDatasets(dir()));
    expect(marketDatasets(dir())).toEqual(expect.arrayContaining(["eq-daily-ohlc", "eq-taq", "eq-taq-1min"]));
    expect((await restricted.meta.datasets()).getColumn("dataset_text_id").toArray().sort()).toEqual(["eq-daily-ohlc", "eq-taq-1min"]);
  });

  it("status gives the market's first and last trading day and the row count of its files", async () => {
    const s = await full.meta.status("eq-daily-ohlc");
    expect(s).toMatchObject({ dataset_text_id: "eq-daily-ohlc", first_available_date: "2023-11-20", last_available_date: "2023-11-28" });
    expect(s.row_count).toBe(marketFrame(dir(), "eq-daily-ohlc").height);
    const bars = await full.meta.status("eq-taq-1min");
    expect(bars.row_count).toBe(marketFrame(dir(), "eq-taq-1min", "aggregation_logic=core").height);
  });

  it("columns list every column in file order, each typed as the Parquet file types it", async () => {
    for (const id of ["eq-taq-1min", "eq-daily-ohlc", "eq-taq"] as const) {
      const cols = await full.meta.columns(id);
      expect(cols.columns).toEqual(["name", "data_type", "description", "nullable"]);
      const file = marketFrame(
        dir(),
        id,
        id === "eq-taq-1min"
          ? "aggregation_logic=core/TradeDate=2023-11-20.parquet"
          : id === "eq-taq"
          ? "TradeDate=2023-11-20/Ticker=AAPL.parquet"
          : "TradeDate=2023-11-20.parquet",
      );
      expect(cols.getColumn("name").toArray()).toEqual(file.columns);
      const schema = await full.meta.schema(id);
      expect(schema.map((c) => `${c.name}: ${typeText(dtypeOf(c))}`)).toEqual(schemaOf(file));
    }
  });
});

describe("wb.data", () => {
  const bars = (variant: string) =>
    marketFrame(dir(), "eq-taq-1min", `aggregation_logic=${variant}`).filter(
      pl.col("Ticker").eq(pl.lit("AAPL")).and(pl.col("TradeDate").gtEq(date("2023-11-21"))).and(
        pl.col("TradeDate").ltEq(date("2023-11-22")),
      ),
    );
  const q = { filters: { TradeDate: { ge: "2023-11-21", le: "2023-11-22" } } };

  it("eqTaq1Min gives the core bars by default and the no_finra_trf bars when asked, and they differ", async () => {
    const core = await full.data.eqTaq1Min("AAPL", q);
    const noTrf = await full.data.eqTaq1Min("AAPL", { ...q, aggregation: "no_finra_trf" });
    expect(core.height).toBe(1920);
    expectSameFrame(core, bars("core"));
    expectSameFrame(noTrf, bars("no_finra_trf"));
    expect(await full.data.eqTaq1Min("AAPL", { ...q, aggregation: "core" }).then((f) => f.frameEqual(core, true))).toBe(true);
    expect(noTrf.frameEqual(core, true)).toBe(false);
  });

  it("eqDailyOhlc gives every daily bar of the market", async () => {
    expectSameFrame(await full.data.eqDailyOhlc(), marketFrame(dir(), "eq-daily-ohlc"));
  });

  it("eqTaq gives one ticker's ticks of one day, the day given as text or as a Date", async () => {
    const want = marketFrame(dir(), "eq-taq", "TradeDate=2023-11-22/Ticker=MSFT.parquet");
    expectSameFrame(await full.data.eqTaq("2023-11-22", "MSFT"), want);
    expectSameFrame(await full.data.eqTaq(new Date("2023-11-22T00:00:00Z"), "MSFT"), want);
  });

  it("get reaches any dataset by id with its path values", async () => {
    const got = await full.data.get("eq-taq", ["2023-11-20", "SQ"], { columns: ["EventDateTime", "Price"] });
    expectSameFrame(got, marketFrame(dir(), "eq-taq", "TradeDate=2023-11-20/Ticker=SQ.parquet").select("EventDateTime", "Price"));
  });

  // The options issue adds the options and reference datasets to the market. Where the market
  // holds one, its function returns the market's rows; where it does not yet, the function is
  // refused as not entitled (the access rules cannot name it) and the service agrees with a 404.
  it.each(
    [
      ["optGreeksDaily", "opt-greeks-daily", "/api/v1/data/us-equity-opt/opt-greeks-daily"],
      ["optOpenInterest", "opt-open-interest", "/api/v1/data/us-equity-opt/opt-open-interest"],
      ["optSecMaster", "opt-sec-master", "/api/v1/data/us-equity-opt-ref/opt-sec-master"],
      ["occEqSpecSettl", "occ-eq-spec-settl", "/api/v1/data/us-equity-opt-ref/occ-eq-spec-settl"],
      ["eqLookupFiles", "eq-lookup-files", "/api/v1/data/us-equity-ref/eq-lookup-files"],
    ] as const,
  )("%s gives the market's %s rows, or NotEntitledError while the market lacks them", async (fn, id, path) => {
    if (!marketDatasets(dir()).includes(id)) {
      await expect(full.data[fn]()).rejects.toThrow(NotEntitledError);
      const answer = await full.transport.get(path).catch((e) => e);
      expect(answer).toBeInstanceOf(NotEntitledError);
      expect(answer.status).toBe(404);
      return;
    }
    const dated = (await full.meta.schema(id)).some((c) => c.name === "TradeDate");
    const got = await full.data[fn](dated ? { filters: { TradeDate: "2023-11-21" } } : {});
    const all = marketFrame(dir(), id);
    const want = dated ? all.filter(pl.col("TradeDate").eq(date("2023-11-21"))) : all;
    expect(want.height).toBeGreaterThan(0);
    expectSameFrame(got, want);
  });
});
