/**
 * What a user pastes or runs type-checks like source files, in ONE `deno check` (each check
 * resolves the whole workbench's types first, which is most of its cost; scripts/typeCheck.ts):
 * - every ```ts block in the JSDoc of what the public modules (workbench/mod.ts,
 *   kernel-helpers/mod.ts, notebook.ts) export (scripts/exampleTypes.ts); a planted wrong
 *   example and a planted unfenced one fail;
 * - every project notebook and recipe, its code cells joined into one module
 *   (scripts/notebookTypes.ts); a notebook with a planted wrong annotation fails, the error
 *   naming its cell and line.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Example, exampleBlocks, exampleCheck, type ExampleTypes } from "../../scripts/exampleTypes.ts";
import { makeNotebook } from "../../scripts/jupyter.mjs";
import { notebookCheck, type NotebookTypes, projectNotebooks } from "../../scripts/notebookTypes.ts";
import { repoRoot } from "../../scripts/paths.mjs";
import { typeCheck, typeErrors } from "../../scripts/typeCheck.ts";

const scratch = mkdtempSync(join(tmpdir(), "type-check-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A module whose JSDoc holds a fine example, a wrong one and an unfenced one. */
function plantedModule(): string {
  const module = join(scratch, "planted.ts");
  writeFileSync(
    module,
    [
      "/**",
      " * Fine: it uses the preamble's `wb` and `pl` and imports from the root.",
      " *",
      " * @example",
      " * ```ts",
      ' * import { tradingDays } from "./workbench/mod.ts";',
      ' * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });',
      ' * daily.filter(pl.col("ClosePrice").gt(100)).height + tradingDays("2023-11-20", "2023-11-24").length;',
      " * ```",
      " */",
      "export function fine(): void {}",
      "",
      "/**",
      " * Wrong on its second line.",
      " *",
      " * @example",
      " * ```ts",
      ' * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });',
      " * const rows: string = daily.height;",
      " * ```",
      " */",
      "export function wrong(): void {}",
      "",
      "/**",
      " * Its example is not fenced, so nothing could check it.",
      " *",
      " * @example",
      " * unfenced(1);",
      " */",
      "export function unfenced(): void {}",
      "",
    ].join("\n"),
  );
  return module;
}

/** A notebook with a wrong annotation in its second cell, and a fine one. */
function plantedNotebooks(): string[] {
  const planted = join(scratch, "planted.ipynb");
  writeFileSync(
    planted,
    JSON.stringify(makeNotebook([
      `import { connect } from "${repoRoot}/workbench/mod.ts";\nconst wb = await connect({ baseUrl: "http://127.0.0.1:1", apiKey: "k" });`,
      `const rows = 3;\nconst n: number = "x";`,
    ])),
  );
  const fine = join(scratch, "fine.ipynb");
  writeFileSync(fine, JSON.stringify(makeNotebook([`const n: number = 1;\nn`])));
  return [planted, fine];
}

const paths = projectNotebooks();
let checked: Promise<{
  examples: Example[];
  results: ExampleTypes[];
  planted: Example[];
  plantedResults: ExampleTypes[];
  notebooks: NotebookTypes[];
  plantedNotebooks: NotebookTypes[];
}>;
beforeAll(() => {
  checked = (async () => {
    const [examples, planted] = await Promise.all([exampleBlocks(), exampleBlocks([plantedModule()])]);
    const [all, notebooks] = await typeCheck(
      await exampleCheck([...examples, ...planted]),
      notebookCheck([...paths, ...plantedNotebooks()]),
    );
    return {
      examples,
      results: all.slice(0, examples.length),
      planted,
      plantedResults: all.slice(examples.length),
      notebooks: notebooks.slice(0, paths.length),
      plantedNotebooks: notebooks.slice(paths.length),
    };
  })();
  // A failure is reported by the tests that await it.
  checked.catch(() => {});
});

