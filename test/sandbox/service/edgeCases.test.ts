/**
 * Edge cases an independent tester found, over real HTTP: empty pages of every dataset in
 * every format (offset past 2^32, past the end, a filter no file matches), both dataset ids
 * on the meta routes, status scoped to the identity's access rule, strict integer parsing,
 * and 405 with `Allow` for methods other than GET and HEAD.
 */
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DATASETS } from "../../../sandbox/market/catalog.ts";
import { rawRequest } from "./support/fuzzRawGet.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";
import { Buffer } from "node:buffer";

const FULL = "demo-full-access";
/** A path of each dataset with its path parameters filled in. */
const dataPath = (d: (typeof DATASETS)[number]) =>
  `/api/v1/data/${d.assetClass}/${d.textId}${d.pathParams.map((p) => (p.type === "date" ? "/2023-11-21" : "/AAPL")).join("")}`;

describe("sandbox edge cases", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.stop());

  async function emptyPage(path: string): Promise<void> {
    const dataset = DATASETS.find((d) => path.includes(`/${d.textId}`))!;
    const json = await sb.get(path, FULL);
    const body = await json.json();
    expect(json.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.pagination.next_offset).toBeNull();
    const header = dataset.columns.map((c) => c.name).join(",");
    const csv = await sb.get(`${path}&response_format=csv`, FULL);
    expect(csv.status).toBe(200);
    expect((await csv.text()).trim()).toBe(header);
    const gz = await sb.get(`${path}&response_format=csv_gzip`, FULL);
    expect(gz.status).toBe(200);
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString("utf8").trim()).toBe(header);
  }

  for (const dataset of DATASETS) {
    it(`${dataset.textId}: an empty page in every format at offset 2^32-1, 2^32 and past the end`, async () => {
      for (const offset of [2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, 100_000_000]) await emptyPage(`${dataPath(dataset)}?offset=${offset}`);
    });
    it(`${dataset.textId}: an empty page in every format when no row matches`, async () => {
      // A date before the market prunes every file (an empty plan); an impossible value filters every row.
      if (dataset.dateColumn && !dataset.pathParams.some((p) => p.column === dataset.dateColumn)) {
        await emptyPage(`${dataPath(dataset)}?${dataset.dateColumn}=2001-01-02`);
      }
      const text = dataset.columns.find((c) => c.type === "string" && !dataset.pathParams.some((p) => p.column === c.name));
      if (text) await emptyPage(`${dataPath(dataset)}?${text.name}=no-such-value`);
    });
  }

  it("an empty page with a List(String) column spends quota like any answered request, and is no 500", async () => {
    const quotas = async () =>
      ((await (await sb.get("/api/v1/account/my/quotas", FULL)).json()) as { quotas_usage: { monthly_requests: number } }).quotas_usage
        .monthly_requests;
    const before = await quotas();
    const r = await sb.get("/api/v1/data/us-equity-opt-ref/opt-sec-master?offset=4294967295&columns=OptionTradeDates", FULL);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ data: [], pagination: { offset: 4294967295, limit: 10000, next_offset: null } });
    expect(await quotas()).toBe(before + 1);
  });

  for (const route of ["status", "columns"]) {
    it(`/meta/datasets/{id}/${route} answers the same for the short dataset_id and the text id of every dataset`, async () => {
      const listed = (await (await sb.get("/api/v1/meta/datasets", FULL)).json()) as { dataset_id: string; dataset_text_id: string }[];
      expect(listed.length).toBe(DATASETS.length);
      for (const d of listed) {
        const [byShort, byText] = await Promise.all(
          [d.dataset_id, d.dataset_text_id].map((id) => sb.get(`/api/v1/meta/datasets/${id}/${route}`, FULL)),
        );
        expect([byShort.status, byText.status]).toEqual([200, 200]);
        expect(await byShort.json()).toEqual(await byText.json());
      }
      const unknown = await sb.get(`/api/v1/meta/datasets/NOSUCH/${route}`, FULL);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ detail: "A dataset with the id 'NOSUCH' is not found" });
    });
  }

  it("a restricted identity's status counts only the rows, tickers and dates its rule allows", async () => {
    // demo-restricted: AAPL and MSFT, 2023-11-21..27. Count what its own data requests return.
    const daily = (await (await sb.get("/api/v1/data/us-equity/eq-daily-ohlc?limit=100000", "demo-restricted")).json()).data as {
      TradeDate: string;
      Ticker: string;
    }[];
    const minutes = [];
    for (const t of ["AAPL", "MSFT"]) {
      minutes.push(
        ...(await (await sb.get(`/api/v1/data/us-equity/eq-taq-1min/${t}?limit=100000&columns=TradeDate,Ticker`, "demo-restricted")).json())
          .data,
      );
    }
    for (const [id, rows] of [["EQDLY", daily], ["eq-taq-1min", minutes]] as const) {
      const status = await (await sb.get(`/api/v1/meta/datasets/${id}/status`, "demo-restricted")).json();
      const dates = rows.map((r) => r.TradeDate).sort();
      expect(status).toMatchObject({
        row_count: rows.length,
        ticker_count: 2,
        first_available_date: dates[0],
        last_available_date: dates.at(-1),
      });
      expect(dates[0] >= "2023-11-21" && dates.at(-1)! <= "2023-11-27").toBe(true);
    }
    // The full-access identity still sees the whole dataset, as the market's files hold it.
    const whole = pl.readParquet(join(inject("tinyMarketDir"), "eq-daily-ohlc/TradeDate=2023-11-21.parquet"));
    const full = await (await sb.get("/api/v1/meta/datasets/eq-daily-ohlc/status", FULL)).json();
    expect(full.ticker_count).toBeGreaterThanOrEqual(whole.height);
    expect(full.row_count).toBeGreaterThan(daily.length);
  });

  it("integers are decimal digits with an optional sign: no spaces, hex, exponents or fractions", async () => {
    const daily = "/api/v1/data/us-equity/eq-daily-ohlc";
    for (
      const [name, value] of [
        ["limit", " 170 "],
        ["limit", "0x10"],
        ["offset", "1e3"],
        ["offset", "%2010"],
        ["limit", "10.0"],
        ["limit", "１０"],
        ["ASID", "0x186A1"],
        ["ASID", " 100001"],
      ]
    ) {
      const r = await sb.get(`${daily}?${name}=${encodeURIComponent(decodeURIComponent(value))}`, FULL);
      expect(r.status, `${name}=${value}`).toBe(422);
      expect(await r.json()).toEqual({
        detail: [{
          type: "int_parsing",
          loc: ["query", name],
          msg: "Input should be a valid integer, unable to parse string as an integer",
          input: decodeURIComponent(value),
        }],
      });
    }
    for (const query of ["limit=%2B5", "offset=-0", "limit=007", "ASID=100001"]) {
      expect((await sb.get(`${daily}?${query}`, FULL)).status, query).toBe(200);
    }
  });

  it("reports problems with names and with values together, in the order of the query string", async () => {
    const r = await sb.get("/api/v1/data/us-equity/eq-daily-ohlc?limit=100001&TradeDate=2023-13-01&DailyVolume.gte=3&limit=5", FULL);
    expect(r.status).toBe(422);
    const detail = (await r.json()).detail as { loc: string[]; type: string }[];
    expect(detail.map((d) => d.loc.join("."))).toEqual(["query.limit", "query.TradeDate", "query.DailyVolume.gte"]);
    expect(detail.map((d) => d.type)).toEqual(["value_error", "date_from_datetime_parsing", "value_error"]);
    const alone = await sb.get("/api/v1/data/us-equity/eq-daily-ohlc?DailyVolume.gte=3", FULL);
    expect(alone.status).toBe(422);
  });

  it("answers 405 with Allow: GET, HEAD to every other method on every route, before authentication", async () => {
    const paths = [
      "/openapi.json",
      "/api/v1/account/my",
      "/api/v1/meta/datasets/EQT1M/status",
      "/api/v1/data/us-equity/eq-daily-ohlc?limit=1",
    ];
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"]) {
      for (const path of paths) {
        const r = await rawRequest(sb.baseUrl, method, path);
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.allow).toBe("GET, HEAD");
        expect(r.json()).toEqual({ detail: "Method Not Allowed" });
      }
    }
    expect((await rawRequest(sb.baseUrl, "POST", "/no/such/route")).status).toBe(404);
  });
});
