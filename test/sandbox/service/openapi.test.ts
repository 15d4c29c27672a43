/**
 * /openapi.json is generated from the routes' zod descriptions: a valid OpenAPI 3.1 document
 * (checked with @seriousme/openapi-schema-validator), nulls written the 3.1 way (never 3.0's
 * `nullable`), advertising only what can succeed (like/ilike on text columns only, no empty
 * column lists), and matching what the service answers (every answer of this suite is
 * checked against it: support/contractCheck.ts), the 405 of a method no route serves and the
 * 414 of a request target too long for the HTTP server included. Against the sandbox's app
 * in-process; the real 405 and 414 answers, which need a socket (a method `fetch` will not send,
 * a target too long for the HTTP server), are checked against it in smoke.test.ts.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../sandbox/market/catalog.ts";
import { ContractCheck } from "./support/contractCheck.ts";
import { type AppSandbox, openAppSandbox } from "./support/appSandbox.ts";

/** A node of the OpenAPI document: untyped on purpose, as the tests walk it freely. */
// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

describe("/openapi.json", () => {
  let sb: AppSandbox;
  let doc: Json;
  beforeAll(async () => {
    sb = await openAppSandbox();
    doc = await (await sb.get("/openapi.json")).json();
  });
  afterAll(() => sb.stop());

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("writes nulls as 3.1 does: no `nullable`, and nullable columns accept null", () => {
    expect(JSON.stringify(doc)).not.toContain('"nullable":true');
    const bars = doc.components.schemas["Record_eq-taq-1min"].properties;
    const minutes = DATASETS.find((d) => d.textId === "eq-taq-1min")!;
    for (const column of minutes.columns) {
      const text = JSON.stringify(bars[column.name]);
      expect(text.includes('"null"'), column.name).toBe(column.nullable);
    }
    const next = JSON.stringify(doc.components.schemas.Pagination.properties.next_offset);
    expect(next).toContain('"null"');
  });

  it("offers like/ilike only on text columns, and column lists that cannot be empty", () => {
    for (const dataset of DATASETS) {
      const path = Object.keys(doc.paths).find((p) => new RegExp(`/${dataset.textId}(/|$)`).test(p))!;
      const names = new Set((doc.paths[path].get.parameters as Json[]).map((p) => p.name));
      for (const column of dataset.columns) {
        expect(names.has(column.name)).toBe(true);
        for (const op of ["like", "ilike"]) {
          expect(names.has(`${column.name}.${op}`), `${dataset.textId} ${column.name}.${op}`).toBe(column.type === "string");
        }
      }
      const columns = (doc.paths[path].get.parameters as Json[]).find((p) => p.name === "columns")!;
      expect(columns.schema).toMatchObject({ minLength: 1 });
      expect(new RegExp(columns.schema.pattern).test("")).toBe(false);
      expect(new RegExp(columns.schema.pattern).test("Ticker,")).toBe(false);
    }
  });

  it("documents the quota headers of data answers", () => {
    const headers = doc.paths["/api/v1/data/us-equity/eq-daily-ohlc"].get.responses["200"].headers;
    for (
      const name of [
        "RateLimit-Limit",
        "RateLimit-Remaining",
        "RateLimit-Reset",
        "X-Quota-Monthly-Requests-Remaining",
        "X-Quota-Monthly-Returned-Bytes-Remaining",
        "X-Quota-Warning",
      ]
    ) {
      expect(headers[name]?.description, name).toMatch(/./);
    }
  });

  it("is what every answer of this suite is checked against, and the check catches a body that does not match", async () => {
    const check = ContractCheck.of(sb.baseUrl)!;
    const before = check.report().checked;
    await (await sb.get("/api/v1/account/my", "demo-full-access")).text();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(check.report().checked).toBe(before + 1);
    const probe = await ContractCheck.load(sb.baseUrl, false, sb.fetch);
    probe.record(
      "GET",
      "/api/v1/account/my",
      200,
      "application/json",
      JSON.stringify({ identity_id: "one", name: "x", max_active_api_keys: 5, ip_subnets: [] }),
    );
    probe.record(
      "GET",
      "/api/v1/data/us-equity/eq-daily-ohlc",
      200,
      "application/json",
      JSON.stringify({ data: [{ ClosePrice: "1" }], pagination: { offset: 0, limit: 1, next_offset: null } }),
    );
    probe.record(
      "GET",
      "/api/v1/data/us-equity/eq-daily-ohlc",
      200,
      "application/json",
      JSON.stringify({ data: [{ TradeDate: "2023-11-21", DailyVWAP: null }], pagination: { offset: 0, limit: 1, next_offset: null } }),
    );
    probe.record("GET", "/api/v1/account/my", 418, "application/json", "{}");
    const { failures } = probe.report();
    expect(failures).toHaveLength(3);
    expect(failures[0]).toContain("identity_id");
    expect(failures[1]).toContain("ClosePrice");
    expect(failures[2]).toContain("418 is not documented");
  });

  it("describes a 405 with Allow for every other method on every route, and a 414 for every GET", () => {
    const notAllowed = doc.components.responses.MethodNotAllowed;
    expect(notAllowed.headers.Allow.description).toMatch(/GET, HEAD/);
    expect(notAllowed.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/HTTPError" });
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      expect(item.get.responses["414"]?.description, path).toMatch(/65,534 bytes/);
      for (const method of ["post", "put", "delete", "patch", "options", "trace"]) {
        expect(item[method]?.responses, `${method} ${path}`).toEqual({ 405: { $ref: "#/components/responses/MethodNotAllowed" } });
        expect(item[method].security, `${method} ${path}`).toEqual([]);
        const inPath = ((item.get.parameters ?? []) as Json[]).filter((p) => p.in === "path");
        expect(item[method].parameters ?? [], `${method} ${path}`).toEqual(inPath);
      }
    }
  });

  it("answers like/ilike on a non-text column with 422, as the document leads a client to expect", async () => {
    const r = await sb.get("/api/v1/data/us-equity/eq-daily-ohlc?ClosePrice.like=1*", "demo-full-access");
    expect(r.status).toBe(422);
    expect((await r.json()).detail[0].msg).toBe("Operator 'like' needs a text column; 'ClosePrice' is float64");
  });
});
