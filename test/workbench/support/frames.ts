/**
 * Frame comparisons for workbench tests: same columns in the same order, the same dtypes
 * (time zone and precision included) and the same values, nulls equal to nulls.
 */
import { expect } from "vitest";
import type pl from "nodejs-polars";

/** A dtype as text such as `Datetime(ns,America/New_York)` or `List(String)`. */
export const typeText = (dtype: unknown): string => {
  const s = String(dtype);
  return s.startsWith("DataType(") ? typeText(s.slice(9, -1)) : s.replace(/DataType\((\w+)\)/g, "$1");
};

/** Column name and dtype, as text such as `BarDateTime: Datetime(ns,America/New_York)`. */
export const schemaOf = (frame: pl.DataFrame): string[] => frame.columns.map((name, i) => `${name}: ${typeText(frame.dtypes[i])}`);

/** Asserts `actual` equals `expected` in schema and values (null equals null). */
export function expectSameFrame(actual: pl.DataFrame, expected: pl.DataFrame): void {
  expect(schemaOf(actual)).toEqual(schemaOf(expected));
  expect(actual.height).toBe(expected.height);
  if (!actual.frameEqual(expected, true)) {
    // Name the first differing column, so a failure says where to look.
    const differing = expected.columns.find((c) => !actual.getColumn(c).seriesEqual(expected.getColumn(c), true));
    expect.fail(
      `frames differ in column ${differing}: got ${actual.select(differing!).head(3)} expected ${expected.select(differing!).head(3)}`,
    );
  }
}
