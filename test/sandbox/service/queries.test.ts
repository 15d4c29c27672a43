/**
 * Filters, sorts and column choices over real HTTP, each compared (values and row order) with
 * the same query done directly in Polars on the market's Parquet files, in all three formats.
 * Expected filters are written independently of the service: dates and date-times compare as
 * New York wall-clock text (`%Y-%m-%dT%H:%M:%S%.9f`), so a wrong offset or time zone in the
 * service's parsing shows. Ties of a requested sort are broken by the dataset key (the
 * service's documented rule), so every expected order is total.
 */
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Dataset, datasetByTextId } from "../../../sandbox/market/catalog.ts";
import { expectedRows } from "./support/expectedRows.ts";
import { expectSameRows, mediaType } from "./support/pagingExpect.ts";
import { KEY } from "./support/pagingWalk.ts";
import { FORMATS, MEDIA_TYPES, wireTable } from "./support/pagingWire.ts";
import { readDataset } from "./support/polarsExpected.ts";
import { type AppSandbox, openAppSandbox } from "./support/appSandbox.ts";
import { Buffer } from "node:buffer";

const dir = inject("tinyMarketDir");
const [minute, daily, ticks] = ["eq-taq-1min", "eq-daily-ohlc", "eq-taq"].map(datasetByTextId);
const { col, lit } = pl;

interface Subject {
  dataset: Dataset;
  path: string;
  base: pl.DataFrame;
}

const DAILY: Subject = { dataset: daily, path: "/api/v1/data/us-equity/eq-daily-ohlc", base: readDataset(dir, daily) };
const AAPL_BARS: Subject = {
  dataset: minute,
  path: "/api/v1/data/us-equity/eq-taq-1min/AAPL",
  base: readDataset(dir, minute, "aggregation_logic=core").filter(col("Ticker").eq(lit("AAPL"))),
};
const HES_TICKS: Subject = {
  dataset: ticks,
  path: "/api/v1/data/us-equity/eq-taq/2023-11-21/HES",
  base: readDataset(dir, ticks, "TradeDate=2023-11-21/Ticker=HES.parquet"),
};

/** New York wall-clock text of a date-time column, nine fractional digits: compares like time. */
const clock = (c: string) => col(c).dt.strftime("%Y-%m-%dT%H:%M:%S%.9f");
const day = (c: string) => col(c).dt.strftime("%Y-%m-%d");

// Values taken from the files, so equality filters hit real rows.
const aapl21 = DAILY.base.filter(col("Ticker").eq(lit("AAPL")).and(day("TradeDate").eq(lit("2023-11-21")))).toRecords()[0] as Record<
  string,
  number
>;
const msft22 = DAILY.base.filter(col("Ticker").eq(lit("MSFT")).and(day("TradeDate").eq(lit("2023-11-22")))).toRecords()[0] as Record<
  string,
  number
>;
// A one-dollar price band around the day's median, so the case matches rows whatever the seed.
const hesBand = Math.floor(HES_TICKS.base.getColumn("Price").median() as number);
const tickClock = HES_TICKS.base.select(clock("EventDateTime").alias("t")).getColumn("t").get(2000) as string;

interface Case {
  title: string;
  subject: Subject;
  /** The query string exactly as sent (already percent-encoded where needed). */
  query: string;
  expected: pl.DataFrame;
  /** The query is meant to match nothing. */
  empty?: boolean;
}

function expected(s: Subject, where?: pl.Expr, sort?: [string, boolean][], columns?: string[]): pl.DataFrame {
  let frame = where ? s.base.filter(where) : s.base;
  if (sort) {
    const names = sort.map(([n]) => n);
    const tieBreak = s.dataset.key.filter((k) => !names.includes(k));
    frame = frame.sort([...names, ...tieBreak], [...sort.map(([, descending]) => descending), ...tieBreak.map(() => false)]);
  }
  return columns ? frame.select(...columns) : frame;
}

const c = (title: string, subject: Subject, query: string, where?: pl.Expr, empty = false): Case => ({
  title,
  subject,
  query,
  expected: expected(subject, where),
  empty,
});
const s = (
  title: string,
  subject: Subject,
  query: string,
  where: pl.Expr | undefined,
  sort: [string, boolean][],
  columns?: string[],
): Case => ({
  title,
  subject,
  query,
  expected: expected(subject, where, sort, columns),
});

