/**
 * A data route's query schema validates only the parameters a request gives (api/params.ts,
 * presentKeysOnly), for speed: its answers must be zod's own parse of the whole object, for
 * every dataset, valid and invalid values, repeated parameters and names that are not
 * parameters (including Object.prototype's).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DATASETS } from "../../../sandbox/market/catalog.ts";
import { dataRoute } from "../../../sandbox/service/api/routes.ts";

/** A parse result in comparable form: the data (bigints as text) or the issues, sorted. */
function comparable(result: { success: boolean; data?: unknown; error?: z.ZodError }): string {
  const value = result.success ? { data: result.data } : {
    issues: result.error!.issues.map((i) =>
      JSON.stringify({ path: i.path, message: i.message, fastapi: (i as { params?: unknown }).params }, bigints)
    ).sort(),
  };
  return JSON.stringify(value, bigints);
}
const bigints = (_key: string, v: unknown) => (typeof v === "bigint" ? `${v}n` : v);

const VALUES = [
  "2023-11-22",
  "2023-11-40",
  "AAPL",
  "AAPL,MSFT",
  "0x10",
  " 170 ",
  "170",
  "-5",
  "1.5",
  "abc",
  "",
  "2023-11-22T09:30:00-05:00",
  "A*",
  "csv",
  "json",
  "xml",
  "-Volume,Ticker",
];
const STRANGE = ["constructor", "__proto__", "toString", "hasOwnProperty", "Nope", "Volume.like"];

describe("validating the given parameters only", () => {
  for (const dataset of DATASETS) {
    it(`answers as zod's parse of the whole object for ${dataset.textId}`, async () => {
      const fast = dataRoute(dataset).request!.query as unknown as z.ZodObject;
      const whole = z.object(fast.shape);
      const names = [...Object.keys(fast.shape), ...STRANGE];
      const value = fc.oneof(
        fc.constantFrom(...VALUES),
        fc.array(fc.constantFrom(...VALUES), { minLength: 2, maxLength: 3 }),
        fc.string({ maxLength: 6 }),
      );
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 6 }), async (input) => {
          expect(comparable(await fast.safeParseAsync(input))).toBe(comparable(await whole.safeParseAsync(input)));
        }),
        { numRuns: 150 },
      );
    });
  }
});
