/**
 * The workbench checks what a service answers against the contract: a fetch in front of the
 * sandbox's app (in-process) rewrites one field, and the call raises a ContractError naming the
 * endpoint, the field and what came instead. Date-times in every form a real service may send
 * (offset, Z, naive New York time) give the same frame.
 */
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, ContractError } from "../../workbench/mod.ts";
import { pageToFrame } from "../../workbench/frames/frames.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";
import { expectSameFrame } from "./support/frames.ts";
import { type JsonBody, type Rewrites, rewritingFetch } from "./support/rewritingFetch.ts";

const KEY = "demo-full-access";
let sb: AppSandbox;
beforeAll(async () => (sb = await openAppSandbox()));
afterAll(() => sb?.stop());

/** Runs `call` with answers rewritten by `rules`; returns what it threw (or its result). */
async function through<T>(rules: Rewrites, call: (wb: Awaited<ReturnType<typeof connect>>) => Promise<T>): Promise<T | unknown> {
  const wb = await connect({ baseUrl: sb.baseUrl, fetch: rewritingFetch(sb.fetch, rules), apiKey: KEY, retries: 1 });
  return await call(wb).catch((e) => e);
}

function expectContractError(error: unknown, endpoint: string, field: string, received: unknown): void {
  expect(error).toBeInstanceOf(ContractError);
  const e = error as ContractError;
  expect(e.endpoint).toBe(endpoint);
  expect(e.field).toBe(field);
  expect(e.received).toEqual(received);
  expect(e.message).toContain(endpoint);
  expect(e.message).toContain(field);
}

describe("account and meta answers that drift from the contract", () => {
  it("an identity id sent as text names the endpoint, the field and the text", async () => {
    const error = await through(
      { "/api/v1/account/my": (b) => ({ ...b, identity_id: String(b.identity_id) }) },
      (wb) => wb.account.identity(),
    );
    expectContractError(error, "GET /api/v1/account/my", "identity_id", expect.any(String));
    expect((error as Error).message).toMatch(/identity_id: .*got "\d+" \(string\)/);
  });

  it("a quota counter missing from the limits is named by its path", async () => {
    const error = await through({
      "/api/v1/account/my/quotas": (b) => ({ ...b, quotas_limit: { ...b.quotas_limit, monthly_requests: undefined } }),
    }, (wb) => wb.account.quotas());
    expectContractError(error, "GET /api/v1/account/my/quotas", "quotas_limit.monthly_requests", undefined);
    expect((error as Error).message).toContain("the field is missing");
  });

  it("a byte counter beyond 2^53 is accepted as the integer it is", async () => {
    const quotas = await through({
      "/api/v1/account/my/quotas": (b) => ({ ...b, quotas_limit: { ...b.quotas_limit, monthly_data_scanned: 2 ** 60 } }),
    }, (wb) => wb.account.quotasRaw());
    expect((quotas as { quotas_limit: { monthly_data_scanned: number } }).quotas_limit.monthly_data_scanned).toBe(2 ** 60);
  });

  it("an access rule with an impossible end date stops a data call before any data request", async () => {
    const error = await through({
      "/api/v1/account/my/data-access-rules": (b) => b.map((r: JsonBody) => ({ ...r, end_date: "2024-02-30" })),
    }, (wb) => wb.data.eqDailyOhlc({ maxRows: 1 }));
    expectContractError(error, "GET /api/v1/account/my/data-access-rules", "0.end_date", "2024-02-30");
  });

  it("a column type the contract does not know is named with its position in the list", async () => {
    const error = await through({
      "/api/v1/meta/datasets/eq-daily-ohlc/columns": (b) =>
        b.map((c: JsonBody, i: number) => (i === 2 ? { ...c, data_type: "decimal" } : c)),
    }, (wb) => wb.meta.columns("eq-daily-ohlc"));
    expectContractError(error, "GET /api/v1/meta/datasets/eq-daily-ohlc/columns", "2.data_type", "decimal");
  });

  it("a status whose row count is text is refused; its last update in Z, naive or nanosecond form is accepted", async () => {
    const error = await through(
      { "/api/v1/meta/datasets/eq-taq/status": (b) => ({ ...b, row_count: `${b.row_count}` }) },
      (wb) => wb.meta.status("eq-taq"),
    );
    expectContractError(error, "GET /api/v1/meta/datasets/eq-taq/status", "row_count", expect.any(String));
    for (const last_updated of ["2024-01-31T16:00:00", "2024-01-31T21:00:00Z", "2024-01-31T16:00:00.123456789-05:00"]) {
      const status = await through(
        { "/api/v1/meta/datasets/eq-taq/status": (b) => ({ ...b, last_updated }) },
        (wb) => wb.meta.status("eq-taq"),
      );
      expect((status as { last_updated: string }).last_updated).toBe(last_updated);
    }
  });
});

