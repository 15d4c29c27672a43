/**
 * The access rules of demo-restricted (eq-daily-ohlc and eq-taq-1min only, tickers AAPL and
 * MSFT, dates 2023-11-21..27) hold whatever the request says: every answer either is refused
 * or holds exactly the entitled rows, counted directly in the market's Parquet files.
 */
import { join } from "node:path";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { setPerMinuteQuota } from "./support/errorsState.ts";
import { rawGet } from "./support/fuzzRawGet.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

const KEY = "demo-restricted";
const DAILY = "/api/v1/data/us-equity/eq-daily-ohlc";
const MINUTES = "/api/v1/data/us-equity/eq-taq-1min";
const UNIVERSE = ["AAPL", "MSFT"];
const [START, END] = ["2023-11-21", "2023-11-27"];

type Row = Record<string, unknown>;
const dateLit = (d: string) => pl.lit(d).str.strptime(pl.Date, "%Y-%m-%d");
const keyOf = (r: Row) => `${r.TradeDate} ${r.Ticker}`;

/** The entitled rows of a scan, with dates as text like the service writes them. */
function entitled(scan: pl.LazyDataFrame, tickers = UNIVERSE): Row[] {
  return scan
    .filter(pl.col("Ticker").isIn(tickers).and(pl.col("TradeDate").gtEq(dateLit(START))).and(pl.col("TradeDate").ltEq(dateLit(END))))
    .withColumns(pl.col("TradeDate").dt.strftime("%Y-%m-%d"))
    .collectSync()
    .toRecords() as Row[];
}

