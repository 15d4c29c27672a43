/**
 * The caches change how fast an answer comes, never the answer: walks served from decoded
 * files are byte-identical to walks with the caches off, and so is a walk whose small pages,
 * cut from a query's written whole result shared between workers, land on different workers
 * (fresh connections, so the kernel spreads them). The cache keeps to its budget, least
 * recently used out first. Over real HTTP, one sandbox without caches the reference for both.
 */
import { Buffer } from "node:buffer";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { datasetByTextId } from "../../../sandbox/market/catalog.ts";
import { cachedFrames, FrameCache, windowFrames } from "../../../sandbox/service/query/frameCache.ts";
import { indexDatasetFiles } from "../../../sandbox/service/query/marketFiles.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

const dir = inject("tinyMarketDir");
let cached: TestSandbox, uncached: TestSandbox, shared: TestSandbox, small: TestSandbox;

beforeAll(async () => {
  [cached, uncached, shared, small] = await Promise.all([
    startSandbox(),
    startSandbox({ env: { SANDBOX_FRAME_CACHE_MB: "0" } }),
    startSandbox({ args: ["--workers", "2"] }),
    // Room for about one decoded day of the tiny market's minute bars: a page's window of
    // several days is read partly decoded, partly from disk.
    startSandbox({ env: { SANDBOX_FRAME_CACHE_MB: "10" } }),
  ]);
});
afterAll(() => Promise.all([cached, uncached, shared, small].map((s) => s?.stop())));

it("says at start that the reference sandbox's caches are off", () => {
  expect(uncached.stdout).toContain("caches: off (SANDBOX_FRAME_CACHE_MB=0)");
});

/** Every page body of a walk, in order. */
async function walk(sb: TestSandbox, path: string, limit: number, format = "csv"): Promise<string[]> {
  const bodies: string[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const r = await sb.get(
      `${path}${path.includes("?") ? "&" : "?"}offset=${offset}&limit=${limit}&response_format=${format}`,
      "demo-full-access",
    );
    expect(r.status).toBe(200);
    bodies.push(await r.text());
    const next = r.headers.get("X-Pagination-Next-Offset");
    offset = next ? Number(next) : null;
  }
  return bodies;
}

describe("answers with and without the cache", () => {
  const walks: [string, string, number][] = [
    ["a long default-order walk of minute bars (windows of many files)", "/api/v1/data/us-equity/eq-taq-1min/AAPL", 1500],
    [
      "a filtered walk with chosen columns",
      "/api/v1/data/us-equity/eq-taq-1min/MSFT?TradeDate.ge=2023-11-22&Volume.gt=2000&columns=BarDateTime,Volume,CloseBidPrice",
      97,
    ],
    ["a sorted walk over a few files", "/api/v1/data/us-equity/eq-daily-ohlc?sort=-DailyVolume,Ticker&TradeDate.le=2023-11-22", 7],
    ["ticks of one ticker-day", "/api/v1/data/us-equity/eq-taq/2023-11-21/HES", 2500],
    // Small pages of a query over decoded files are cut from its cached whole result and its written lines.
    ["100-row pages of one ticker-day", "/api/v1/data/us-equity/eq-taq-1min/SPY?TradeDate=2023-11-21", 100],
    ["a list column (List(String), a JSON array in one CSV field)", "/api/v1/data/us-equity-opt-ref/opt-sec-master", 5],
  ];
  for (const [name, path, limit] of walks) {
    for (const format of limit <= 1000 ? ["csv", "json"] : ["csv"]) {
      it(`${name}, ${format}: byte-identical pages, twice over (cold, then warm)`, async () => {
        const reference = await walk(uncached, path, limit, format);
        expect(reference.length).toBeGreaterThan(1);
        expect(await walk(cached, path, limit, format)).toEqual(reference);
        expect(await walk(cached, path, limit, format)).toEqual(reference);
      });
    }
  }
});

describe("windows larger than the cache", () => {
  for (const limit of [1500, 4000]) {
    it(`a default-order walk of minute bars in ${limit}-row pages, read partly decoded and partly from disk: byte-identical pages, twice over`, async () => {
      const path = "/api/v1/data/us-equity/eq-taq-1min/AAPL";
      const reference = await walk(uncached, path, limit);
      expect(reference.length).toBeGreaterThan(1);
      expect(await walk(small, path, limit)).toEqual(reference);
      expect(await walk(small, path, limit)).toEqual(reference);
    });
  }
});

