/**
 * The key and a base URL's password, kept (under Node; the Deno kernel's side is
 * test/notebooks/noSecrets.test.ts): a workbench and its transport inspect, print and serialise
 * without them; a password in the base URL is sent as HTTP Basic authorization and is in no URL,
 * message or stack; a service that echoes the key in an error has it masked; a failed call's
 * provenance record carries neither; cache entries are keyed by an HMAC under the local secret,
 * never by a digest of the key alone, and entries an older workbench keyed that way are removed.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Transport } from "../../workbench/http/transport.ts";
import { connect, InvalidApiKeyError, WorkbenchError } from "../../workbench/mod.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";
import { Buffer } from "node:buffer";

const KEY = "demo-full-access";
const PASSWORD = `pw-${randomBytes(6).toString("hex")}`;
let sb: AppSandbox;
let scratch: string;

beforeAll(async () => {
  sb = await openAppSandbox();
  scratch = mkdtempSync(join(tmpdir(), "wb-secrets-"));
});
afterAll(async () => {
  await sb?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** Everything a researcher could print of `value`. */
const shown = (value: unknown) =>
  [inspect(value, { depth: 30, showHidden: true, getters: true }), String(value), JSON.stringify(value) ?? ""].join("\n");

describe("a workbench shows no key", () => {
  it("inspected, printed and serialised, with its transport, API objects and cache", async () => {
    const wb = await connect({
      baseUrl: `http://alice:${PASSWORD}@sandbox.test`,
      fetch: sb.fetch,
      apiKey: KEY,
      cache: join(scratch, "shown"),
    });
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      console.log(wb, wb.transport);
      const text = [
        shown(wb),
        shown(wb.transport),
        shown(wb.account),
        shown(wb.data),
        shown(wb.cache),
        ...log.mock.calls.flat().map((v) => inspect(v)),
      ].join("\n");
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(PASSWORD);
      expect(inspect(wb)).toBe(
        `Workbench { service: "http://sandbox.test", cache: ${JSON.stringify(join(scratch, "shown"))}, recording: true, requestsSent: 0 }`,
      );
      expect(String(wb)).toBe("Workbench(http://sandbox.test)");
      expect(wb.transport.options).not.toHaveProperty("apiKey");
    } finally {
      log.mockRestore();
    }
  });
});