describe("the public API's examples", () => {
  it("every ```ts example in the JSDoc of the public modules type-checks", async () => {
    const { examples, results } = await checked;
    // The module docs and the main entry points are among them.
    const places = examples.map((e) => e.where);
    for (
      const expected of [
        /^notebook\.ts:1 \(module\)$/,
        /^workbench\/mod\.ts:1 \(module\)$/,
        /^workbench\/client\.ts:\d+ connect$/,
        /^workbench\/api\/data\.ts:\d+ DataApi\.eqTaq1Min$/,
        /^kernel-helpers\/charts\/timeSeries\.ts:\d+ timeSeriesChart$/,
      ]
    ) {
      expect(places).toContainEqual(expect.stringMatching(expected));
    }
    expect(results.filter((r) => r.errors.length > 0).map((r) => `${r.where}: ${r.errors.join("; ")}`)).toEqual([]);
    // The modules written for the check are removed after it.
    expect(readdirSync(repoRoot).filter((f) => f.startsWith(".examples-"))).toEqual([]);
  }, 600_000);

  it("a wrong example fails, naming its symbol and its line; the preamble and root-relative imports work", async () => {
    const { planted, plantedResults } = await checked;
    expect(planted.map((e) => e.where.replace(/^.*planted/, "planted"))).toEqual([
      "planted.ts:11 fine",
      "planted.ts:22 wrong",
      "planted.ts:30 unfenced",
    ]);
    const [fine, wrong, unfenced] = plantedResults;
    expect(fine.errors).toEqual([]);
    expect(wrong.errors).toEqual([expect.stringMatching(/^line 2: Type 'number' is not assignable to type 'string'/)]);
    expect(unfenced.errors).toEqual([expect.stringMatching(/^an @example without a ```ts block/)]);
  }, 600_000);
});

describe("notebooks", () => {
  it("every notebook and recipe type-checks", async () => {
    expect(paths.map((p) => relative(repoRoot, p))).toEqual(
      expect.arrayContaining(["notebooks/quickstart.ipynb", "recipes/intraday-spread.ipynb"]),
    );
    const { notebooks } = await checked;
    expect(notebooks.filter((r) => r.errors.length > 0)).toEqual([]);
    // The joined modules are removed after the check.
    expect(readdirSync(join(repoRoot, "recipes")).filter((f) => f.startsWith(".typecheck-"))).toEqual([]);
  }, 600_000);

  it("a wrong annotation in a notebook fails the check, naming the cell and line", async () => {
    const [bad, good] = (await checked).plantedNotebooks;
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0]).toMatch(/^cell 2, line 2: Type 'string' is not assignable to type 'number'/);
    expect(good.errors).toEqual([]);
  }, 600_000);
});

describe("one check's output shared out among its sets", () => {
  it("gives each error to the module it names, and tells apart errors in modules they import", () => {
    const output = [
      "TS2322 [ERROR]: Type 'string' is not assignable to type 'number'.",
      'const n: number = "x";',
      "      ^",
      "    at file:///r/a/.typecheck-one.ts:7:7",
      "",
      "TS2304 [ERROR]: Cannot find name 'nope'.",
      "    at file:///r/workbench/client.ts:12:3",
      "",
      "TS2322 [ERROR]: Type 'number' is not assignable to type 'string'.",
      "    at file:///r/.examples-1-1/example3.ts:4:7",
      "",
      "error: Type checking failed.",
    ].join("\n");
    const { errors, elsewhere } = typeErrors(output, [
      "/r/a/.typecheck-one.ts",
      "/r/.examples-1-1/example3.ts",
      "/r/.examples-1-1/example4.ts",
    ]);
    expect(Object.fromEntries(errors)).toEqual({
      "/r/a/.typecheck-one.ts": [{ file: "/r/a/.typecheck-one.ts", line: 7, message: "Type 'string' is not assignable to type 'number'." }],
      "/r/.examples-1-1/example3.ts": [{
        file: "/r/.examples-1-1/example3.ts",
        line: 4,
        message: "Type 'number' is not assignable to type 'string'.",
      }],
    });
    expect(elsewhere).toEqual(["Cannot find name 'nope'. (/r/workbench/client.ts:12)"]);
  });
});