describe("the access rules of demo-restricted cannot be bypassed by any parameter", () => {
  let sb: TestSandbox;
  let daily: Row[], dailyTotal: number, aaplMinutes: Row[];

  /** A 200 page's rows. */
  async function rows(path: string): Promise<Row[]> {
    const r = await sb.get(path, KEY);
    const body = await r.json();
    expect(r.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    return body.data;
  }

  /** A refusal: the status, and a detail that matches. */
  async function refused(path: string, status: number, detail: RegExp): Promise<void> {
    const r = await rawGet(sb.baseUrl, path, KEY);
    expect(r.status, r.body.slice(0, 300)).toBe(status);
    const body = r.json() as { detail: unknown; data?: unknown };
    expect(body.data).toBeUndefined();
    expect(JSON.stringify(body.detail)).toMatch(detail);
  }

  beforeAll(async () => {
    const dir = inject("tinyMarketDir");
    const dailyScan = pl.scanParquet(join(dir, "eq-daily-ohlc/*.parquet"));
    daily = entitled(dailyScan);
    dailyTotal = dailyScan.collectSync().height;
    aaplMinutes = entitled(pl.scanParquet(join(dir, "eq-taq-1min/aggregation_logic=core/*.parquet")), ["AAPL"]);
    sb = await startSandbox();
    // This suite sends more data requests a minute than the account's 30; quotas are not its subject.
    setPerMinuteQuota(sb.statePath, KEY, 10_000);
  });
  afterAll(() => sb.stop());

  it("shows an unfiltered request only the universe's rows inside the window", async () => {
    expect(daily).toHaveLength(8); // 2 tickers x 4 trading days (Thanksgiving is closed)
    expect(dailyTotal).toBeGreaterThan(daily.length);
    expect((await rows(DAILY)).map(keyOf).sort()).toEqual(daily.map(keyOf).sort());
  });

  it.each([
    "sort=-ClosePrice",
    "sort=-Ticker,-TradeDate",
    "Ticker.like=*",
    "Ticker.ilike=*",
    "Ticker.gt=A",
    "Ticker.ge=",
    "Ticker.lt=~",
    "ASID.gt=-1",
    "TradeDate.ge=2023-11-21&TradeDate.le=2023-11-27",
    "offset=0&limit=100000",
  ])("widens nothing with %s", async (query) => {
    expect((await rows(`${DAILY}?${query}`)).map(keyOf).sort()).toEqual(daily.map(keyOf).sort());
  });

  it("keeps the rules when the chosen columns leave out Ticker and TradeDate", async () => {
    const volumes = (await rows(`${DAILY}?columns=DailyVolume`)).map((r) => r.DailyVolume);
    expect(volumes.sort()).toEqual(daily.map((r) => r.DailyVolume).sort());
    const minutes = await rows(`${MINUTES}/AAPL?columns=Volume&limit=100000`);
    expect(minutes).toHaveLength(aaplMinutes.length);
    const sum = (rs: Row[]) => rs.reduce((s, r) => s + Number(r.Volume), 0);
    expect(sum(minutes)).toBe(sum(aaplMinutes));
  });

  it("matches patterns only inside the universe", async () => {
    expect(await rows(`${DAILY}?Ticker.ilike=t*`)).toEqual([]);
    expect(await rows(`${DAILY}?Ticker.like=S*`)).toEqual([]);
    const a = await rows(`${DAILY}?Ticker.ilike=a*`);
    expect(a.map(keyOf).sort()).toEqual(daily.filter((r) => r.Ticker === "AAPL").map(keyOf).sort());
  });

  it.each([
    ["Ticker=SPY", /'SPY'/],
    ["Ticker.eq=TSM", /'TSM'/],
    ["Ticker.in=AAPL,SPY", /'SPY'/],
    ["Ticker=AAPL&Ticker.eq=SPY", /'SPY'/],
    ["Ticker=aapl", /'aapl'/],
  ])("refuses a ticker outside the universe named in %s", async (query, named) => {
    await refused(`${DAILY}?${query}`, 403, named);
  });

  it("combines several filters on the ticker, it does not union them", async () => {
    expect(await rows(`${DAILY}?Ticker=AAPL&Ticker.eq=MSFT`)).toEqual([]);
    expect(await rows(`${MINUTES}/AAPL?Ticker=MSFT`)).toEqual([]);
  });

  it.each([
    ["aapl", /'aapl'/],
    ["%54SLA", /'TSLA'/],
    ["%2541APL", /'%41APL'/],
    ["AAPL?Ticker.in=AAPL,SPY", /'SPY'/],
  ])("refuses the path ticker %s, percent-decoded exactly once", async (tail, named) => {
    await refused(`${MINUTES}/${tail}`, 403, named);
  });

  it("serves a percent-encoded path ticker in the universe as that ticker", async () => {
    const page = await rows(`${MINUTES}/%41APL?columns=Ticker,TradeDate&limit=100000`);
    expect(page).toHaveLength(aaplMinutes.length);
    expect(new Set(page.map((r) => r.Ticker))).toEqual(new Set(["AAPL"]));
  });

  it.each([
    ["TradeDate.ge=2023-01-01", "2023-01-01"],
    ["TradeDate.le=2024-01-01", "2024-01-01"],
    ["TradeDate=2023-11-28", "2023-11-28"],
    ["TradeDate.in=2023-11-22,2023-11-20", "2023-11-20"],
    ["TradeDate.gt=2023-11-21&TradeDate.lt=2023-12-01", "2023-12-01"],
  ])("refuses %s with 422: the date lies outside the window", async (query, date) => {
    await refused(`${DAILY}?${query}`, 422, new RegExp(`The date value '${date}' is outside of the allowed range for this account`));
  });

  it("keeps the window when a date-time or a narrower date filter is used", async () => {
    expect(await rows(`${MINUTES}/AAPL?BarDateTime.lt=2023-11-21T00:00:00&columns=TradeDate`)).toEqual([]);
    expect(await rows(`${MINUTES}/AAPL?BarDateTime.gt=2023-11-27T23:59:59&columns=TradeDate`)).toEqual([]);
    // Epoch nanoseconds before 1970 are negative, after 2262 beyond Int64: neither may bend a bound.
    expect(await rows(`${MINUTES}/AAPL?BarDateTime.lt=1900-01-01T00:00:00&columns=TradeDate`)).toEqual([]);
    const wide = `BarDateTime.ge=1000-01-01T00:00:00&BarDateTime.le=3000-01-01T00:00:00&columns=TradeDate&limit=100000`;
    expect(await rows(`${MINUTES}/AAPL?${wide}`)).toHaveLength(aaplMinutes.length);
    const later = await rows(`${DAILY}?TradeDate.gt=2023-11-21`);
    expect(later.map(keyOf).sort()).toEqual(daily.filter((r) => (r.TradeDate as string) > START).map(keyOf).sort());
  });

  it("keeps the rules in either aggregation variant and refuses any other value", async () => {
    const page = await rows(`${MINUTES}/AAPL?aggregation_logic=no_finra_trf&columns=Ticker,TradeDate&limit=100000`);
    expect(page).toHaveLength(aaplMinutes.length);
    const inWindow = (d: unknown) => String(d) >= START && String(d) <= END;
    expect(new Set(page.map((r) => `${r.Ticker} ${inWindow(r.TradeDate)}`))).toEqual(new Set(["AAPL true"]));
    for (
      const query of [
        "aggregation_logic=NO_FINRA_TRF",
        "aggregation_logic=core,no_finra_trf",
        "aggregation_logic=core&aggregation_logic=no_finra_trf",
        "aggregation_logic=..%2F..%2Feq-taq",
      ]
    ) {
      await refused(`${MINUTES}/AAPL?${query}`, 422, /aggregation_logic/);
    }
    await refused(`${DAILY}?aggregation_logic=core`, 422, /do not exist in the dataset: aggregation_logic/);
  });

  it("renders the same rows as CSV", async () => {
    const r = await sb.get(`${DAILY}?response_format=csv`, KEY);
    const lines = (await r.text()).trim().split("\n");
    expect(lines).toHaveLength(daily.length + 1);
    expect(lines.slice(1).every((l) => UNIVERSE.some((t) => l.includes(`,${t},`)))).toBe(true);
  });

  it.each([
    "/api/v1/data/us-equity/eq-taq/2023-11-21/AAPL",
    "/api/v1/data/us-equity-opt/eq-taq/2023-11-21/AAPL",
    "/api/v1/data/us-equity/eq-taq/2023-11-21/AAPL/",
    "/api/v1/data/us-equity//eq-taq/2023-11-21/AAPL",
    "/api/v1/data//us-equity/eq-taq/2023-11-21/AAPL",
    "/api/v1/data/us-equity/EQ-TAQ/2023-11-21/AAPL",
    "/api/v1/data/us-equity/eq-taq%2F2023-11-21%2FAAPL",
    "/api/v1/meta/datasets/eq-taq/columns",
    "/api/v1/meta/datasets/eq-taq/status",
  ])("does not reach the unentitled eq-taq through %s", async (path) => {
    await refused(path, 404, /not found/i);
  });

  it.each([
    `${DAILY}/../eq-taq/2023-11-21/AAPL`,
    `${DAILY}/%2e%2e/eq-taq/2023-11-21/AAPL`,
    `${MINUTES}/AAPL/../../eq-taq/2023-11-21/AAPL`,
    `${MINUTES}/..%2F..%2Feq-taq%2F2023-11-21%2FAAPL`,
    "/api/v1/data/us-equity/eq-daily-ohlc/../../../meta/datasets",
  ])("does not resolve '..' in %s, for this key or any other", async (path) => {
    await refused(path, 404, /not found/i);
    const full = await rawGet(sb.baseUrl, path, "demo-full-access");
    expect(full.status).toBe(404);
  });

  it.each([
    ["ticker=TSLA", /do not exist in the dataset: ticker/],
    ["TICKER=SPY", /do not exist in the dataset: TICKER/],
    ["tradedate.ge=2000-01-01", /do not exist in the dataset: tradedate/],
    ["Ticker.EQ=SPY", /Unsupported filter operator 'EQ'/],
  ])("treats the query key %s as case-sensitive and refuses it with 422", async (query, detail) => {
    await refused(`${DAILY}?${query}`, 422, detail);
  });

  it("lists only the entitled datasets in the metadata", async () => {
    const r = await sb.get("/api/v1/meta/datasets", KEY);
    expect((await r.json()).map((d: { dataset_text_id: string }) => d.dataset_text_id).sort()).toEqual(["eq-daily-ohlc", "eq-taq-1min"]);
  });
});
