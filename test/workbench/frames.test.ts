/**
 * Frames the workbench returns equal the same query done directly in Polars on the market's
 * Parquet files: values and dtypes (Date, Datetime(ns, America/New_York), Int64, Float64,
 * String), nulls kept null, in every wire format and at every page size.
 */
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connect, type Workbench } from "../../workbench/mod.ts";
import { pageToFrame, stackFrames } from "../../workbench/frames/frames.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";
import { expectSameFrame, schemaOf } from "./support/frames.ts";
import { marketFrame, serviceSort } from "./support/market.ts";

let sb: AppSandbox;
let wb: Workbench;
const dir = () => inject("tinyMarketDir");
const date = (d: string) => pl.lit(d).str.strptime(pl.Date, "%Y-%m-%d");
const nyTime = (iso: string) =>
  pl.lit(new Date(iso).getTime() * 1_000_000).cast(pl.Datetime("ns", "UTC")).dt.convertTimeZone("America/New_York");

beforeAll(async () => {
  sb = await openAppSandbox();
  wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
});
afterAll(() => sb?.stop());

describe("filters and columns", () => {
  it("an equality and a date range on daily bars give the rows Polars finds in the files", async () => {
    const got = await wb.data.eqDailyOhlc({ filters: { Ticker: "SPY", TradeDate: { ge: "2023-11-21", le: "2023-11-27" } } });
    const want = marketFrame(dir(), "eq-daily-ohlc").filter(
      pl.col("Ticker").eq(pl.lit("SPY")).and(pl.col("TradeDate").gtEq(date("2023-11-21"))).and(
        pl.col("TradeDate").ltEq(date("2023-11-27")),
      ),
    );
    expect(want.height).toBe(4);
    expectSameFrame(got, want);
  });

  it("an 'in' list given as an array keeps every listed ticker and no other", async () => {
    const got = await wb.data.eqDailyOhlc({ filters: { Ticker: ["AAPL", "JPM.PRC", "SIRI"] } });
    const want = marketFrame(dir(), "eq-daily-ohlc").filter(pl.col("Ticker").isIn(["AAPL", "JPM.PRC", "SIRI"]));
    expect(want.getColumn("Ticker").nUnique()).toBe(3);
    expectSameFrame(got, want);
  });

  it("a 'like' pattern with the '*' wildcard matches as the service documents", async () => {
    const got = await wb.data.eqDailyOhlc({ filters: { Ticker: { like: "JPM*" } } });
    const want = marketFrame(dir(), "eq-daily-ohlc").filter(pl.col("Ticker").str.startsWith("JPM"));
    expect(new Set(want.getColumn("Ticker").toArray())).toEqual(new Set(["JPM", "JPM.PRC"]));
    expectSameFrame(got, want);
  });

  it("a date-time range and a float bound on minute bars select the regular session's trading minutes", async () => {
    const got = await wb.data.eqTaq1Min("AAPL", {
      filters: { BarDateTime: { ge: "2023-11-21T09:30:00-05:00", lt: "2023-11-21T16:00:00-05:00" }, LastTradePrice: { gt: 0 } },
    });
    const want = marketFrame(dir(), "eq-taq-1min", "aggregation_logic=core").filter(
      pl.col("Ticker").eq(pl.lit("AAPL"))
        .and(pl.col("BarDateTime").gtEq(nyTime("2023-11-21T14:30:00Z")))
        .and(pl.col("BarDateTime").lt(nyTime("2023-11-21T21:00:00Z")))
        .and(pl.col("LastTradePrice").gt(0)),
    );
    expect(want.height).toBeGreaterThan(300);
    expectSameFrame(got, want);
  });

  it("chosen columns arrive in the order asked, each with its schema type", async () => {
    const columns = ["Volume", "BarDateTime", "Ticker", "VolumeWeightPrice", "TradeDate"];
    const got = await wb.data.eqTaq1Min("MSFT", { filters: { TradeDate: "2023-11-24" }, columns });
    const want = marketFrame(dir(), "eq-taq-1min", "aggregation_logic=core/TradeDate=2023-11-24.parquet").filter(
      pl.col("Ticker").eq(pl.lit("MSFT")),
    ).select(...columns);
    expect(schemaOf(got)).toEqual([
      "Volume: Int64",
      "BarDateTime: Datetime(ns,America/New_York)",
      "Ticker: String",
      "VolumeWeightPrice: Float64",
      "TradeDate: Date",
    ]);
    expectSameFrame(got, want);
  });
});