const FILTERS: Case[] = [
  c("bare equality on a string column", DAILY, "Ticker=MSFT", col("Ticker").eq(lit("MSFT"))),
  c(".eq on a string column", DAILY, "Ticker.eq=JPM.PRC", col("Ticker").eq(lit("JPM.PRC"))),
  c(
    ".in on a string column",
    DAILY,
    "Ticker.in=AAPL,SPY,XYZ",
    col("Ticker").eq(lit("AAPL")).or(col("Ticker").eq(lit("SPY"))).or(col("Ticker").eq(lit("XYZ"))),
  ),
  c(".gt on a string column", DAILY, "Ticker.gt=ODFL", col("Ticker").gt(lit("ODFL"))),
  c(".ge on a string column", DAILY, "Ticker.ge=SPY", col("Ticker").gtEq(lit("SPY"))),
  c(".lt on a string column", DAILY, "Ticker.lt=HES", col("Ticker").lt(lit("HES"))),
  c(".le on a string column", DAILY, "Ticker.le=HES", col("Ticker").ltEq(lit("HES"))),
  c(".like with a trailing wildcard", DAILY, "Ticker.like=JPM*", col("Ticker").str.startsWith("JPM")),
  c(".like with a dot, which matches only a dot", DAILY, "Ticker.like=*.*", col("Ticker").str.contains(".", true)),
  c("a case-sensitive .like that matches nothing", DAILY, "Ticker.like=jpm*", col("Ticker").str.startsWith("jpm"), true),
  c(".ilike, which ignores case", DAILY, "Ticker.ilike=*q*", col("Ticker").str.toLowerCase().str.contains("q", true)),
  c(".ilike without a wildcard, which matches whole values", DAILY, "Ticker.ilike=jpm.prc", col("Ticker").eq(lit("JPM.PRC"))),
  c(".like on a tick string column", HES_TICKS, "EventType.like=QUOTE*", col("EventType").str.startsWith("QUOTE")),
  c(".ilike on a tick string column", HES_TICKS, "EventType.ilike=*cancel", col("EventType").str.toLowerCase().str.endsWith("cancel")),
  c("bare equality on an integer column", DAILY, "ASID=100001", col("ASID").eq(lit(100001))),
  c(".in on an integer column", DAILY, "ASID.in=100003,100007", col("ASID").eq(lit(100003)).or(col("ASID").eq(lit(100007)))),
  c(".eq on an integer column", DAILY, `DailyVolume.eq=${aapl21.DailyVolume}`, col("DailyVolume").eq(lit(aapl21.DailyVolume))),
  c(".gt on an integer column", DAILY, "DailyVolume.gt=10000000", col("DailyVolume").gt(lit(10_000_000))),
  c(
    ".ge on an integer column, bound included",
    DAILY,
    `DailyVolume.ge=${aapl21.DailyVolume}`,
    col("DailyVolume").gtEq(lit(aapl21.DailyVolume)),
  ),
  c(".lt on an integer column", DAILY, "DailyVolume.lt=1000000", col("DailyVolume").lt(lit(1_000_000))),
  c(
    ".le on an integer column, bound included",
    DAILY,
    `DailyVolume.le=${aapl21.DailyVolume}`,
    col("DailyVolume").ltEq(lit(aapl21.DailyVolume)),
  ),
  c(
    "an integer filter on a tick column",
    HES_TICKS,
    "EventType=TRADE&Quantity.ge=500",
    col("EventType").eq(lit("TRADE")).and(col("Quantity").gtEq(lit(500))),
  ),
  c("bare equality on a float column", DAILY, `ClosePrice=${aapl21.ClosePrice}`, col("ClosePrice").eq(lit(aapl21.ClosePrice))),
  c(
    ".in on a float column",
    DAILY,
    `ClosePrice.in=${aapl21.ClosePrice},${msft22.ClosePrice}`,
    col("ClosePrice").eq(lit(aapl21.ClosePrice)).or(col("ClosePrice").eq(lit(msft22.ClosePrice))),
  ),
  c(".gt on a float column", DAILY, "ClosePrice.gt=300", col("ClosePrice").gt(lit(300))),
  c(".le on a float column, bound included", DAILY, `ClosePrice.le=${msft22.ClosePrice}`, col("ClosePrice").ltEq(lit(msft22.ClosePrice))),
  c(
    ".ge and .lt on a float column",
    DAILY,
    "ClosePrice.ge=100&ClosePrice.lt=150.5",
    col("ClosePrice").gtEq(lit(100)).and(col("ClosePrice").lt(lit(150.5))),
  ),
  c(
    "a float filter on a nullable column, nulls left out",
    AAPL_BARS,
    "TradeDate=2023-11-21&FirstTradePrice.gt=174",
    day("TradeDate").eq(lit("2023-11-21")).and(col("FirstTradePrice").gt(lit(174))),
  ),
  c(
    `a float filter on tick prices (a dollar band at the median, ${hesBand})`,
    HES_TICKS,
    `Price.gt=${hesBand}&Price.le=${hesBand + 1}`,
    col("Price").gt(lit(hesBand)).and(col("Price").ltEq(lit(hesBand + 1))),
  ),
  c("bare equality on a date column", DAILY, "TradeDate=2023-11-21", day("TradeDate").eq(lit("2023-11-21"))),
  c(".eq on a holiday, which matches nothing", DAILY, "TradeDate.eq=2023-11-23", day("TradeDate").eq(lit("2023-11-23")), true),
  c(".gt on a date column", DAILY, "TradeDate.gt=2023-11-24", day("TradeDate").gt(lit("2023-11-24"))),
  c(".ge on a date column", DAILY, "TradeDate.ge=2023-11-24", day("TradeDate").gtEq(lit("2023-11-24"))),
  c(".lt on a date column", DAILY, "TradeDate.lt=2023-11-21", day("TradeDate").lt(lit("2023-11-21"))),
  c(".le on a date column", DAILY, "TradeDate.le=2023-11-21", day("TradeDate").ltEq(lit("2023-11-21"))),
  c(
    ".in on a date column",
    DAILY,
    "TradeDate.in=2023-11-20,2023-11-28",
    day("TradeDate").eq(lit("2023-11-20")).or(day("TradeDate").eq(lit("2023-11-28"))),
  ),
  c(
    "filters on several columns combined",
    DAILY,
    "Ticker.in=AAPL,MSFT&TradeDate.ge=2023-11-22&ClosePrice.gt=200",
    col("Ticker").eq(lit("AAPL")).or(col("Ticker").eq(lit("MSFT"))).and(day("TradeDate").gtEq(lit("2023-11-22"))).and(
      col("ClosePrice").gt(lit(200)),
    ),
  ),
  c(
    "a date-time range in New York time without an offset",
    AAPL_BARS,
    "BarDateTime.ge=2023-11-21T09:30:00&BarDateTime.lt=2023-11-21T09:35:00",
    clock("BarDateTime").gtEq(lit("2023-11-21T09:30:00.000000000")).and(clock("BarDateTime").lt(lit("2023-11-21T09:35:00.000000000"))),
  ),
  c(
    "bare date-time equality in UTC with Z",
    AAPL_BARS,
    "BarDateTime=2023-11-21T14:30:00Z",
    clock("BarDateTime").eq(lit("2023-11-21T09:30:00.000000000")),
  ),
  c(
    "date-time .eq with nine fractional digits and an offset",
    AAPL_BARS,
    "BarDateTime.eq=2023-11-21T09:30:00.000000000-05:00",
    clock("BarDateTime").eq(lit("2023-11-21T09:30:00.000000000")),
  ),
  c(
    "date-time .le with a positive offset sent as %2B",
    AAPL_BARS,
    "BarDateTime.le=2023-11-20T10:01:00%2B01:00",
    clock("BarDateTime").ltEq(lit("2023-11-20T04:01:00.000000000")),
  ),
  c(
    "date-time .gt with a negative offset",
    AAPL_BARS,
    "BarDateTime.gt=2023-11-28T19:57:00-05:00",
    clock("BarDateTime").gt(lit("2023-11-28T19:57:00.000000000")),
  ),
  c(
    "date-time .in mixing New York time and an offset",
    AAPL_BARS,
    "BarDateTime.in=2023-11-21T09:30:00,2023-11-22T16:00:00-05:00",
    clock("BarDateTime").eq(lit("2023-11-21T09:30:00.000000000")).or(clock("BarDateTime").eq(lit("2023-11-22T16:00:00.000000000"))),
  ),
  c(
    "a date-time without seconds on the early-close day",
    AAPL_BARS,
    "TradeDate=2023-11-24&BarDateTime.ge=2023-11-24T12:58",
    day("TradeDate").eq(lit("2023-11-24")).and(clock("BarDateTime").gtEq(lit("2023-11-24T12:58:00.000000000"))),
  ),
  c(
    "nanosecond date-time equality in New York time",
    HES_TICKS,
    `EventDateTime.eq=${tickClock}`,
    clock("EventDateTime").eq(lit(tickClock)),
  ),
  c("nanosecond date-time .gt with an offset", HES_TICKS, `EventDateTime.gt=${tickClock}-05:00`, clock("EventDateTime").gt(lit(tickClock))),
  c("nanosecond date-time .lt with an offset", HES_TICKS, `EventDateTime.lt=${tickClock}-05:00`, clock("EventDateTime").lt(lit(tickClock))),
  c(
    "a millisecond date-time bound",
    HES_TICKS,
    "EventDateTime.lt=2023-11-21T09:30:00.5",
    clock("EventDateTime").lt(lit("2023-11-21T09:30:00.500000000")),
  ),
];

