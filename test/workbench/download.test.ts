/**
 * `wb.download` writes a universe over a range as Ticker=-partitioned Parquet (a file of each
 * request's days) with a manifest of its ticker-day partitions (against the sandbox's app
 * in-process; a download killed midway: downloadKilled.test.ts); a wider range fetches only the
 * new partitions; DuckDB reads the folder in place (pruning by ticker) and agrees with
 * `wb.scan` row for row; `wb.estimate` sizes a call from free metadata; a download beyond the month is
 * refused before sending anything unless forced.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createHash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connect, QuotaExceededError, QuotaGuardError, type Workbench } from "../../workbench/mod.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";
import { expectSameFrame } from "./support/frames.ts";
import { createAccount } from "./support/state.ts";

const TICKERS = ["SPY", "AAPL", "OXY.WS"];
const sortRows = (f: pl.DataFrame) => f.sort(["Ticker", "BarDateTime"]);

let sb: AppSandbox;
let scratch: string;
let full: Workbench;

beforeAll(async () => {
  sb = await openAppSandbox();
  scratch = mkdtempSync(join(tmpdir(), "wb-lake-"));
  full = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
});
afterAll(async () => {
  await sb?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const quietly = async <T>(run: () => Promise<T>) => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    return await run();
  } finally {
    warn.mockRestore();
  }
};
const monthlyRequests = async (wb: Workbench) => (await wb.account.quotasRaw()).quotas_usage.monthly_requests;
/** The manifest beside a lake folder (`lake/.bars.workbench/manifest.json` for `lake/bars`). */
const manifestPath = (dir: string) => join(dirname(dir), `.${basename(dir)}.workbench`, "manifest.json");
const manifestOf = (dir: string) => JSON.parse(readFileSync(manifestPath(dir), "utf8"));
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("a partitioned download", () => {
  const dir = () => join(scratch, "bars");

  it("writes a Ticker= file of each request's days, Ticker/TradeDate partitions in a manifest without the key; the scan equals a fetch", async () => {
    const result = await full.download("eq-taq-1min", { tickers: TICKERS, start: "2023-11-20", end: "2023-11-21" }, dir());
    expect(result).toMatchObject({
      dataset: "eq-taq-1min",
      layout: ["Ticker", "TradeDate"],
      partitions: 6,
      fetched: 6,
      rows: 6 * 960,
      resumed: false,
    });
    const file = "Ticker=AAPL/part-2023-11-20_2023-11-21.parquet";
    expect(readdirSync(join(dir(), "Ticker=AAPL"))).toEqual(["part-2023-11-20_2023-11-21.parquet"]);
    // The file keeps the trade date; its path carries the ticker.
    expect(pl.readParquet(join(dir(), file)).columns).toEqual(
      manifestOf(dir()).columns.map((c: { name: string }) => c.name).filter((n: string) => n !== "Ticker"),
    );
    // The table holds only Parquet files; the bookkeeping is beside it.
    expect(readdirSync(dir()).sort()).toEqual(TICKERS.map((t) => `Ticker=${t}`).sort());
    const manifestText = readFileSync(manifestPath(dir()), "utf8");
    expect(manifestText).not.toContain("demo-full-access");
    // Each partition is recorded with its rows and file; each file with its size, rows and SHA-256 (checked before a re-run reuses it).
    const manifest = manifestOf(dir());
    expect(manifest).toMatchObject({
      format: "market-workbench-lake/3",
      layout: ["Ticker", "TradeDate"],
      fileColumns: ["Ticker"],
      timeUnits: { BarDateTime: "us" },
      writer: { name: "market-workbench" },
    });
    expect(manifest.partitions["Ticker=AAPL/TradeDate=2023-11-20"]).toEqual({ rows: 960, file });
    expect(manifest.partitions["Ticker=AAPL/TradeDate=2023-11-21"]).toEqual({ rows: 960, file });
    expect(manifest.files[file]).toEqual({ bytes: statSync(join(dir(), file)).size, rows: 2 * 960, sha256: sha256(join(dir(), file)) });
    const fetched = await full.data.eqTaq1Min(TICKERS, { start: "2023-11-20", end: "2023-11-21" });
    expectSameFrame(sortRows(full.scan(dir()).collectSync()), sortRows(fetched));
  });

  it("a re-run one week wider fetches only the new partitions: one request per ticker", async () => {
    const used = await monthlyRequests(full);
    const result = await full.download("eq-taq-1min", { tickers: TICKERS, start: "2023-11-20", end: "2023-11-28" }, dir());
    expect(result).toMatchObject({ partitions: 18, fetched: 12, rows: 12 * 960, resumed: true });
    expect(await monthlyRequests(full)).toBe(used + TICKERS.length);
    const again = await full.download("eq-taq-1min", { tickers: TICKERS, start: "2023-11-20", end: "2023-11-28" }, dir());
    expect(again).toMatchObject({ partitions: 18, fetched: 0, rows: 0 });
    expect(await monthlyRequests(full)).toBe(used + TICKERS.length);
  });

  it("DuckDB reads the folder in place, prunes partitions and agrees with wb.scan row for row", async () => {
    const duck = await (await DuckDBInstance.create(":memory:")).connect();
    const source = `read_parquet('${dir()}/**/*.parquet', hive_partitioning = true)`;
    const columns = "Ticker, CAST(TradeDate AS VARCHAR) AS d, epoch_ns(BarDateTime) AS t, Volume, CloseBidPrice";
    const rows = (await duck.runAndReadAll(`SELECT ${columns} FROM ${source} ORDER BY Ticker, t`)).getRows().map((r) =>
      r.map(String).join("|")
    );
    const scanned = full.scan(dir()).collectSync().sort(["Ticker", "BarDateTime"]);
    const mine = scanned.select(
      pl.col("Ticker"),
      pl.col("TradeDate").cast(pl.String),
      pl.col("BarDateTime").cast(pl.Int64),
      pl.col("Volume"),
      pl.col("CloseBidPrice"),
    ).rows().map((r) => r.map(String).join("|"));
    expect(rows.length).toBe(18 * 960);
    expect(rows).toEqual(mine);
    // Pruning: a filter on the ticker reads that ticker's two files of six.
    const plan =
      (await duck.runAndReadAll(`EXPLAIN ANALYZE SELECT count(*) FROM ${source} WHERE Ticker = 'AAPL' AND TradeDate = '2023-11-21'`))
        .getRows().map((r) => r.map(String).join("\n")).join("\n");
    expect(plan).toMatch(/Scanning Files: 2\/6/);
    const counted = await duck.runAndReadAll(`SELECT count(*) FROM ${source} WHERE Ticker = 'AAPL' AND TradeDate = '2023-11-21'`);
    expect(Number(counted.getRows()[0][0])).toBe(960);
    duck.closeSync();
  });

  it("a folder holding another query's download is refused", async () => {
    await expect(
      full.download("eq-taq-1min", { tickers: TICKERS, start: "2023-11-20", end: "2023-11-21", aggregation: "no_finra_trf" }, dir()),
    ).rejects.toThrow(/holds a download of a different query/);
  });

  it("a daily dataset asked by ticker is partitioned by Ticker and TradeDate, its universe a Ticker filter: one request, a file a ticker", async () => {
    const d = join(scratch, "daily");
    const used = await monthlyRequests(full);
    const result = await full.download("eq-daily-ohlc", { tickers: ["AAPL", "MSFT"], start: "2023-11-21", end: "2023-11-24" }, d);
    expect(result).toMatchObject({ layout: ["Ticker", "TradeDate"], partitions: 6, fetched: 6, rows: 6 });
    expect(await monthlyRequests(full)).toBe(used + 1);
    expect(readdirSync(d).sort()).toEqual(["Ticker=AAPL", "Ticker=MSFT"]);
    expect(readdirSync(join(d, "Ticker=AAPL"))).toEqual(["part-2023-11-21_2023-11-24.parquet"]);
    const fetched = await full.data.eqDailyOhlc({ filters: { Ticker: ["AAPL", "MSFT"] }, start: "2023-11-21", end: "2023-11-24" });
    expectSameFrame(full.scan(d).collectSync().sort(["TradeDate", "Ticker"]), fetched.sort(["TradeDate", "Ticker"]));
  });

  it("a daily dataset asked without tickers is the whole market by TradeDate", async () => {
    const d = join(scratch, "daily-market");
    const result = await full.download("eq-daily-ohlc", { start: "2023-11-21", end: "2023-11-22" }, d);
    expect(result).toMatchObject({ layout: ["TradeDate"], partitions: 2, fetched: 2 });
    expect(readdirSync(d)).toEqual(["part-2023-11-21_2023-11-22.parquet"]);
    const fetched = await full.data.eqDailyOhlc({ start: "2023-11-21", end: "2023-11-22" });
    expectSameFrame(full.scan(d).collectSync().sort(["TradeDate", "Ticker"]), fetched.sort(["TradeDate", "Ticker"]));
  });
});

