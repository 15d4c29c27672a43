/**
 * The contract matches what the real sandbox answers: every account and meta answer, a JSON
 * page of every dataset (records checked field by field with recordSchema), and its error
 * bodies (string detail, the FastAPI 422 list). Mismatches are caught, not waved through.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AccessRules,
  ColumnList,
  dataEnvelope,
  DatasetList,
  DatasetStatus,
  HTTPError,
  HTTPValidationError,
  Identity,
  PaginationHeaders,
  Quotas,
  recordSchema,
} from "../../contract/mod.ts";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";

const KEY = "demo-full-access";
let sb: TestSandbox;
const json = async (path: string, key = KEY) => (await sb.get(path, key)).json();

beforeAll(async () => (sb = await startSandbox()));
afterAll(() => sb?.stop());

/** A dataset's data path with sample path values (ticks need a date and a ticker). */
const SAMPLE_PATHS: Record<string, string> = {
  "eq-taq-1min": "/us-equity/eq-taq-1min/AAPL",
  "eq-daily-ohlc": "/us-equity/eq-daily-ohlc",
  "eq-taq": "/us-equity/eq-taq/2023-11-21/AAPL",
  "opt-greeks-daily": "/us-equity-opt/opt-greeks-daily",
  "opt-open-interest": "/us-equity-opt/opt-open-interest",
  "opt-sec-master": "/us-equity-opt-ref/opt-sec-master",
  "occ-eq-spec-settl": "/us-equity-opt-ref/occ-eq-spec-settl",
  "eq-lookup-files": "/us-equity-ref/eq-lookup-files",
};

describe("the contract against the sandbox's answers", () => {
  it("parses the identity, quotas and data access rules of every demo key that may read them", async () => {
    for (const key of [KEY, "demo-restricted", "demo-tiny-quota"]) {
      Identity.parse(await json("/api/v1/account/my", key));
      Quotas.parse(await json("/api/v1/account/my/quotas", key));
      expect(AccessRules.parse(await json("/api/v1/account/my/data-access-rules", key)).length).toBeGreaterThan(0);
    }
  });

  it("parses the dataset list, and every dataset's status and columns", async () => {
    const datasets = DatasetList.parse(await json("/api/v1/meta/datasets"));
    expect(datasets.map((d) => d.dataset_text_id).sort()).toEqual(Object.keys(SAMPLE_PATHS).sort());
    for (const d of datasets) {
      const status = DatasetStatus.parse(await json(`/api/v1/meta/datasets/${d.dataset_text_id}/status`));
      expect(status.dataset_text_id).toBe(d.dataset_text_id);
      expect(ColumnList.parse(await json(`/api/v1/meta/datasets/${d.dataset_text_id}/columns`)).length).toBeGreaterThan(0);
    }
  });

  it("parses a JSON page of every dataset record by record, and its pagination headers", async () => {
    for (const [id, path] of Object.entries(SAMPLE_PATHS)) {
      const columns = ColumnList.parse(await json(`/api/v1/meta/datasets/${id}/columns`));
      const r = await sb.get(`/api/v1/data${path}?limit=50&response_format=json`, KEY);
      expect(r.status).toBe(200);
      const page = dataEnvelope(recordSchema(columns, id)).parse(await r.json());
      expect(page.data.length, id).toBeGreaterThan(0);
      expect(page.pagination.limit).toBe(50);
      const headers = PaginationHeaders.parse(Object.fromEntries(r.headers));
      expect(headers["x-pagination-limit"]).toBe("50");
    }
  });

  it("parses the string detail of a 401 and 404, and the FastAPI detail list of a 422", async () => {
    HTTPError.parse(await json("/api/v1/account/my", "wrong-key"));
    HTTPError.parse(await json("/api/v1/meta/datasets/nope/status"));
    const r = await sb.get("/api/v1/data/us-equity/eq-daily-ohlc?limit=abc", KEY);
    expect(r.status).toBe(422);
    const body = HTTPValidationError.parse(await r.json());
    expect(body.detail[0]).toMatchObject({ type: "int_parsing", loc: ["query", "limit"], input: "abc" });
  });
});

describe("the contract refuses what the service must not send", () => {
  it("names the field of a record whose value has the wrong type", async () => {
    const columns = ColumnList.parse(await json("/api/v1/meta/datasets/eq-daily-ohlc/columns"));
    const page = await (await sb.get("/api/v1/data/us-equity/eq-daily-ohlc?limit=2&response_format=json", KEY)).json();
    page.data[1].TradeDate = "2023-11-31";
    const result = dataEnvelope(recordSchema(columns)).safeParse(page);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0].path).toEqual(["data", 1, "TradeDate"]);
  });

  it("refuses an identity whose id is text and quotas missing a counter", () => {
    expect(Identity.safeParse({ identity_id: "7", name: "x", max_active_api_keys: 2, ip_subnets: [] }).success).toBe(false);
    const counters = { per_minute_requests: 1, monthly_requests: 1, monthly_data_scanned: 1 };
    expect(Quotas.safeParse({ quotas_usage: counters, quotas_limit: counters }).success).toBe(false);
  });
});