const SORTS: Case[] = [
  s("a descending sort on a float column", DAILY, "sort=-ClosePrice", undefined, [["ClosePrice", true]]),
  s("an ascending then descending sort", DAILY, "sort=Ticker,-TradeDate", undefined, [["Ticker", false], ["TradeDate", true]]),
  s("an explicit ascending sort sent as %2B", DAILY, "sort=%2BTicker,-DailyVolume", undefined, [["Ticker", false], ["DailyVolume", true]]),
  s("a raw '+' that arrives as a space, read as ascending", DAILY, "sort=+Ticker,-TradeDate", undefined, [["Ticker", false], [
    "TradeDate",
    true,
  ]]),
  s("a sort with ties, broken by the dataset key", DAILY, "sort=-TradeDate", undefined, [["TradeDate", true]]),
  s(
    "a sort across a ticker change, with a filter",
    DAILY,
    "Ticker.in=SQ,XYZ&sort=ASID,-TradeDate",
    col("Ticker").eq(lit("SQ")).or(col("Ticker").eq(lit("XYZ"))),
    [["ASID", false], ["TradeDate", true]],
  ),
  s(
    "a sort of minute bars by volume then time",
    AAPL_BARS,
    "TradeDate=2023-11-21&sort=-Volume,BarDateTime",
    day("TradeDate").eq(lit("2023-11-21")),
    [["Volume", true], ["BarDateTime", false]],
  ),
  s(
    "an ascending sort on a nullable column",
    AAPL_BARS,
    "TradeDate=2023-11-22&sort=FirstTradePrice",
    day("TradeDate").eq(lit("2023-11-22")),
    [["FirstTradePrice", false]],
  ),
  s(
    "a descending sort on a nullable column",
    AAPL_BARS,
    "TradeDate=2023-11-22&sort=-FirstTradePrice",
    day("TradeDate").eq(lit("2023-11-22")),
    [["FirstTradePrice", true]],
  ),
  s("a descending date-time sort", AAPL_BARS, "sort=-BarDateTime", undefined, [["BarDateTime", true]]),
  s("a sort of trades by price then time", HES_TICKS, "EventType=TRADE&sort=-Price,EventDateTime", col("EventType").eq(lit("TRADE")), [[
    "Price",
    true,
  ], ["EventDateTime", false]]),
];

