/**
 * A query's work stops, not only its answer (issue 40): the steps of a query over many files
 * (query/batches.ts) run under its control (query/control.ts), so once the budget passes, the
 * client goes or the frames held pass the ceiling, no further step starts. And a large answer
 * whose client takes nothing of it fails after the time-out (net/bodyGuard.ts), which makes
 * the server close the connection. Unit tests, on the test market's files.
 */
import pl from "nodejs-polars";
import { describe, expect, inject, it } from "vitest";
import { datasetByTextId } from "../../../sandbox/market/catalog.ts";
import { batches, collectInBatches, firstInOrder } from "../../../sandbox/service/query/batches.ts";
import { QueryControl } from "../../../sandbox/service/query/control.ts";
import { HttpError } from "../../../sandbox/service/errors.ts";
import { fileScan } from "../../../sandbox/service/query/fileScans.ts";
import { indexDatasetFiles, type MarketFile } from "../../../sandbox/service/query/marketFiles.ts";
import { cutAll, guardBody } from "../../../sandbox/service/net/bodyGuard.ts";

/** The test market's tick files: one a ticker and day, several dozen. */
const TICKS = () => indexDatasetFiles(inject("tinyMarketDir"), datasetByTextId("eq-taq"));
const fakeFiles = (sizes: number[]): MarketFile[] => sizes.map((bytes, i) => ({ path: `f${i}`, bytes, partition: {} }));
const read = (batch: MarketFile[]) =>
  pl.concat(batch.map(fileScan), { how: "vertical" }).select("Ticker", "EventDateTime", "EventType", "Price", "Quantity");
const statusOf = (p: Promise<unknown>) => p.then(() => 200, (e) => (e instanceof HttpError ? e.status : 0));

describe("a query's steps", () => {
  it("cut files into batches of at most 16 files and 8 MiB, a larger file alone", () => {
    expect(batches(fakeFiles(Array(40).fill(1000))).map((b) => b.length)).toEqual([16, 16, 8]);
    const mib = 2 ** 20;
    expect(batches(fakeFiles([3 * mib, 3 * mib, 3 * mib, 20 * mib, mib])).map((b) => b.length)).toEqual([2, 1, 1, 1]);
    expect(batches([])).toEqual([]);
  });

  it("give the rows of one collect of every file, in file order", async () => {
    const files = TICKS().slice(0, 40);
    expect(batches(files).length).toBeGreaterThan(2);
    const control = new QueryControl(600_000, 2 ** 30);
    const stepped = await collectInBatches(files, read, control);
    const whole = await read(files).collect();
    expect(stepped.height).toBe(whole.height);
    // Row by row: the same rows in the same order (a running sum of each row's position-weighted price).
    const digest = (f: pl.DataFrame) => f.select(pl.col("Price").mul(pl.intRange(0, f.height)).sum()).getColumn("Price").get(0);
    expect(digest(stepped)).toBe(digest(whole));
    expect(control.heldBytes).toBeGreaterThan(0);
  });

  it("give the first rows in order of one sort of every row", async () => {
    const files = TICKS().slice(0, 40);
    const order = {
      columns: ["Quantity", "Ticker", "EventDateTime", "EventType", "Price"],
      descending: [true, false, false, false, false],
    };
    const stepped = await firstInOrder(files, read, order, 250, new QueryControl(600_000, 2 ** 30));
    const whole = await read(files).sort(order.columns, order.descending).head(250).collect();
    expect(stepped.toRecords()).toEqual(whole.toRecords());
  });

  it("stop once the budget has passed: no further step starts, and the answer is 504", async () => {
    const files = TICKS();
    let steps = 0;
    const control = new QueryControl(50, 2 ** 30);
    const slowRead = (batch: MarketFile[]) => {
      steps++;
      // Each step outlasts the whole budget.
      const until = performance.now() + 80;
      while (performance.now() < until) { /* busy */ }
      return read(batch);
    };
    expect(await statusOf(collectInBatches(files, slowRead, control))).toBe(504);
    expect(steps).toBe(1);
  });

  it("stop when the client has gone: nothing runs, and the answer is 499", async () => {
    let steps = 0;
    const gone = new AbortController();
    gone.abort();
    const control = new QueryControl(600_000, 2 ** 30, gone.signal);
    expect(await statusOf(collectInBatches(TICKS(), (b) => (steps++, read(b)), control))).toBe(499);
    expect(steps).toBe(0);
  });

  it("stop at the step whose rows pass the memory ceiling: 504", async () => {
    let steps = 0;
    const control = new QueryControl(600_000, 100_000);
    expect(await statusOf(collectInBatches(TICKS(), (b) => (steps++, read(b)), control))).toBe(504);
    expect(steps).toBe(1);
  });
});

describe("a large answer's body", () => {
  const body = (bytes: number) => new Response(new Uint8Array(bytes)).body!;

  it("comes in slices of at most 256 KiB, all of it, to a reader that keeps reading", async () => {
    const reader = guardBody(body(1_000_000), 1000).getReader();
    const sizes: number[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) sizes.push(next.value.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1_000_000);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(256 * 1024);
  });

  it("fails when its reader takes nothing for the time-out", async () => {
    const reader = guardBody(body(1_000_000), 100).getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(reader.read()).rejects.toThrow(/took nothing of the answer for too long/);
  });

  it("fails when the sandbox stops and the grace period is over (cutAll)", async () => {
    const reader = guardBody(body(1_000_000), 60_000).getReader();
    await reader.read();
    expect(cutAll()).toBeGreaterThanOrEqual(1);
    await expect(reader.read()).rejects.toThrow();
    expect(cutAll()).toBe(0);
  });
});
