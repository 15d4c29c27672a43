/**
 * The progress stream starts at once: the first event comes before the call sends anything
 * (nothing fetched, no total, so a bar is indeterminate), and the stream then runs to done as
 * before, for a single ticker and for a universe.
 */
import { expect, it } from "vitest";
import type { ProgressEvent } from "../../workbench/mod.ts";
import { withFullAccess } from "./support/fullAccess.ts";

const local = withFullAccess();

it("reports a first event before any request is sent, indeterminate, then runs to done", async () => {
  const events: ProgressEvent[] = [];
  let sentAtFirst: number | undefined;
  const before = local.wb.transport.requestsSent;
  const bars = await local.wb.data.eqTaq1Min("AAPL", {
    date: "2023-11-21",
    onProgress: (e) => {
      sentAtFirst ??= local.wb.transport.requestsSent;
      events.push(e);
    },
  });
  expect(sentAtFirst).toBe(before);
  expect(events[0]).toMatchObject({ rows: 0, pages: 0, done: false });
  expect(events[0].percent).toBeUndefined();
  expect(events[0].expectedRows).toBeUndefined();
  expect(events.at(-1)).toMatchObject({ done: true, rows: bars.height, percent: 100 });
});

it("a universe's first event names its tickers and is indeterminate too", async () => {
  const events: ProgressEvent[] = [];
  await local.wb.data.eqTaq1Min(["AAPL", "MSFT"], { date: "2023-11-21", onProgress: (e) => events.push(e) });
  expect(events[0]).toMatchObject({ rows: 0, pages: 0, tickers: { done: 0, total: 2 } });
  expect(events[0].percent).toBeUndefined();
  expect(events.at(-1)).toMatchObject({ done: true, percent: 100 });
});
