/**
 * The lake as a table every engine reads in place (issue 37, item 2), read back with DuckDB:
 * times stored as Parquet TIMESTAMP(MICROS, UTC) where the data allows (nanoseconds for ticks)
 * and read in New York time with the documented line; a dataset's folder extended by another
 * option root and other dates; a ticker that stops trading mid-range downloaded for the days it
 * traded, with the same warning as the data call's.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { frameWarnings } from "../../workbench/mod.ts";
import { expectSameFrame } from "./support/frames.ts";
import { withFullAccess } from "./support/fullAccess.ts";

const local = withFullAccess();
const scratch = mkdtempSync(join(tmpdir(), "lake-table-"));
let duck: Awaited<ReturnType<Awaited<ReturnType<typeof DuckDBInstance.create>>["connect"]>>;
beforeAll(async () => {
  duck = await (await DuckDBInstance.create(":memory:")).connect();
});
afterAll(() => {
  duck?.closeSync();
  rmSync(scratch, { recursive: true, force: true });
});

const rows = async (sql: string) =>
  (await duck.runAndReadAll(sql)).getRows().map((r) => r.map((v) => (typeof v === "bigint" ? Number(v) : String(v))));
const table = (dir: string) => `read_parquet('${dir}/**/*.parquet', hive_partitioning = true)`;
/** Each date-time column's Parquet logical type in a file, as DuckDB reports it. */
const timeTypes = async (file: string) =>
  Object.fromEntries(
    (await rows(`SELECT name, logical_type FROM parquet_schema('${file}') WHERE logical_type LIKE 'TimestampType%'`)).map((
      [name, type],
    ) => [
      name,
      /unit=TimeUnit\((\w+)=/.exec(String(type).replace(/MILLIS=<null>, |MICROS=<null>, /g, ""))?.[1] +
      (/isAdjustedToUTC=1/.test(String(type)) ? ", UTC" : ", local"),
    ]),
  );
const quietly = async <T>(run: () => Promise<T>) => {
  const warnings: string[] = [];
  const warn = vi.spyOn(console, "warn").mockImplementation((m: unknown) => void warnings.push(String(m)));
  try {
    return { value: await run(), warnings };
  } finally {
    warn.mockRestore();
  }
};

describe("times", () => {
  it("1-minute bars: BarDateTime stored as TIMESTAMP(MICROS, UTC); DuckDB shows New York time after SET TimeZone, UTC before; wb.scan gives the dataset's own type", async () => {
    const dir = join(scratch, "bars");
    await local.wb.download("eq-taq-1min", { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-21" }, dir);
    const file = join(dir, "Ticker=AAPL", readdirSync(join(dir, "Ticker=AAPL"))[0]);
    expect(await timeTypes(file)).toEqual({ BarDateTime: "MICROS, UTC" });
    const scanned = local.wb.scan(dir).collectSync().sort("BarDateTime");
    expect(String(scanned.getColumn("BarDateTime").dtype)).toBe(String(pl.Datetime("ns", "America/New_York")));
    const first = String(scanned.select(pl.col("BarDateTime").first().dt.strftime("%Y-%m-%d %H:%M")).getColumn("BarDateTime").get(0));
    const firstNy = async () => (await rows(`SELECT strftime(min(BarDateTime), '%Y-%m-%d %H:%M') FROM ${table(dir)}`))[0][0];
    await duck.run("SET TimeZone = 'UTC'");
    const utc = await firstNy();
    await duck.run("SET TimeZone = 'America/New_York'"); // the documented line
    expect(await firstNy()).toBe(first);
    expect(utc).not.toBe(first); // the same instant, shown in UTC: why the line is needed
    // Every instant exact: DuckDB's microseconds are the workbench's nanoseconds / 1000.
    const duckMicros = (await rows(`SELECT epoch_us(BarDateTime) FROM ${table(dir)} ORDER BY 1`)).map(([v]) => v);
    expect(duckMicros).toEqual(
      (scanned.getColumn("BarDateTime").cast(pl.Int64).toArray() as unknown as bigint[]).map((ns) => Number(BigInt(ns) / 1000n)),
    );
  });

  it("option analytics: UnderLastMidTime in microseconds, the millisecond columns as they are; ticks keep nanoseconds", async () => {
    const options = join(scratch, "greeks-times");
    await local.wb.download("opt-greeks-daily", { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-20" }, options);
    const file = join(options, "Ticker=AAPL", readdirSync(join(options, "Ticker=AAPL"))[0]);
    expect(await timeTypes(file)).toEqual({ UnderLastMidTime: "MICROS, UTC", LastBidTime: "MILLIS, UTC", LastAskTime: "MILLIS, UTC" });
    const ticks = join(scratch, "ticks-times");
    await local.wb.download("eq-taq", { tickers: ["OXY.WS"], start: "2023-11-22", end: "2023-11-22" }, ticks);
    expect(await timeTypes(join(ticks, "Ticker=OXY.WS", "TradeDate=2023-11-22", "part.parquet"))).toEqual({ EventDateTime: "NANOS, UTC" });
  });
});

describe("one table per dataset", () => {
  it("a second option root extends the folder of the first, and a wider range of both fetches only the new days", async () => {
    const dir = join(scratch, "greeks");
    const range = { start: "2023-11-20", end: "2023-11-21" };
    await local.wb.download("opt-greeks-daily", { tickers: ["AAPL"], ...range }, dir);
    const second = await local.wb.download("opt-greeks-daily", { tickers: ["MSFT"], ...range }, dir);
    expect(second).toMatchObject({ layout: ["Ticker", "TradeDate"], partitions: 4, fetched: 2, resumed: true, warnings: [] });
    expect(readdirSync(dir).sort()).toEqual(["Ticker=AAPL", "Ticker=MSFT"]);
    const wider = await local.wb.download("opt-greeks-daily", { tickers: ["AAPL", "MSFT"], start: "2023-11-20", end: "2023-11-22" }, dir);
    expect(wider).toMatchObject({ partitions: 6, fetched: 2 });
    const fetched = await local.wb.data.optGreeksDaily(["AAPL", "MSFT"], { start: "2023-11-20", end: "2023-11-22" });
    const counts = await rows(`SELECT Ticker, count(*) FROM ${table(dir)} GROUP BY Ticker ORDER BY Ticker`);
    const expected = fetched.groupBy("Ticker").agg(pl.len().alias("n")).sort("Ticker").rows().map(([t, n]) => [t, Number(n)]);
    expect(counts).toEqual(expected);
    const key = ["Ticker", "TradeDate", "ExpirationDate", "Strike", "CallPut"];
    expectSameFrame(local.wb.scan(dir).collectSync().sort(key), fetched.sort(key));
  });
});

describe("a ticker that stops trading mid-range", () => {
  const universe = { tickers: ["AAPL", "HES", "MSFT"], start: "2023-11-20", end: "2023-11-28" };
  const hesWarning =
    /^HES has rows in eq-daily-ohlc only up to (2023-11-\d\d) of 2023-11-20 to 2023-11-28: HES maps to no security after \1 \(delisted or merged\)/;

  it("is downloaded for the days it traded, with a warning naming it, the date and the reason; the others in full", async () => {
    const dir = join(scratch, "delisted");
    const { value: result, warnings } = await quietly(() => local.wb.download("eq-daily-ohlc", universe, dir));
    expect(result.warnings).toEqual([expect.stringMatching(hesWarning)]);
    // Its last trading day (the lookup files' end date may be a holiday after it).
    const until = /: downloaded for 2023-11-20 to (2023-11-\d\d)$/.exec(result.warnings[0])![1];
    expect(until <= hesWarning.exec(result.warnings[0])![1]).toBe(true);
    expect(warnings).toEqual([`Warning: ${result.warnings[0]}`]);
    const spans = await rows(
      `SELECT Ticker, CAST(min(TradeDate) AS VARCHAR), CAST(max(TradeDate) AS VARCHAR), count(*) FROM ${
        table(dir)
      } GROUP BY Ticker ORDER BY Ticker`,
    );
    expect(spans).toEqual([["AAPL", "2023-11-20", "2023-11-28", 6], ["HES", "2023-11-20", until, spans[1][3]], [
      "MSFT",
      "2023-11-20",
      "2023-11-28",
      6,
    ]]);
    expect(result.partitions).toBe(12 + Number(spans[1][3]));
  });

  it("the data call returns the same rows with the same warning", async () => {
    const { value: frame } = await quietly(() => local.wb.data.eqDailyOhlc(universe.tickers, { start: universe.start, end: universe.end }));
    expect(frameWarnings(frame)).toEqual([expect.stringMatching(hesWarning)]);
    expectSameFrame(
      local.wb.scan(join(scratch, "delisted")).collectSync().sort(["TradeDate", "Ticker"]),
      frame.sort(["TradeDate", "Ticker"]),
    );
  });

  it("a renamed ticker in a per-ticker dataset: downloaded up to its last day under that name, the warning naming the new one", async () => {
    const dir = join(scratch, "renamed");
    const { value: result } = await quietly(() =>
      local.wb.download("eq-taq-1min", { tickers: ["SQ", "AAPL"], start: "2023-11-20", end: "2023-11-28" }, dir)
    );
    expect(result.warnings).toEqual([
      expect.stringMatching(
        /^SQ has rows in eq-taq-1min only up to 2023-11-\d\d of 2023-11-20 to 2023-11-28: SQ was renamed: it trades as XYZ from 2023-11-\d\d .*: downloaded for 2023-11-20 to 2023-11-\d\d$/,
      ),
    ]);
    const { value: frame } = await quietly(() => local.wb.data.eqTaq1Min(["SQ", "AAPL"], { start: "2023-11-20", end: "2023-11-28" }));
    expect(frameWarnings(frame)).toEqual([result.warnings[0].replace(/: downloaded for .*$/, "")]);
  });
});
