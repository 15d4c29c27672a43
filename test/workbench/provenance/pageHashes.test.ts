/**
 * The recorder hashes each page's rows as the page arrives and lays the pages end to end; the
 * recorded hash must be the hash of the frame returned, whatever the paging did: small pages
 * asked concurrently, a `maxRows` cut inside a page, and pages halved after 504s, dropped
 * connections, 503s and 429s (the sandbox's fault injection, over real HTTP from a spawned
 * sandbox; the rest from its app in-process); and the page assembly itself on hand-made
 * pages (out of order, short, past the end, a gap).
 */
import pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, frameHash } from "../../../workbench/mod.ts";
import { PageHashes } from "../../../workbench/provenance/pageHashes.ts";
import { rowHashBytes } from "../../../workbench/provenance/rowHashes.ts";
import { type AppSandbox, openAppSandbox } from "../../sandbox/service/support/appSandbox.ts";
import { startSandbox } from "../../sandbox/service/support/sandbox.ts";

/** Retries that do not wait: these cases check the rows and request counts under faults, not the clock (test/workbench/waits.test.ts checks the waits). */
const instantWaits = { sleep: () => Promise.resolve(), backoffDelay: () => 0 };
const DAY = "2023-11-21", TICKER = "ODFL";
let clean: AppSandbox;
let reference: pl.DataFrame;
beforeAll(async () => {
  clean = await openAppSandbox();
  reference = await (await connect({ baseUrl: clean.baseUrl, fetch: clean.fetch, apiKey: "demo-full-access" })).data.eqTaq(DAY, TICKER);
});
afterAll(() => clean?.stop());

/** One recorded fetch from `service` (its own `fetch`, or HTTP): the frame and the hash its call was recorded with. */
async function recorded(service: { baseUrl: string; fetch?: AppSandbox["fetch"] }, query: Record<string, unknown>) {
  const wb = await connect({
    baseUrl: service.baseUrl,
    ...(service.fetch ? { fetch: service.fetch } : {}),
    apiKey: "demo-full-access",
    provenance: true,
    retries: 12,
    waits: instantWaits,
  });
  const frame = await wb.data.eqTaq(DAY, TICKER, query);
  const call = wb.provenance().calls.at(-1)!;
  return { frame, call };
}

describe("the hash of a call recorded page by page is the hash of its frame", () => {
  it("small pages at concurrency 4, and a maxRows cut inside a page", async () => {
    const whole = await recorded(clean, { pageSize: 100, concurrency: 4 });
    expect(whole.call.pages).toBeGreaterThan(50);
    expect(whole.call.frameHash).toBe(frameHash(reference));
    const cut = await recorded(clean, { pageSize: 100, concurrency: 4, maxRows: 1234 });
    expect(cut.frame.height).toBe(1234);
    expect(cut.call.frameHash).toBe(frameHash(reference.head(1234)));
  });

  it("pages halved after 504s and retried after faults (sandbox fault injection)", async () => {
    const faulty = await startSandbox({ args: ["--faults", "7,0.1,0.1,0.1,0.05"] });
    try {
      const { frame, call } = await recorded({ baseUrl: faulty.baseUrl }, { pageSize: 100, concurrency: 4 });
      expect(frame.height).toBe(reference.height);
      expect(call.frameHash).toBe(frameHash(reference));
      expect(call.frameHash).toBe(frameHash(frame));
    } finally {
      await faulty.stop();
    }
  });
});

describe("PageHashes", () => {
  const frame = (n: number) =>
    pl.DataFrame({ Ticker: Array.from({ length: n }, (_, i) => `T${i % 7}`), Price: Float64Array.from({ length: n }, (_, i) => i / 8) });
  const bytes = (f: pl.DataFrame) => Buffer.from(rowHashBytes(f)).toString("hex");

  it("lays pages that arrived out of order end to end, with a short page's rest asked again, and cuts to the frame", () => {
    const whole = frame(1000);
    const hashes = new PageHashes();
    const onPage = (offset: number, page: pl.DataFrame) => hashes.page(0, offset, page);
    // Pages of 300 asked concurrently; the one at 300 came back short (240 rows) and its rest was asked again.
    onPage(600, whole.slice(600, 300));
    onPage(0, whole.slice(0, 300));
    onPage(900, whole.slice(900, 100));
    onPage(300, whole.slice(300, 240));
    onPage(540, whole.slice(540, 60));
    onPage(1000, whole.slice(1000, 0)); // past the end: empty
    const cut = whole.head(950); // maxRows 950
    hashes.unitDone(0, cut);
    expect(hashes.fromPages).toBe(1);
    expect(Buffer.from(hashes.of(cut, 1)).toString("hex")).toBe(bytes(cut));
  });

  it("hashes the frame itself when its pages do not cover it (a cache hit, a gap)", () => {
    const whole = frame(500);
    const hashes = new PageHashes();
    hashes.page(0, 0, whole.slice(0, 200)); // the page at 200 never came; unit 1: a cache hit, no page at all
    hashes.unitDone(0, whole);
    hashes.unitDone(1, whole.head(10));
    expect(hashes.fromPages).toBe(0);
    const both = pl.concat([whole, whole.head(10)]);
    expect(Buffer.from(hashes.of(both, 2)).toString("hex")).toBe(bytes(both));
    expect(Buffer.from(hashes.of(whole, 2)).toString("hex")).toBe(bytes(whole)); // units that do not make up the frame
  });
});