describe("a password in the base URL", () => {
  it("is sent as Basic authorization, never in the URL asked", async () => {
    const seen: Request[] = [];
    const fetch = (input: Request | URL | string, init?: RequestInit) => {
      seen.push(new Request(input, init));
      return sb.fetch(input, init);
    };
    const wb = await connect({ baseUrl: `http://alice:${PASSWORD}@sandbox.test`, fetch, apiKey: KEY });
    expect((await wb.account.identity()).name).toBe("Demo full access");
    expect(seen[0].url).toBe("http://sandbox.test/api/v1/account/my");
    expect(seen[0].headers.get("Authorization")).toBe(`Basic ${Buffer.from(`alice:${PASSWORD}`).toString("base64")}`);
    expect(seen[0].headers.get("X-API-KEY")).toBe(KEY);
  });

  it("is in no message, URL, stack or inspection of an error, nor in the provenance record of the failed call", async () => {
    const wb = await connect({ baseUrl: `http://alice:${PASSWORD}@127.0.0.1:1`, apiKey: KEY, retries: 0 });
    const error = await wb.data.eqDailyOhlc("AAPL", { start: "2023-11-20", end: "2023-11-21" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkbenchError);
    const e = error as WorkbenchError;
    expect(e.message).toMatch(/^Cannot reach the service at http:\/\/127\.0\.0\.1:1\/api\/v1\//);
    expect([e.message, e.url, e.stack, inspect(e, { showHidden: true, depth: 10 })].join("\n")).not.toContain(PASSWORD);
    const manifest = JSON.stringify(wb.provenance());
    expect(manifest).toContain('"name":"ServiceUnreachableError"');
    expect(manifest).not.toContain(PASSWORD);
    await expect(connect({ baseUrl: `ftp://alice:${PASSWORD}@files.example.com`, apiKey: KEY })).rejects.toThrow(
      "Base URL 'ftp://files.example.com' is not an http(s) address",
    );
  });
});

describe("a service that echoes the key", () => {
  it("has it masked in the error's message, detail and the provenance record", async () => {
    const echo = (input: Request | URL | string, init?: RequestInit) => {
      const key = new Request(input, init).headers.get("X-API-KEY");
      return Promise.resolve(Response.json({ detail: `Invalid API key ${key}` }, { status: 401 }));
    };
    const wb = await connect({ baseUrl: `http://alice:${PASSWORD}@sandbox.test`, fetch: echo, apiKey: KEY, quotaGuard: false });
    const error = await wb.transport.get("/api/v1/account/my").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidApiKeyError);
    expect((error as WorkbenchError).message).toBe("Invalid API key *** (401): GET /api/v1/account/my");
    expect(inspect(error, { depth: 10 })).not.toContain(KEY);
    const failed = await wb.data.eqDailyOhlc("AAPL", { start: "2023-11-20", end: "2023-11-21" }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(WorkbenchError);
    expect(JSON.stringify(wb.provenance())).not.toContain(KEY);
  });
});

describe("cache entries keyed without a digest of the key alone", () => {
  const oldDigest = (baseUrl: string, key: string) => createHash("sha256").update(`${baseUrl}\n${key}`).digest("hex").slice(0, 16);

  it("an entry's scope is an HMAC under the local secret: no digest of the key, another secret another scope", async () => {
    const dir = join(scratch, "keyed");
    const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: KEY, cache: dir });
    await wb.data.eqDailyOhlc("AAPL", { start: "2023-11-20", end: "2023-11-21" });
    const entries = readdirSync(dir).filter((f) => f.endsWith(".provenance.json")).map((f) => readFileSync(join(dir, f), "utf8"));
    expect(entries).toHaveLength(1);
    const scope = JSON.parse(entries[0]).scope as string;
    expect(scope).toMatch(/^[0-9a-f]{32}$/);
    expect(entries[0]).not.toContain(oldDigest(sb.baseUrl, KEY));
    expect(entries[0]).not.toContain(createHash("sha256").update(KEY).digest("hex").slice(0, 16));
    const transport = new Transport({ baseUrl: sb.baseUrl, apiKey: KEY });
    const [a, b] = [randomBytes(32), randomBytes(32)];
    expect(transport.keyedScope(a)).not.toBe(transport.keyedScope(b));
    expect(transport.keyedScope(a)).toBe(new Transport({ baseUrl: sb.baseUrl, apiKey: KEY }).keyedScope(a));
    expect(transport.keyedScope(a)).not.toBe(new Transport({ baseUrl: sb.baseUrl, apiKey: "demo-restricted" }).keyedScope(a));
  });

  it("entries an older workbench keyed by a digest of the key are removed with their frames, said once, and fetched again", async () => {
    const dir = join(scratch, "older");
    mkdirSync(dir);
    for (const name of ["eq-daily-ohlc-0123456789abcdef0123456789abcdef", "eq-taq-1min-fedcba9876543210fedcba9876543210"]) {
      writeFileSync(join(dir, `${name}.parquet`), "frame");
      writeFileSync(
        join(dir, `${name}.provenance.json`),
        JSON.stringify({ version: 1, scope: oldDigest(sb.baseUrl, KEY), dataset: "eq-daily-ohlc" }),
      );
    }
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: KEY, cache: dir });
      await wb.data.eqDailyOhlc("AAPL", { start: "2023-11-20", end: "2023-11-21" });
      await wb.data.eqDailyOhlc("MSFT", { start: "2023-11-20", end: "2023-11-21" });
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
        `Warning: removed 2 cached frames from '${dir}' that an older workbench keyed by a digest of the API key; they are fetched again when asked for`,
      ]);
    } finally {
      warn.mockRestore();
    }
    const left = readdirSync(dir).join("\n");
    expect(left).not.toContain("0123456789abcdef");
    expect(left).not.toContain("fedcba9876543210");
    expect(readdirSync(dir).filter((f) => f.endsWith(".parquet"))).toHaveLength(2); // the two calls, cached anew
  });
});

describe("wb.summary()", () => {
  it("names the service, identity, datasets and quota; a service that does not answer makes a problem within seconds, not a hang", async () => {
    const wb = await connect({ baseUrl: `http://alice:${PASSWORD}@sandbox.test`, fetch: sb.fetch, apiKey: KEY });
    const s = await wb.summary();
    expect(s).toMatchObject({ service: "http://sandbox.test", identity: { id: 1, name: "Demo full access" }, recording: true });
    expect(s.datasets).toContain("eq-taq-1min");
    expect(s.quotas?.quotas_limit.monthly_requests).toBeGreaterThan(0);
    expect(JSON.stringify(s)).not.toContain(KEY);
    const silent = await connect({ baseUrl: "http://silent.test", fetch: () => new Promise<Response>(() => {}), apiKey: KEY });
    const started = Date.now();
    const answer = await silent.summary();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer).toMatchObject({ service: "http://silent.test", problem: "no answer within 5 s" });
    expect(answer.identity).toBeUndefined();
  });
});