describe("folders of formats 1 and 2 (bookkeeping inside the table, no hashes), written by older workbenches", () => {
  /**
   * A download of `range` rewritten as an older workbench wrote it: the manifest and its sizes
   * inside the table, times in nanoseconds; format 1 a file a partition, format 2 a file of the
   * request's days.
   */
  const asLegacy = async (dir: string, format: 1 | 2, range: { start: string; end: string }) => {
    await full.download("eq-taq-1min", { tickers: ["AAPL"], ...range }, dir);
    const manifest = manifestOf(dir);
    const chunk = readdirSync(join(dir, "Ticker=AAPL"))[0];
    const rows = pl.readParquet(join(dir, "Ticker=AAPL", chunk)).withColumns(
      pl.col("BarDateTime").cast(pl.Datetime("ns", "America/New_York")),
    );
    rmSync(join(dir, "Ticker=AAPL"), { recursive: true });
    rmSync(dirname(manifestPath(dir)), { recursive: true });
    mkdirSync(join(dir, "Ticker=AAPL"));
    if (format === 2) rows.writeParquet(join(dir, "Ticker=AAPL", chunk));
    for (const path of Object.keys(manifest.partitions)) {
      const date = path.split("TradeDate=")[1];
      if (format === 2) {
        manifest.partitions[path] = {
          rows: manifest.partitions[path].rows,
          bytes: statSync(join(dir, "Ticker=AAPL", chunk)).size,
          file: `Ticker=AAPL/${chunk}`,
        };
        continue;
      }
      mkdirSync(join(dir, path), { recursive: true });
      rows.filter(pl.col("TradeDate").cast(pl.String).eq(pl.lit(date))).drop("TradeDate").writeParquet(join(dir, path, "part.parquet"));
      manifest.partitions[path] = { rows: manifest.partitions[path].rows, bytes: statSync(join(dir, path, "part.parquet")).size };
    }
    if (format === 1) delete manifest.fileColumns;
    for (const key of ["$schema", "writer", "files", "timeUnits", "timeZone"]) delete manifest[key];
    writeFileSync(join(dir, "_manifest.json"), JSON.stringify({ ...manifest, format: `market-workbench-lake/${format}` }));
  };

  for (const format of [1, 2] as const) {
    it(`format ${format} is scanned as it is, and a download upgrades it: bookkeeping moved beside the table, files hashed, a wider range added in the folder's own units`, async () => {
      const d = join(scratch, `format-${format}`);
      await asLegacy(d, format, { start: "2023-11-20", end: "2023-11-21" });
      const range = { start: "2023-11-20", end: "2023-11-22" };
      expect(full.scan(d).collectSync().height).toBe(2 * 960);
      const result = await quietly(() => full.download("eq-taq-1min", { tickers: ["AAPL"], ...range }, d));
      expect(result).toMatchObject({ partitions: 3, fetched: 1, resumed: true });
      expect(result.warnings).toEqual([
        expect.stringMatching(
          new RegExp(
            `was of format ${format}: upgraded to 3, its manifest moved beside the table .* and its ${
              format === 1 ? 2 : 1
            } file\\(s\\) hashed as they are`,
          ),
        ),
      ]);
      expect(existsSync(join(d, "_manifest.json"))).toBe(false);
      const manifest = manifestOf(d);
      expect(manifest).toMatchObject({
        format: "market-workbench-lake/3",
        layout: ["Ticker", "TradeDate"],
        fileColumns: format === 1 ? ["Ticker", "TradeDate"] : ["Ticker"],
        timeUnits: { BarDateTime: "ns" },
      });
      for (const [file, record] of Object.entries(manifest.files as Record<string, { sha256: string }>)) {
        expect(record.sha256, file).toBe(sha256(join(d, file)));
      }
      if (format === 1) {
        expect(readdirSync(join(d, "Ticker=AAPL")).sort()).toEqual([
          "TradeDate=2023-11-20",
          "TradeDate=2023-11-21",
          "TradeDate=2023-11-22",
        ]);
      } else {expect(readdirSync(join(d, "Ticker=AAPL")).sort()).toEqual([
          "part-2023-11-20_2023-11-21.parquet",
          "part-2023-11-22_2023-11-22.parquet",
        ]);}
      // Every file of the folder in the same unit: one table for any engine.
      for (const file of Object.keys(manifest.files)) {
        expect(String(pl.readParquet(join(d, file)).schema.BarDateTime), file).toContain("Datetime(ns");
      }
      expectSameFrame(full.scan(d).collectSync().sort("BarDateTime"), await full.data.eqTaq1Min("AAPL", range));
    });
  }
});

