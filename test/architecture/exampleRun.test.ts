/**
 * The JSDoc examples of the modules that work offline run, and the results their lines write
 * (`normalCdf(1); // 0.8413`) are what the lines give (scripts/exampleRun.ts,
 * scripts/exampleResults.ts). A planted example with a wrong result fails, naming its line.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resultMismatch, writesResult } from "../../scripts/exampleResults.ts";
import { instrument, runExamples } from "../../scripts/exampleRun.ts";
import { repoRoot } from "../../scripts/paths.mjs";

// Under the root, so that the planted module's example imports resolve as the others' do.
const scratch = mkdtempSync(join(repoRoot, ".scratch-example-run-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the examples of the offline modules", () => {
  it("run, and every result they write is what their line gives", async () => {
    const runs = await runExamples();
    const wrong = runs.flatMap((r) => [
      ...(r.status === "failed" ? [`${r.where}: ${r.error}`] : []),
      ...r.checks.filter((c) => c.mismatch).map((c) => `${r.where}, line ${c.line} (// ${c.written}): ${c.mismatch}`),
    ]);
    expect(wrong).toEqual([]);
    // Most of them run, and they write results to check (research formulas, the calendar, lake plans).
    expect(runs.filter((r) => r.status === "ran").length).toBeGreaterThanOrEqual(40);
    expect(runs.reduce((n, r) => n + r.checks.length, 0)).toBeGreaterThanOrEqual(50);
    expect(runs.map((r) => r.where)).toContainEqual(expect.stringMatching(/^workbench\/research\/normal\.ts:\d+ normalCdf$/));
    expect(readdirSync(repoRoot).filter((f) => f.startsWith(".example-runs-"))).toEqual([]);
  }, 120_000);

  it("a wrong written result and an example that throws fail, named; one that needs a service is not run", async () => {
    const planted = join(scratch, "planted.ts");
    writeFileSync(
      planted,
      [
        "/**",
        " * @example",
        " * ```ts",
        " * const half = twice(0.25); // 0.5",
        " * twice(2); // 5",
        " * twice(1) > 1; // true: prose after the result is not read",
        " * ```",
        " */",
        "export function twice(x: number): number {",
        "  return 2 * x;",
        "}",
        "",
        "/**",
        " * @example",
        " * ```ts",
        " * missing(1); // 1",
        " * ```",
        " */",
        "export function nope(x: number): number {",
        "  return x;",
        "}",
        "",
        "/**",
        " * @example",
        " * ```ts",
        ' * wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } }); // a frame',
        " * ```",
        " */",
        "export function needsService(): void {}",
        "",
      ].join("\n"),
    );
    const runs = await runExamples([planted]);
    expect(runs.map((r) => [r.where.replace(/^.*planted/, "planted"), r.status])).toEqual([
      ["planted.ts:9 twice", "ran"],
      ["planted.ts:19 nope", "failed"],
      ["planted.ts:29 needsService", "skipped"],
    ]);
    expect(runs[0].checks).toEqual([
      { line: 1, written: "0.5" },
      { line: 2, written: "5", mismatch: "expected 5 (0 decimals), got 4" },
      { line: 3, written: "true: prose after the result is not read" },
    ]);
    expect(runs[1].error).toMatch(/^ReferenceError: missing is not defined/);
  }, 120_000);
});

describe("a result written after a line", () => {
  it("is a literal at the start of the comment; prose is not a result", () => {
    expect(["3", '"10 GiB"', "[1, 2, ...]", "{ units: 8, pages: 1 }", "null", "≈0.76", "0.19527: deltas straddle 0.5"].map(writesResult))
      .toEqual(Array(7).fill(true));
    expect(["ClosePrice before the ex date", "Date", "2023-11-20T00:00:00.000Z", "QueryError: Unknown option"].map(writesResult)).toEqual(
      Array(4).fill(false),
    );
  });

  it("holds a number to its written digits, a list or a string with ... as a prefix, an object's named fields", () => {
    expect(resultMismatch("0.3989", 0.3989422804014327)).toBeUndefined();
    expect(resultMismatch("0.39894", 0.3989422804014327)).toBeUndefined();
    expect(resultMismatch("0.3988", 0.3989422804014327)).toBe("expected 0.3988 (4 decimals), got 0.3989422804014327");
    expect(resultMismatch("0.237824...", 0.23782379955061525)).toBeUndefined();
    expect(resultMismatch("101.2150943...", 101.21509414184877)).toMatch(/^expected 101.2150943\.\.\./);
    expect(resultMismatch('"SQ was renamed ..."', "SQ was renamed XYZ")).toBeUndefined();
    expect(resultMismatch('"SQ"', "SQ was renamed XYZ")).toBe('expected "SQ", got "SQ was renamed XYZ"');
    expect(resultMismatch('["2023-12-22", ...]', ["2023-12-22", "2023-12-29"])).toBeUndefined();
    expect(resultMismatch('["2023-12-22"]', ["2023-12-22", "2023-12-29"])).toMatch(/^expected 1 items, got 2/);
    expect(resultMismatch("{ units: 8, pages: 1 }", { units: 8, pages: 2, extra: true })).toBe("expected 1 at .pages (0 decimals), got 2");
    expect(resultMismatch("[{ strike: 95, vol: 0.3 }]", [{ strike: 95, vol: 0.3 }])).toBeUndefined();
  });

  it("turns each top-level line that writes a result into a check of that line's value", () => {
    expect(instrument("const x = f(1); // 3\nf(2); g(3); // [1]\n  nested(4); // 4\nf(5); // prose")).toBe(
      'const x = f(1); __check(1, "3", x);\nf(2); __check(2, "[1]", (g(3)));\n  nested(4); // 4\nf(5); // prose',
    );
  });
});
