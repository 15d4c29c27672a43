/**
 * No request can make the sandbox work without bound (issue 40): an `in` list is a set lookup
 * (1,000 values answered within seconds, with Polars' rows), longer lists and longer request
 * targets are refused with a 422 naming the limit, a filter given twice is refused, a query
 * past its memory ceiling or its budget is stopped with 504, and one whose client has gone is
 * stopped without counting. Against the sandbox's app in-process; the last part runs a spawned
 * sandbox on one worker to show other users served meanwhile and the memory it takes.
 */
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { datasetByTextId } from "../../../sandbox/market/catalog.ts";
import { type AppSandbox, openAppSandbox } from "./support/appSandbox.ts";
import { readDataset } from "./support/polarsExpected.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

const KEY = "demo-full-access";
const DAILY = "/api/v1/data/us-equity/eq-daily-ohlc";

/** The values of a list, joined for an `in` filter. */
const list = (values: readonly (string | number)[]) => values.join(",");

/** `n` DailyVolume values: every other volume of the market, then made-up ones (which match nothing). */
function volumes(n: number): { values: number[]; matching: Set<number> } {
  const all = readDataset(inject("tinyMarketDir"), datasetByTextId("eq-daily-ohlc")).getColumn("DailyVolume").toArray() as number[];
  const matching = new Set(all.filter((_, i) => i % 2 === 0));
  const values = [...matching];
  for (let v = 1; values.length < n; v++) if (!all.includes(v)) values.push(v);
  return { values, matching };
}

interface Issue {
  type: string;
  loc: (string | number)[];
  msg: string;
  ctx?: Record<string, unknown>;
}

