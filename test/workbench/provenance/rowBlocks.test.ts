/**
 * Row blocks locate where two frames first differ: the exact row for frames of up to 256
 * rows, the first differing block's range for longer ones, nothing when they cannot tell.
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { firstDifference, rowBlocks } from "../../../workbench/provenance/rowBlocks.ts";

const frame = (n: number, change?: number) =>
  pl.DataFrame({
    Ticker: Array.from({ length: n }, (_, i) => (i % 2 ? "AAPL" : "MSFT")),
    Price: Float64Array.from({ length: n }, (_, i) => (i === change ? 1e6 : 100 + i / 8)),
  });

describe("rowBlocks", () => {
  it("names the first differing row of a short frame", () => {
    expect(rowBlocks(frame(10)).size).toBe(1);
    expect(rowBlocks(frame(10)).digests).toHaveLength(10);
    expect(firstDifference(rowBlocks(frame(10)), rowBlocks(frame(10, 2)))).toBe("row 3");
    expect(firstDifference(rowBlocks(frame(10)), rowBlocks(frame(10)))).toBeUndefined();
  });

  it("names the first differing block of a long frame, in at most 256 blocks", () => {
    const blocks = rowBlocks(frame(1000));
    expect(blocks.size).toBe(4);
    expect(blocks.digests).toHaveLength(250);
    expect(firstDifference(blocks, rowBlocks(frame(1000, 498)))).toBe("rows 497-500");
  });

  it("is the same for the same rows however they are chunked, and says nothing across block sizes", () => {
    const whole = frame(600);
    const chunked = pl.concat([whole.slice(0, 250), whole.slice(250, 350)], { rechunk: false, how: "vertical" });
    expect(rowBlocks(chunked).digests).toEqual(rowBlocks(whole.slice(0, 600)).digests);
    expect(firstDifference(rowBlocks(frame(100)), rowBlocks(frame(600)))).toBeUndefined();
    expect(firstDifference(undefined, rowBlocks(frame(3)))).toBeUndefined();
    expect(rowBlocks(frame(0)).digests).toEqual([]);
  });
});
