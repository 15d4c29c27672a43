/**
 * The public API is documented and its examples compile: `deno doc --lint` finds nothing on
 * workbench/mod.ts, kernel-helpers/mod.ts and notebook.ts, and every ```ts block in the JSDoc
 * of what they export type-checks (scripts/exampleTypes.ts). A planted undocumented export, a
 * planted wrong example and a planted unfenced one fail the same checks.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkExampleTypes, type Example, exampleBlocks, type ExampleTypes, PUBLIC_MODULES } from "../../scripts/exampleTypes.ts";
import { denoPath, repoRoot } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";

const scratch = mkdtempSync(join(tmpdir(), "docs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * `deno doc --lint` of some modules in one process: its exit status, the errors it names
 * (`kind: file:line: message`) and the count it reports (`Found N documentation lint errors`).
 */
async function docLint(modules: string[]): Promise<{ status: number | null; errors: string[]; found: number }> {
  const result = await run(denoPath(), ["doc", "--lint", ...modules], { cwd: repoRoot, env: { ...process.env, NO_COLOR: "1", RUST_BACKTRACE: "0" } });
  const errors = [...result.stderr.matchAll(/^error\[([\w-]+)\]: (.*)\n\s+--> (\S+)/gm)].map((m) => `${m[1]}: ${m[3].replace(`${repoRoot}/`, "")}: ${m[2]}`);
  const found = Number(/Found (\d+) documentation lint errors?/.exec(result.stderr)?.[1] ?? 0);
  return { status: result.status, errors, found };
}

describe("the public API's docs", () => {
  // One lint of the public modules and a planted undocumented one together (a deno process
  // each cost several times one for all): the planted error must be the only one reported.
  const lint = (() => {
    const planted = join(scratch, "undocumented.ts");
    writeFileSync(planted, "/** Documented. */\nexport const a = 1;\nexport function b(): number {\n  return 2;\n}\n");
    return docLint([...PUBLIC_MODULES, planted]);
  })();
  const PLANTED = /^missing-jsdoc: .*undocumented\.ts:3:1: exported symbol is missing JSDoc/;

  it(`deno doc --lint of ${PUBLIC_MODULES.join(", ")} finds nothing`, async () => {
    const { errors, found } = await lint;
    expect(errors.filter((e) => !PLANTED.test(e))).toEqual([]);
    expect(found).toBe(1); // deno's own count: the planted error alone, parsed or not
  }, 120_000);

  it("an undocumented export fails the lint, named with its file and line", async () => {
    const { status, errors } = await lint;
    expect(status).not.toBe(0);
    expect(errors).toEqual([expect.stringMatching(PLANTED)]);
  }, 120_000);
});

describe("the public API's examples", () => {
  /**
   * One `deno check` for the public modules' examples and the planted ones together: the
   * workbench's types are resolved once (a check of its whole graph is the costly part).
   */
  let checked: Promise<{ examples: Example[]; results: ExampleTypes[]; planted: Example[]; plantedResults: ExampleTypes[] }>;
  beforeAll(() => {
    checked = (async () => {
      const module = join(scratch, "planted.ts");
      writeFileSync(module, [
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
      ].join("\n"));
      const [examples, planted] = await Promise.all([exampleBlocks(), exampleBlocks([module])]);
      const all = await checkExampleTypes([...examples, ...planted]);
      return { examples, results: all.slice(0, examples.length), planted, plantedResults: all.slice(examples.length) };
    })();
    // A failure is reported by the tests that await it.
    checked.catch(() => {});
  });

  it("every ```ts example in the JSDoc of the public modules type-checks", async () => {
    const { examples, results } = await checked;
    // The module docs and the main entry points are among them.
    const places = examples.map((e) => e.where);
    for (const expected of [/^notebook\.ts:1 \(module\)$/, /^workbench\/mod\.ts:1 \(module\)$/, /^workbench\/client\.ts:\d+ connect$/, /^workbench\/api\/data\.ts:\d+ DataApi\.eqTaq1Min$/, /^kernel-helpers\/charts\/timeSeries\.ts:\d+ timeSeriesChart$/]) {
      expect(places).toContainEqual(expect.stringMatching(expected));
    }
    expect(results.filter((r) => r.errors.length > 0).map((r) => `${r.where}: ${r.errors.join("; ")}`)).toEqual([]);
    // The modules written for the check are removed after it.
    expect(readdirSync(repoRoot).filter((f) => f.startsWith(".examples-"))).toEqual([]);
  }, 600_000);

  it("a wrong example fails, naming its symbol and its line; the preamble and root-relative imports work", async () => {
    const { planted, plantedResults } = await checked;
    expect(planted.map((e) => e.where.replace(/^.*planted/, "planted"))).toEqual(["planted.ts:11 fine", "planted.ts:22 wrong", "planted.ts:30 unfenced"]);
    const [fine, wrong, unfenced] = plantedResults;
    expect(fine.errors).toEqual([]);
    expect(wrong.errors).toEqual([expect.stringMatching(/^line 2: Type 'number' is not assignable to type 'string'/)]);
    expect(unfenced.errors).toEqual([expect.stringMatching(/^an @example without a ```ts block/)]);
  }, 600_000);
});