describe("types and nulls", () => {
  it("every column of minute bars has the Parquet file's dtype and empty trade fields stay null", async () => {
    const got = await wb.data.eqTaq1Min("ODFL", { filters: { TradeDate: "2023-11-22" } });
    const want = marketFrame(dir(), "eq-taq-1min", "aggregation_logic=core/TradeDate=2023-11-22.parquet").filter(
      pl.col("Ticker").eq(pl.lit("ODFL")),
    );
    const nulls = want.getColumn("FirstTradePrice").nullCount();
    expect(nulls).toBeGreaterThan(0); // the test needs minutes without trades
    expect(got.getColumn("FirstTradePrice").nullCount()).toBe(nulls);
    expect(got.filter(pl.col("FirstTradePrice").isNan()).height).toBe(0);
    expectSameFrame(got, want);
  });

  it("tick times keep their nanoseconds, exact as Int64 epoch values beyond 2^53", async () => {
    const got = await wb.data.eqTaq("2023-11-21", "JPM.PRC");
    const want = marketFrame(dir(), "eq-taq", "TradeDate=2023-11-21/Ticker=JPM.PRC.parquet");
    const ns = (f: pl.DataFrame) => f.select(pl.col("EventDateTime").cast(pl.Int64)).getColumn("EventDateTime");
    // Sub-microsecond digits exist in the data, so a micro- or millisecond detour would show.
    expect(want.filter(pl.col("EventDateTime").cast(pl.Int64).modulo(1000).neq(0)).height).toBeGreaterThan(0);
    expect(ns(got).seriesEqual(ns(want))).toBe(true);
    expectSameFrame(got, want);
  });
});

describe("sorting", () => {
  it("a multi-column sort with a descending column orders rows as the service's sort in Polars does", async () => {
    const sort = ["-Volume", "BarDateTime"];
    const got = await wb.data.eqTaq1Min("QQQ", { filters: { TradeDate: { ge: "2023-11-27" } }, sort });
    const want = serviceSort(
      marketFrame(dir(), "eq-taq-1min", "aggregation_logic=core").filter(
        pl.col("Ticker").eq(pl.lit("QQQ")).and(pl.col("TradeDate").gtEq(date("2023-11-27"))),
      ),
      "eq-taq-1min",
      sort,
    );
    expect(got.getColumn("Volume").get(0)).toBe(want.getColumn("Volume").max());
    expectSameFrame(got, want);
  });

  it("a sort over two text and date columns pages through in one consistent order", async () => {
    const sort = ["Ticker", "-TradeDate"];
    const got = await wb.data.eqDailyOhlc({ sort, pageSize: 7 });
    expectSameFrame(got, serviceSort(marketFrame(dir(), "eq-daily-ohlc"), "eq-daily-ohlc", sort));
  });
});

describe("wire formats", () => {
  it("csv, json and csv_gzip give identical frames for minute bars with nulls", async () => {
    const q = { filters: { TradeDate: { le: "2023-11-21" } } };
    const [csv, json, gz] = await Promise.all(
      (["csv", "json", "csv_gzip"] as const).map((format) => wb.data.eqTaq1Min("HES", { ...q, format })),
    );
    expect(csv.getColumn("LastTradePrice").nullCount()).toBeGreaterThan(0);
    expectSameFrame(json, csv);
    expectSameFrame(gz, csv);
    expect(json.frameEqual(csv, true) && gz.frameEqual(csv, true)).toBe(true);
  });

  it("csv, json and csv_gzip give identical tick frames down to the nanosecond", async () => {
    const frames = await Promise.all(
      (["csv", "json", "csv_gzip"] as const).map((format) => wb.data.eqTaq("2023-11-24", "OXY.WS", { format, pageSize: 2000 })),
    );
    const want = marketFrame(dir(), "eq-taq", "TradeDate=2023-11-24/Ticker=OXY.WS.parquet");
    for (const f of frames) expectSameFrame(f, want);
  });
});

describe("paging", () => {
  it("maxRows stops early: three pages of 100 for 250 rows, not the whole day", async () => {
    const before = wb.transport.requestsSent;
    const got = await wb.data.eqTaq("2023-11-21", "AAPL", { maxRows: 250, pageSize: 100, concurrency: 1 });
    expect(wb.transport.requestsSent - before).toBe(3);
    const all = marketFrame(dir(), "eq-taq", "TradeDate=2023-11-21/Ticker=AAPL.parquet");
    expect(all.height).toBeGreaterThan(10_000);
    expectSameFrame(got, all.head(250));
  });

  it("a page size of 97 gives the same frame as one large page, rows in sequential order", async () => {
    const q = { filters: { TradeDate: { ge: "2023-11-24", le: "2023-11-27" } } };
    let before = wb.transport.requestsSent;
    const large = await wb.data.eqTaq1Min("SPY", q);
    expect(wb.transport.requestsSent - before).toBe(1);
    before = wb.transport.requestsSent;
    const small = await wb.data.eqTaq1Min("SPY", { ...q, pageSize: 97 });
    const pages = wb.transport.requestsSent - before;
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(large.height / 97));
    expect(pages).toBeLessThanOrEqual(Math.ceil(large.height / 97) + 4); // concurrent pages past the end
    expectSameFrame(small, large);
    const want = marketFrame(dir(), "eq-taq-1min", "aggregation_logic=core").filter(
      pl.col("Ticker").eq(pl.lit("SPY")).and(pl.col("TradeDate").gtEq(date("2023-11-24"))).and(
        pl.col("TradeDate").ltEq(date("2023-11-27")),
      ),
    );
    expectSameFrame(small, want);
  });
});

