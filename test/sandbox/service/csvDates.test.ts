/**
 * A CSV page whose dates and date-times the CSV writer formats (render.ts, for less CPU than
 * making their text first) is byte for byte the page written from their text (temporalAsText,
 * as a whole result and a JSON page are): New York offsets, nanosecond
 * and millisecond precision side by side in one page (opt-greeks-daily), lists.
 */
import pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { afterAll, describe, expect, inject, it } from "vitest";
import { type Dataset, datasetByTextId } from "../../../sandbox/market/catalog.ts";
import { markTemporalAsText, renderPage, temporalAsText } from "../../../sandbox/service/query/render.ts";
import { readDataset } from "./support/polarsExpected.ts";

const dir = inject("tinyMarketDir");
const pagination = { offset: 0, limit: 100_000, next_offset: null };

/** The CSV body of a page rendered from its typed frame, and from the same frame with its temporal columns as text. */
function bothWays(frame: pl.DataFrame, dataset: Dataset): [string, string] {
  const body = (f: pl.DataFrame) => Buffer.concat(renderPage(f, dataset, "csv", pagination).chunks).toString("utf8");
  const texted = markTemporalAsText(frame.withColumns(...temporalAsText(frame.columns, dataset)));
  return [body(frame), body(texted)];
}

const pages = new Map<string, { frame: pl.DataFrame; written: string; fromText: string }>();
// Let go of them with the file: test processes run file after file.
afterAll(() => pages.clear());
/** A dataset's files under `under`, read and rendered both ways once for the tests that look at them. */
function rendered(textId: string, under: string): { frame: pl.DataFrame; written: string; fromText: string } {
  const key = `${textId} ${under}`;
  if (!pages.has(key)) {
    const dataset = datasetByTextId(textId);
    const frame = readDataset(dir, dataset, under);
    const [written, fromText] = bothWays(frame, dataset);
    pages.set(key, { frame, written, fromText });
  }
  return pages.get(key)!;
}

describe("a CSV page's dates and date-times written by the CSV writer", () => {
  for (
    const [textId, under] of [["eq-taq-1min", "aggregation_logic=core"], ["opt-greeks-daily", ""], ["eq-taq", "TradeDate=2023-11-21"], [
      "opt-sec-master",
      "",
    ]] as const
  ) {
    it(`are the bytes of their text for ${textId}`, () => {
      const { frame, written, fromText } = rendered(textId, under);
      expect(frame.height).toBeGreaterThan(0);
      expect(written.length).toBeGreaterThan(1000);
      expect(written === fromText, `${textId}: the CSV differs from the one written from text`).toBe(true);
    });
  }

  it("carries both precisions", () => {
    const bars = rendered("eq-taq-1min", "aggregation_logic=core").written;
    expect(bars).toMatch(/T\d\d:\d\d:00\.000000000-05:00,/);
    const csv = rendered("opt-greeks-daily", "").written;
    expect(csv).toMatch(/T\d\d:\d\d:\d\d\.\d{3}-0[45]:00,/);
    expect(csv).toMatch(/T\d\d:\d\d:\d\d\.\d{9}-0[45]:00,/);
  });
});