describe("other layouts", () => {
  it("ticks (trade date in the path) are fetched per ticker and trading day into Ticker=/TradeDate=", async () => {
    const d = join(scratch, "ticks");
    const range = { start: "2023-11-22", end: "2023-11-24" };
    const result = await full.download("eq-taq", { tickers: ["OXY.WS"], ...range }, d);
    expect(result).toMatchObject({ layout: ["Ticker", "TradeDate"], partitions: 2, fetched: 2 });
    expect(existsSync(join(d, "Ticker=OXY.WS", "TradeDate=2023-11-24", "part.parquet"))).toBe(true);
    expectSameFrame(
      full.scan(d).collectSync().sort(["TradeDate", "EventDateTime"]),
      (await full.data.eqTaq(null, "OXY.WS", range)).sort(["TradeDate", "EventDateTime"]),
    );
  });

  it("an undated dataset is one part.parquet", async () => {
    const d = join(scratch, "lookup");
    const result = await full.download("eq-lookup-files", {}, d);
    expect(result).toMatchObject({ layout: [], partitions: 1, fetched: 1 });
    expectSameFrame(full.scan(d).collectSync(), await full.data.eqLookupFiles());
    await expect(full.download("eq-lookup-files", { start: "2023-11-20" }, join(scratch, "lookup2"))).rejects.toThrow(
      /has no trade-date column/,
    );
  });
});