const COLUMNS: Case[] = [
  s("a column choice in the requested order", DAILY, "columns=Ticker,ClosePrice,TradeDate", undefined, [], [
    "Ticker",
    "ClosePrice",
    "TradeDate",
  ]),
  s(
    "a column choice that leaves out the filtered and sorted columns",
    DAILY,
    "columns=TradeDate,Ticker&ClosePrice.gt=300&sort=-ClosePrice",
    col("ClosePrice").gt(lit(300)),
    [["ClosePrice", true]],
    ["TradeDate", "Ticker"],
  ),
  s(
    "a column choice of minute bars with nulls",
    AAPL_BARS,
    "columns=BarDateTime,FirstTradePrice,Volume&TradeDate=2023-11-22",
    day("TradeDate").eq(lit("2023-11-22")),
    [],
    ["BarDateTime", "FirstTradePrice", "Volume"],
  ),
  s("a column choice of trades", HES_TICKS, "columns=EventDateTime,Price,Quantity&EventType=TRADE", col("EventType").eq(lit("TRADE")), [], [
    "EventDateTime",
    "Price",
    "Quantity",
  ]),
];

describe("queries compared with Polars on the files", () => {
  let sb: AppSandbox;
  beforeAll(async () => {
    sb = await openAppSandbox();
  });
  afterAll(() => sb.stop());

  const get = async (k: Case, format: string) => {
    const path = `${k.subject.path}?${k.query}&limit=100000&response_format=${format}`;
    const r = await sb.get(path, KEY);
    const bytes = new Uint8Array(await r.arrayBuffer());
    expect(r.status, `${path}: ${new TextDecoder().decode(bytes).slice(0, 300)}`).toBe(200);
    return { r, bytes, path };
  };

  for (const [group, cases] of [["filter", FILTERS], ["sort", SORTS], ["columns", COLUMNS]] as const) {
    describe(group, () => {
      for (const k of cases) {
        it(`answers ${k.title} (${k.query}) with Polars' rows in every format`, async () => {
          if (k.empty) expect(k.expected.height).toBe(0);
          else expect(k.expected.height, "the case should match some rows").toBeGreaterThan(0);
          if (group === "filter") expect(k.expected.height, "the filter should leave some rows out").toBeLessThan(k.subject.base.height);
          const want = expectedRows(k.expected, k.subject.dataset);
          for (const format of FORMATS) {
            const { r, bytes, path } = await get(k, format);
            expect(mediaType(r.headers.get("Content-Type")), path).toBe(MEDIA_TYPES[format]);
            const table = wireTable(bytes, format, k.subject.dataset);
            if (format !== "json" || want.height > 0) expect(table.columns, path).toEqual(k.expected.columns);
            if (table.pagination) expect(table.pagination).toStrictEqual({ offset: 0, limit: 100_000, next_offset: null });
            expectSameRows(table, want, `${format} ${path}`);
          }
        });
      }
    });
  }

  it("writes nulls as JSON null and as empty CSV fields", async () => {
    const path = `${AAPL_BARS.path}?limit=5`;
    const frame = AAPL_BARS.base.head(5);
    const nullable = AAPL_BARS.dataset.columns.filter((col) => frame.getColumn(col.name).nullCount() > 0).map((col) => col.name);
    expect(nullable.length, "the first bars of the day have no trades").toBeGreaterThan(10);
    const records = (await (await sb.get(path, KEY)).json()).data as Record<string, unknown>[];
    const lines = (await (await sb.get(`${path}&response_format=csv`, KEY)).text()).trimEnd().split("\n");
    const header = lines[0].split(",");
    const isNull = new Map(frame.columns.map((name) => [name, frame.getColumn(name).isNull().toArray()]));
    records.forEach((record, i) => {
      const fields = lines[i + 1].split(",");
      expect(fields).toHaveLength(header.length);
      for (const name of frame.columns) {
        expect(name in record, name).toBe(true);
        expect(record[name] === null, `JSON ${name} row ${i}`).toBe(isNull.get(name)![i]);
        expect(fields[header.indexOf(name)] === "", `CSV ${name} row ${i}`).toBe(isNull.get(name)![i]);
      }
    });
  });

  it("writes date-times as ISO 8601 with the -05:00 offset and nine fractional digits", async () => {
    const ISO_EST = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}-05:00$/;
    const bars = (await (await sb.get(`${AAPL_BARS.path}?limit=2000`, KEY)).json()).data as { BarDateTime: string }[];
    expect(bars[0].BarDateTime).toBe("2023-11-20T04:00:00.000000000-05:00");
    expect(bars[1999].BarDateTime).toBe("2023-11-22T05:19:00.000000000-05:00");
    expect(bars.every((b) => ISO_EST.test(b.BarDateTime))).toBe(true);
    const csv = (await (await sb.get(`${AAPL_BARS.path}?limit=3&response_format=csv&columns=BarDateTime`, KEY)).text()).trimEnd().split(
      "\n",
    );
    expect(csv).toEqual([
      "BarDateTime",
      "2023-11-20T04:00:00.000000000-05:00",
      "2023-11-20T04:01:00.000000000-05:00",
      "2023-11-20T04:02:00.000000000-05:00",
    ]);
    const events = (await (await sb.get(`${HES_TICKS.path}?columns=EventDateTime&limit=100000`, KEY)).json()).data as {
      EventDateTime: string;
    }[];
    expect(events.every((e) => ISO_EST.test(e.EventDateTime))).toBe(true);
    expect(events.some((e) => !e.EventDateTime.endsWith("000-05:00")), "nanoseconds survive").toBe(true);
    expect(events[2000].EventDateTime).toBe(`${tickClock}-05:00`);
  });

  it("writes integers as exact integer literals in JSON and CSV", async () => {
    const ints = DAILY.dataset.columns.filter((col) => col.type === "int64").map((col) => col.name);
    const want = DAILY.base.select(...ints.map((name) => col(name).cast(pl.Utf8)));
    const json = await (await sb.get(`${DAILY.path}?limit=1000`, KEY)).text();
    for (const name of ints) {
      const written = [...json.matchAll(new RegExp(`"${name}":([^,}]*)`, "g"))].map((m) => m[1]);
      expect(written, name).toEqual(want.getColumn(name).toArray());
    }
    const csv = pl.readCSV(Buffer.from(await (await sb.get(`${DAILY.path}?limit=1000&response_format=csv`, KEY)).text()), {
      inferSchemaLength: 0,
    });
    for (const name of ints) expect(csv.getColumn(name).toArray(), name).toEqual(want.getColumn(name).toArray());
  });
});
