/**
 * Small pages cut from a query's written whole result: the store's page cutting gives what
 * writing each page alone gives, CSV and JSON, first, middle, last and past-the-end pages, and
 * the bytes sit in shared memory. That a walk whose pages land on different workers gets the
 * same bytes as a sandbox with the caches off is checked over real HTTP in frameCache.test.ts,
 * beside the other walks compared with that sandbox.
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { csvPage, jsonPage, rowCount, writeResult } from "../../../sandbox/service/query/writtenResults.ts";

describe("pages cut from written results", () => {
  const frame = pl.DataFrame({ Ticker: ["A", "B", "C", "D", "E"], Price: [1.5, null, 3.25, 4, 5], Size: [10, 20, null, 40, 50] });
  const csv = writeResult("test\u0000csv", () => frame.writeCSV(), 1);
  const json = writeResult("test\u0000json", () => frame.writeJSON({ format: "lines" }), 0);
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  // The last four start at or past the end, or run past it: only the rows that exist, none past the end.
  const pages: [number, number][] = [[0, 2], [2, 2], [4, 1], [0, 5], [5, 0], [5, 3], [6, 0], [4, 10], [2 ** 32 - 2, 100]];

  it("counts the rows, not the header", () => {
    expect(rowCount(csv)).toBe(5);
    expect(rowCount(json)).toBe(5);
  });

  for (const [from, rows] of pages) {
    it(`cuts ${rows} row(s) from row ${from} as writing them alone does`, () => {
      const alone = frame.slice(from, rows);
      expect(text(csvPage(csv, from, rows))).toBe(text(alone.writeCSV()));
      const open = new TextEncoder().encode('{"data":');
      const close = new TextEncoder().encode("}");
      const page = JSON.parse(text(jsonPage(json, from, rows, open, close)));
      expect(page.data).toEqual(alone.height === 0 ? [] : JSON.parse(text(alone.writeJSON({ format: "json" }))));
    });
  }

  it("keeps the bytes in shared memory, so other workers can take them without a copy", () => {
    expect(csv.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(csv.starts.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});