describe("data pages that drift from the contract", () => {
  it("a JSON page whose next offset is text names the pagination field", async () => {
    const error = await through(
      { "/api/v1/data/": (b) => ({ ...b, pagination: { ...b.pagination, next_offset: "5" } }) },
      (wb) => wb.data.eqDailyOhlc({ format: "json", pageSize: 5, maxRows: 10 }),
    );
    expectContractError(error, "GET /api/v1/data/us-equity/eq-daily-ohlc", "pagination.next_offset", "5");
  });

  it("a JSON page without its data member is refused", async () => {
    const error = await through(
      { "/api/v1/data/": (b) => ({ rows: b.data, pagination: b.pagination }) },
      (wb) => wb.data.eqDailyOhlc({ format: "json", maxRows: 3 }),
    );
    expectContractError(error, "GET /api/v1/data/us-equity/eq-daily-ohlc", "data", undefined);
  });

  it("a pagination header that is not a number names the header", async () => {
    const error = await through(
      { "/api/v1/data/": { headers: (h) => h.set("X-Pagination-Next-Offset", "later") } },
      (wb) => wb.data.eqDailyOhlc({ pageSize: 5, maxRows: 10 }),
    );
    expectContractError(error, "GET /api/v1/data/us-equity/eq-daily-ohlc (headers)", "x-pagination-next-offset", "later");
  });
});

describe("date-times in every form a service may send", () => {
  /** Rewrites every BarDateTime of a JSON page (sent as `-05:00` on these November days). */
  const rewriteTimes = (to: (t: string) => string) => ({
    "/api/v1/data/us-equity/eq-taq-1min/": (b: JsonBody) => ({
      ...b,
      data: b.data.map((r: JsonBody) => ({ ...r, BarDateTime: to(r.BarDateTime) })),
    }),
  });
  const asUtc = (t: string) => new Date(t.replace(/(\.\d{3})\d+/, "$1")).toISOString().replace(".000Z", "Z");
  const query = { format: "json" as const, filters: { TradeDate: "2023-11-21" }, columns: ["BarDateTime", "Volume"], maxRows: 50 };

  it("naive (New York), Z and offset date-times give the same instants, as JSON and as CSV", async () => {
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: KEY });
    const direct = await wb.data.eqTaq1Min("AAPL", query);
    expect(direct.height).toBe(50);
    const naive = await through(rewriteTimes((t) => t.slice(0, 19)), (w) => w.data.eqTaq1Min("AAPL", query)) as pl.DataFrame;
    const zulu = await through(rewriteTimes(asUtc), (w) => w.data.eqTaq1Min("AAPL", query)) as pl.DataFrame;
    expectSameFrame(naive, direct);
    expectSameFrame(zulu, direct);
    const first =
      zulu.select(pl.col("BarDateTime").dt.convertTimeZone("UTC").dt.strftime("%Y-%m-%dT%H:%M:%S")).getColumn("BarDateTime").toArray()[0];
    expect(first).toBe("2023-11-21T09:00:00"); // 04:00 New York
  });

  it("a CSV page of naive date-times reads them as New York time; a malformed one is still refused by name", () => {
    const columns = [{ name: "BarDateTime", data_type: "datetime_ns" as const, nullable: false }, {
      name: "Volume",
      data_type: "int64" as const,
    }];
    const csv = (rows: string[]) => new TextEncoder().encode(["BarDateTime,Volume", ...rows, ""].join("\n"));
    const forms = [
      "2023-11-21T09:30:00.000000001",
      "2023-11-21T14:30:00.000000001Z",
      "2023-11-21T09:30:00.000000001-05:00",
      "2023-11-21 09:30:00.000000001",
    ];
    const frame = pageToFrame(csv(forms.map((t) => `${t},9007199254740993`)), "csv", columns);
    const utc = frame.select(pl.col("BarDateTime").dt.convertTimeZone("UTC").dt.strftime("%Y-%m-%dT%H:%M:%S%.9f")).getColumn("BarDateTime")
      .toArray();
    expect(utc).toEqual(forms.map(() => "2023-11-21T14:30:00.000000001"));
    expect(frame.getColumn("Volume").cast(pl.String).toArray()).toEqual(forms.map(() => "9007199254740993"));
    expect(() => pageToFrame(csv(["2023-11-21T09:30:00,1", "9:30 yesterday,2"]), "csv", columns)).toThrow(
      /could not parse `9:30 yesterday`/,
    );
  });
});