describe("bounded queries, in-process", () => {
  let sb: AppSandbox;
  beforeAll(async () => {
    sb = await openAppSandbox();
  });
  afterAll(() => sb.stop());

  it("answers an 'in' list of 1,000 values within seconds, with the rows whose value is in the list", async () => {
    const { values, matching } = volumes(1000);
    expect(values).toHaveLength(1000);
    const started = performance.now();
    const r = await sb.get(
      `${DAILY}?DailyVolume.in=${list(values)}&columns=Ticker,TradeDate,DailyVolume&limit=100000&response_format=csv`,
      KEY,
    );
    const elapsed = performance.now() - started;
    expect(r.status).toBe(200);
    const page = pl.readCSV(await r.text());
    const expected = readDataset(inject("tinyMarketDir"), datasetByTextId("eq-daily-ohlc")).filter(
      pl.col("DailyVolume").isIn([...matching]),
    );
    expect(page.height).toBe(expected.height);
    expect(page.getColumn("DailyVolume").toArray()).toEqual(expected.getColumn("DailyVolume").toArray());
    // A chain of 1,000 `eq` took minutes here (a set lookup is one pass over the rows).
    expect(elapsed).toBeLessThan(20_000);
  });

  it("refuses an 'in' list of 1,001 values with pydantic's too_long naming the limit of 1,000", async () => {
    const r = await sb.get(`${DAILY}?Ticker.in=${list(Array(1001).fill("A"))}`, KEY);
    expect(r.status).toBe(422);
    const { detail } = await r.json() as { detail: Issue[] };
    expect(detail).toEqual([expect.objectContaining({
      type: "too_long",
      loc: ["query", "Ticker.in"],
      msg: "List should have at most 1000 items after validation, not 1001",
      ctx: { field_type: "List", max_length: 1000, actual_length: 1001 },
    })]);
  });

  it("refuses a 10,000-value list at once: its request target is past the limit of 16,384 bytes", async () => {
    const started = performance.now();
    const r = await sb.get(`${DAILY}?DailyVolume.in=${list(Array.from({ length: 10_000 }, (_, i) => i + 1))}`, KEY);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(r.status).toBe(422);
    const { detail } = await r.json() as { detail: Issue[] };
    expect(detail).toHaveLength(1);
    expect(detail[0]).toMatchObject({ type: "string_too_long", loc: ["query"], ctx: { max_length: 16_384 } });
    expect(detail[0].msg).toMatch(/at most 16384 bytes, not 4\d{4}/);
  });

  it("takes a request target of 16,384 bytes, and refuses one of 16,385", async () => {
    const target = (bytes: number) => {
      const head = `${DAILY}?limit=1&Ticker=`;
      return `${head}${"A".repeat(bytes - head.length)}`;
    };
    expect(target(16_384)).toHaveLength(16_384);
    expect((await sb.get(target(16_384), KEY)).status).toBe(200);
    const r = await sb.get(target(16_385), KEY);
    expect(r.status).toBe(422);
    expect((await r.json()).detail[0].msg).toMatch(/at most 16384 bytes, not 16385/);
  });

  it("refuses a filter given twice, naming it and its count: 1,000 or 2,000 repetitions cost nothing", async () => {
    const started = performance.now();
    const repeated = (n: number) => sb.get(`${DAILY}?${Array(n).fill("Ticker.in=AAPL").join("&")}`, KEY);
    const [thousand, twoThousand] = [await repeated(1000), await repeated(2000)];
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(thousand.status).toBe(422);
    const { detail } = await thousand.json() as { detail: Issue[] };
    expect(detail[0]).toMatchObject({ type: "value_error", loc: ["query", "Ticker.in"] });
    expect(detail[0].msg).toBe(
      "Parameter 'Ticker.in' is given 1000 times; give it once (several values go in one 'in' list, ranges in 'ge' and 'le')",
    );
    // 2,000 of them are past the request target's limit, refused before anything else.
    expect(twoThousand.status).toBe(422);
    expect((await twoThousand.json()).detail[0].type).toBe("string_too_long");
    const twice = await sb.get(`${DAILY}?Ticker=AAPL&Ticker=MSFT`, KEY);
    expect(twice.status).toBe(422);
    expect(JSON.stringify(await twice.json())).toMatch(/Parameter 'Ticker' is given 2 times/);
  });

  it("refuses a like pattern of more than 256 characters, and reads a run of wildcards as one", async () => {
    const long = await sb.get(`${DAILY}?Ticker.like=${"A".repeat(257)}`, KEY);
    expect(long.status).toBe(422);
    expect((await long.json()).detail).toEqual([
      expect.objectContaining({ type: "string_too_long", loc: ["query", "Ticker.like"], msg: "String should have at most 256 characters" }),
    ]);
    // 256 wildcards in a row were 256 `.*` for the regex engine (16,000 passed its size limit: a 500).
    const stars = await sb.get(`${DAILY}?Ticker.ilike=a${"*".repeat(255)}&columns=Ticker&limit=100000&response_format=csv`, KEY);
    expect(stars.status).toBe(200);
    const tickers = new Set(pl.readCSV(await stars.text()).getColumn("Ticker").toArray());
    expect([...tickers].sort()).toEqual(["AAPL"]);
  });

  it("documents the limits in /openapi.json: the 422 answer and each 'in' parameter", async () => {
    const doc = await (await sb.get("/openapi.json")).json();
    const daily = doc.paths["/api/v1/data/us-equity/eq-daily-ohlc"].get;
    expect(daily.responses["422"].description).toMatch(/more than 1000 values \(too_long\)/);
    expect(daily.responses["422"].description).toMatch(/longer than 16384 bytes \(string_too_long/);
    expect(daily.responses["422"].description).toMatch(/given more than once/);
    const tickerIn = daily.parameters.find((p: { name: string }) => p.name === "Ticker.in");
    expect(tickerIn.description).toMatch(/at most 1000 values/);
  });
});

describe("queries stopped by their ceiling, their budget or their client", () => {
  const BIG = "/api/v1/data/us-equity/eq-taq-1min/AAPL?limit=100000";

  it("stops a query whose frames pass the memory ceiling with 504, and counts nothing", async () => {
    const sb = await openAppSandbox({ settings: { queryMemoryMb: 1 } });
    try {
      const r = await sb.get(BIG, "demo-restricted");
      expect(r.status).toBe(504);
      expect(await r.json()).toEqual({ detail: "Gateway timeout" });
      expect((await sb.get(`${DAILY}?Ticker=AAPL&limit=1`, KEY)).status).toBe(200);
      const quotas = await (await sb.get("/api/v1/account/my/quotas", "demo-restricted")).json();
      expect(quotas.quotas_usage.monthly_requests).toBe(0);
    } finally {
      await sb.stop();
    }
  });

  it("stops a query past its budget with 504", async () => {
    const sb = await openAppSandbox({ settings: { queryBudgetMs: 1 } });
    try {
      // The first step of the query already ends past one millisecond.
      const r = await sb.get("/api/v1/data/us-equity/eq-taq-1min/AAPL?limit=100000&sort=-Volume", KEY);
      expect(r.status).toBe(504);
    } finally {
      await sb.stop();
    }
  });

  it("stops a query whose client has gone, and counts nothing", async () => {
    const sb = await openAppSandbox();
    try {
      const gone = new AbortController();
      gone.abort();
      const r = await sb.fetch(`${sb.baseUrl}${BIG}`, { headers: { "X-API-KEY": "demo-restricted" }, signal: gone.signal });
      expect(r.status).toBe(499);
      const quotas = await (await sb.get("/api/v1/account/my/quotas", "demo-restricted")).json();
      expect(quotas.quotas_usage.monthly_requests).toBe(0);
    } finally {
      await sb.stop();
    }
  });
});

describe("bounded queries on a spawned sandbox with one worker", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.stop());

  /** Resident megabytes of the sandbox process at its peak so far (VmHWM). */
  const peakMb = async () => {
    const { readFileSync } = await import("node:fs");
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${sb.pid}/status`, "utf8"))![1]) / 1024;
  };

  it("answers 1,000 values and refuses 10,000 within seconds, serving others meanwhile, in bounded memory", async () => {
    await sb.get(`${DAILY}?Ticker=AAPL&limit=1`, KEY);
    const before = await peakMb();
    const probes: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const started = performance.now();
        const r = await fetch(`${sb.baseUrl}/api/v1/account/my`, {
          headers: { "X-API-KEY": "demo-restricted" },
          signal: AbortSignal.timeout(10_000),
        });
        await r.arrayBuffer();
        probes.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const { values } = volumes(1000);
    const timed = async (path: string) => {
      const started = performance.now();
      const r = await fetch(`${sb.baseUrl}${path}`, { headers: { "X-API-KEY": KEY }, signal: AbortSignal.timeout(30_000) });
      await r.arrayBuffer();
      return { status: r.status, ms: performance.now() - started };
    };
    const thousand = await timed(`${DAILY}?DailyVolume.in=${list(values)}`);
    const tenThousand = await timed(`${DAILY}?DailyVolume.in=${list(Array.from({ length: 10_000 }, (_, i) => i + 1))}`);
    probing = false;
    await probe;
    expect(thousand.status).toBe(200);
    expect(thousand.ms).toBeLessThan(20_000);
    expect(tenThousand.status).toBe(422);
    expect(tenThousand.ms).toBeLessThan(5_000);
    // Every probe of another user was answered (none waited out its 10 s).
    expect(probes.length).toBeGreaterThan(0);
    // The sandbox grew by little: a chain of `eq` took hundreds of megabytes, and more with each value.
    expect(await peakMb() - before).toBeLessThan(150);
  }, 120_000);
});
