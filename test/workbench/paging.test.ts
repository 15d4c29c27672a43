/**
 * How the pager walks a long query, seen from the wire: a loopback proxy in front of the real
 * sandbox records when each request arrives and can hold a body back or cap `limit`, as a
 * slow network or a stricter service would.
 */
import type pl from "nodejs-polars";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connect } from "../../workbench/mod.ts";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";
import { expectSameFrame } from "./support/frames.ts";
import { marketFrame } from "./support/market.ts";
import { Buffer } from "node:buffer";

// ODFL's ticks of one day (6,680 rows with seed 42 today; TICK_ROWS reads them from the files).
const DAY = "2023-11-21", TICKER = "ODFL";
/** The day's ticks of the ticker as the market files hold them (the answer a fetch must equal). */
const TICK_ROWS = marketFrame(inject("tinyMarketDir"), "eq-taq", `TradeDate=${DAY}/Ticker=${TICKER}.parquet`).height;

interface Proxy {
  baseUrl: string;
  /** Offsets of data requests in arrival order, with the time each arrived and each body ended. */
  log: { offset: number; limit: number; arrived: number; bodyEnded?: number }[];
  close: () => Promise<void>;
}

/**
 * A proxy to `upstream`. `capLimit` lowers every data request's limit (the answer then holds
 * fewer rows than the client asked for, with the matching next offset); `holdFirstBodyMs`
 * sends the first data answer's headers at once and its body that much later.
 */
async function startProxy(upstream: string, options: { capLimit?: number; holdFirstBodyMs?: number }): Promise<Proxy> {
  const log: Proxy["log"] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, upstream);
    const isData = url.pathname.startsWith("/api/v1/data/");
    const entry = isData
      ? { offset: Number(url.searchParams.get("offset")), limit: Number(url.searchParams.get("limit")), arrived: performance.now() }
      : undefined;
    if (entry) log.push(entry);
    if (isData && options.capLimit !== undefined) {
      url.searchParams.set("limit", String(Math.min(options.capLimit, Number(url.searchParams.get("limit")))));
    }
    const hold = entry && log.length === 1 ? options.holdFirstBodyMs ?? 0 : 0;
    const upstreamRequest = request(url, { headers: { ...req.headers, host: url.host } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      res.flushHeaders();
      const chunks: Buffer[] = [];
      answer.on("data", (c: Buffer) => chunks.push(c));
      answer.on("end", () =>
        setTimeout(() => {
          if (entry) entry.bodyEnded = performance.now();
          res.end(Buffer.concat(chunks));
        }, hold));
    });
    upstreamRequest.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let sb: TestSandbox;
let reference: pl.DataFrame;

beforeAll(async () => {
  sb = await startSandbox();
  const wb = await connect({ baseUrl: sb.baseUrl, apiKey: "demo-full-access" });
  reference = await wb.data.eqTaq(DAY, TICKER, { pageSize: 100_000 });
  expect(reference.height).toBe(TICK_ROWS);
});
afterAll(() => sb?.stop());

describe("paging over the wire", () => {
  it("the following pages are asked for as soon as the first answer's headers arrive, before its body", async () => {
    const proxy = await startProxy(sb.baseUrl, { holdFirstBodyMs: 600 });
    try {
      const wb = await connect({ baseUrl: proxy.baseUrl, apiKey: "demo-full-access" });
      const got = await wb.data.eqTaq(DAY, TICKER, { pageSize: 2000, concurrency: 3 });
      expectSameFrame(got, reference);
      const [first, ...rest] = proxy.log;
      expect(first.offset).toBe(0);
      expect(rest.slice(0, 3).map((e) => e.offset)).toEqual([2000, 4000, 6000]);
      // The body of page one was held 600 ms; pages two to four were already on their way.
      for (const e of rest.slice(0, 3)) expect(e.arrived).toBeLessThan(first.bodyEnded!);
    } finally {
      await proxy.close();
    }
  });

  it("a service that answers fewer rows than asked (capping limit) still gives every row once, in order", async () => {
    const proxy = await startProxy(sb.baseUrl, { capLimit: 700 });
    try {
      const wb = await connect({ baseUrl: proxy.baseUrl, apiKey: "demo-full-access" });
      for (const format of ["csv", "json"] as const) {
        const got = await wb.data.eqTaq(DAY, TICKER, { pageSize: 2000, concurrency: 4, format });
        expectSameFrame(got, reference);
      }
      // Every short page had the rest of its range asked again: offsets 700 and 1400 after 0.
      const offsets = new Set(proxy.log.map((e) => e.offset));
      for (const offset of [0, 700, 1400, 2000, 2700, 3400]) expect(offsets.has(offset)).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it("maxRows asks for no row past the ones wanted, even with the pages started early", async () => {
    const proxy = await startProxy(sb.baseUrl, {});
    try {
      const wb = await connect({ baseUrl: proxy.baseUrl, apiKey: "demo-full-access" });
      const got = await wb.data.eqTaq(DAY, TICKER, { pageSize: 1000, concurrency: 4, maxRows: 2500 });
      expectSameFrame(got, reference.head(2500));
      expect(proxy.log.map((e) => [e.offset, e.limit])).toEqual([[0, 1000], [1000, 1000], [2000, 500]]);
    } finally {
      await proxy.close();
    }
  });
});