describe("a walk spread over two workers", () => {
  for (const format of ["csv", "json", "csv_gzip"]) {
    it(`gets the uncached sandbox's pages, ${format}, whichever worker answers`, async () => {
      const path = "/api/v1/data/us-equity/eq-taq-1min/MSFT?TradeDate=2023-11-22&limit=50&response_format=" + format;
      const workers = new Set<string | null>();
      let pages = 0;
      for (let offset: number | null = 0; offset !== null; pages++) {
        const [a, b]: Response[] = await Promise.all([
          shared.get(`${path}&offset=${offset}`, "demo-full-access", { Connection: "close" }),
          uncached.get(`${path}&offset=${offset}`, "demo-full-access"),
        ]);
        expect(a.status).toBe(200);
        workers.add(a.headers.get("X-Sandbox-Worker"));
        const [bodyA, bodyB] = await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
        // Compared as buffers: an element-by-element toEqual of such bodies cost seconds of
        // CPU. Only bodies that differ go to toEqual, for its report of where.
        if (!Buffer.from(bodyA).equals(Buffer.from(bodyB))) expect(new Uint8Array(bodyA)).toEqual(new Uint8Array(bodyB));
        expect(a.headers.get("X-Pagination-Next-Offset")).toBe(b.headers.get("X-Pagination-Next-Offset"));
        const next: string | null = a.headers.get("X-Pagination-Next-Offset");
        offset = next ? Number(next) : null;
      }
      expect(pages).toBeGreaterThan(5);
      expect(workers.size).toBe(2);
    });
  }
});

describe("FrameCache", () => {
  const files = indexDatasetFiles(dir, datasetByTextId("eq-taq-1min")).slice(0, 3);

  it("holds a decoded file equal to the file, and shares a load in flight", async () => {
    const cache = new FrameCache(2 ** 30);
    const [a, b] = [cache.get(files[0]), cache.get(files[0])];
    expect(a).toBe(b);
    expect((await a).frameEqual(pl.readParquet(files[0].path), true)).toBe(true);
    expect(cache.usedBytes).toBeGreaterThan(0);
  });

  it("keeps to its budget, the least recently used file out first", async () => {
    const probe = new FrameCache(2 ** 30);
    await probe.get(files[0]);
    const oneFile = probe.usedBytes;
    const cache = new FrameCache(Math.floor(oneFile * 2.5)); // room for two files of this size
    await cache.get(files[0]);
    await cache.get(files[1]);
    await cache.get(files[0]); // now the most recent
    await cache.get(files[2]);
    expect(cache.holds(files[0])).toBe(true);
    expect(cache.holds(files[1])).toBe(false);
    expect(cache.holds(files[2])).toBe(true);
    expect(cache.usedBytes).toBeLessThanOrEqual(cache.budgetBytes);
  });

  it("decodes a window that fits whole, and learns from a decoded file what the next ones take", async () => {
    const cache = new FrameCache(2 ** 30);
    expect(cache.estimatedBytes(files[1], "eq-taq-1min")).toBe(0); // nothing decoded yet: taken to fit
    const frames = await windowFrames(files, 3, "eq-taq-1min", cache);
    expect([...frames!.keys()]).toEqual(files.map((f) => f.path));
    const held = cache.usedBytes;
    const perByte = held / files.reduce((sum, f) => sum + f.bytes, 0);
    const other = { ...files[0], path: `${files[0].path}.other`, bytes: 1000 };
    expect(cache.estimatedBytes(other, "eq-taq-1min")).toBeGreaterThanOrEqual(Math.floor(perByte * 1000));
    expect(cache.estimatedBytes(other, "eq-taq")).toBe(0);
  });

  it("keeps a window larger than its budget from evicting its own files: holds those it has, decodes what fits beside them", async () => {
    const probe = new FrameCache(2 ** 30);
    await probe.get(files[0], "eq-taq-1min");
    const oneFile = probe.estimatedBytes(files[0], "eq-taq-1min");
    const cache = new FrameCache(Math.floor(oneFile * 2.5)); // room for two files of this size
    await cache.get(files[2], "eq-taq-1min");
    expect(cache.admit(files, "eq-taq-1min")).toEqual([files[0], files[2]]);
    const frames = await windowFrames(files, 3, "eq-taq-1min", cache);
    expect([...frames!.keys()]).toEqual([files[0].path, files[2].path]);
    expect(cache.holds(files[1])).toBe(false);
    // The next page of the walk meets the same files held, and decodes nothing more.
    expect(cache.admit(files, "eq-taq-1min")).toEqual([files[0], files[2]]);
    expect(cache.usedBytes).toBeLessThanOrEqual(cache.budgetBytes);
  });

  it("is skipped for more files than a query may cache and when its budget is 0", async () => {
    const cache = new FrameCache(2 ** 30);
    expect(await cachedFrames(files, 2, cache)).toBeUndefined();
    expect(await cachedFrames(files, 3, new FrameCache(0))).toBeUndefined();
    const frames = await cachedFrames(files, 3, cache);
    expect([...frames!.keys()]).toEqual(files.map((f) => f.path));
  });
});