describe("estimate and the guard of a download", () => {
  it("estimates requests, rows and bytes against the remaining quotas, and spends no quota", async () => {
    const used = await monthlyRequests(full);
    const e = await full.estimate("eq-taq-1min", { pageSize: 100 }, ["AAPL"]);
    const quotas = await full.account.quotasRaw();
    expect(e.dataset).toBe("eq-taq-1min");
    const actual = (await full.data.eqTaq1Min("AAPL")).height;
    expect(Math.abs(e.rows - actual)).toBeLessThanOrEqual(actual * 0.1);
    expect(e.requests).toBe(Math.ceil(e.rows / 100)); // the last page says it is the last: no empty page after it
    expect(e.remaining.monthly_requests).toBe(quotas.quotas_limit.monthly_requests - used);
    expect(quotas.quotas_usage.monthly_requests).toBe(used);
  });

  it("refuses a download too large for the month before sending any data request, unless forced", async () => {
    const key = "wb-lake-month";
    createAccount(sb.statePath, { key, perMinute: 100_000, monthly: 5 });
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: key });
    const dir = join(scratch, "refused");
    const query = { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-28", pageSize: 100 };
    const error = await wb.download("eq-taq-1min", query, dir).catch((x) => x);
    expect(error).toBeInstanceOf(QuotaGuardError);
    expect(error.message).toMatch(/before its first request: the rest of this call needs about \d+ requests/);
    // No data request; the lookup files (one request a session) said which days each ticker traded.
    expect(await monthlyRequests(wb)).toBe(1);
    const really = await wb.download("eq-taq-1min", { ...query, force: true }, dir, { chunkDays: 1 }).catch((x) => x);
    expect(really).toBeInstanceOf(QuotaExceededError);
    expect(await monthlyRequests(wb)).toBe(5);
  });
});