describe("CSV text read by the column schema", () => {
  const columns = [
    { name: "EventDateTime", data_type: "datetime_ns" },
    { name: "TradeDate", data_type: "date" },
    { name: "Quantity", data_type: "int64" },
  ] as const;
  const csv = (rows: string[]) => new TextEncoder().encode(["EventDateTime,TradeDate,Quantity", ...rows].join("\n") + "\n");

  it("date-times keep each value's UTC offset and every nanosecond, with or without a fraction, across a DST change", () => {
    const frame = pageToFrame(
      csv(["2024-03-08T09:30:00.000000001-05:00,2024-03-08,9007199254740993", "2024-03-11T09:30:00-04:00,2024-03-11,", ",2024-03-11,1"]),
      "csv",
      columns,
    );
    expect(schemaOf(frame)).toEqual(["EventDateTime: Datetime(ns,America/New_York)", "TradeDate: Date", "Quantity: Int64"]);
    const epochNs = frame.select(pl.col("EventDateTime").cast(pl.Int64).cast(pl.String), pl.col("Quantity").cast(pl.String));
    expect(epochNs.getColumn("EventDateTime").toArray()).toEqual(["1709908200000000001", "1710163800000000000", null]);
    expect(epochNs.getColumn("Quantity").toArray()).toEqual(["9007199254740993", null, "1"]);
    expect(frame.select(pl.col("EventDateTime").dt.hour()).getColumn("EventDateTime").toArray()).toEqual([9, 9, null]);
  });

  it("pages are stacked in order with their types and nanoseconds; pages of another schema are refused", () => {
    const rows = [
      "2024-03-08T09:30:00.000000001-05:00,2024-03-08,9007199254740993",
      "2024-03-11T09:30:00-04:00,2024-03-11,",
      ",2024-03-11,1",
    ];
    const pages = rows.map((row) => pageToFrame(csv([row]), "csv", columns));
    const stacked = stackFrames(pages);
    expect(stacked.frameEqual(pageToFrame(csv(rows), "csv", columns), true)).toBe(true);
    expect(schemaOf(stacked)).toEqual(["EventDateTime: Datetime(ns,America/New_York)", "TradeDate: Date", "Quantity: Int64"]);
    expect(stackFrames([pages[0]])).toBe(pages[0]);
    expect(() => stackFrames([pages[0], pages[1].select("TradeDate", "Quantity")])).toThrow(
      /Cannot stack frames of different schemas: frame 1 has TradeDate: Date, Quantity: Int64 where frame 0 has EventDateTime: Datetime/,
    );
    expect(() => stackFrames([pages[0], pages[1].withColumns(pl.col("Quantity").cast(pl.Float64))])).toThrow(
      /frame 1 has .*Quantity: Float64/,
    );
  });

  it("a long CSV page is one chunk a column, and a time zone apart is another schema", () => {
    // Long enough for the parallel reader to split it (it left 33 chunks on a 19,200-row page).
    const rows = Array.from({ length: 50_000 }, (_, i) => `2024-03-08T09:30:00.${String(i).padStart(9, "0")}-05:00,2024-03-08,${i}`);
    const page = pageToFrame(csv(rows), "csv", columns);
    expect(page.height).toBe(50_000);
    expect(page.getColumns().map((c) => c.nChunks())).toEqual([1, 1, 1]);
    const utc = page.withColumns(pl.col("EventDateTime").dt.convertTimeZone("UTC"));
    expect(() => stackFrames([page, utc])).toThrow(/frame 1 has EventDateTime: Datetime\(ns,UTC\)/);
  });

  it("a value that does not parse as its column's type is an error naming the value, not a null", () => {
    expect(() => pageToFrame(csv(["2024-03-08T09:30:00-05:00,2024-03-08,1.5"]), "csv", columns)).toThrow(
      /does not match the dataset's column schema: could not parse `1\.5` as dtype `i64` at column 'Quantity'/,
    );
    expect(() => pageToFrame(csv(["9:30 yesterday,2024-03-08,1"]), "csv", columns)).toThrow(
      /could not parse `9:30 yesterday` as dtype `datetime\[ns\]`/,
    );
    expect(() => pageToFrame(csv(["2024-03-08T09:30:00-05:00,2024-02-30,1"]), "csv", columns)).toThrow(
      /could not parse `2024-02-30` as dtype `date`/,
    );
  });
});
