/**
 * Notebooks are type-checked like source files: each project notebook and recipe, its code
 * cells joined into one module, passes `deno check`; a notebook with a planted wrong annotation
 * fails, the error naming its cell and line.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeNotebook } from "../../scripts/jupyter.mjs";
import { checkNotebookTypes, type NotebookTypes, projectNotebooks } from "../../scripts/notebookTypes.ts";

const repo = process.cwd();
const dir = mkdtempSync(join(tmpdir(), "notebook-types-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The project's notebooks, then a planted wrong one and a fine one. */
function plantedNotebooks(): string[] {
  const planted = join(dir, "planted.ipynb");
  writeFileSync(planted, JSON.stringify(makeNotebook([
    `import { connect } from "${repo}/workbench/mod.ts";\nconst wb = await connect({ baseUrl: "http://127.0.0.1:1", apiKey: "k" });`,
    `const rows = 3;\nconst n: number = "x";`,
  ])));
  const fine = join(dir, "fine.ipynb");
  writeFileSync(fine, JSON.stringify(makeNotebook([`const n: number = 1;\nn`])));
  return [planted, fine];
}

// One check of them all: the workbench's types are resolved once (the costly part of a check).
const paths = projectNotebooks();
let checked: Promise<NotebookTypes[]>;
beforeAll(() => {
  checked = checkNotebookTypes([...paths, ...plantedNotebooks()]);
  checked.catch(() => {}); // reported by the tests that await it
});

it("every notebook and recipe type-checks", async () => {
  expect(paths.map((p) => relative(repo, p))).toEqual(expect.arrayContaining(["notebooks/quickstart.ipynb", "recipes/intraday-spread.ipynb"]));
  const results = (await checked).slice(0, paths.length);
  expect(results.filter((r) => r.errors.length > 0)).toEqual([]);
  // The joined modules are removed after the check.
  expect(readdirSync(join(repo, "recipes")).filter((f) => f.startsWith(".typecheck-"))).toEqual([]);
}, 300_000);

it("a wrong annotation in a notebook fails the check, naming the cell and line", async () => {
  const [bad, good] = (await checked).slice(paths.length);
  expect(bad.errors).toHaveLength(1);
  expect(bad.errors[0]).toMatch(/^cell 2, line 2: Type 'string' is not assignable to type 'number'/);
  expect(good.errors).toEqual([]);
}, 300_000);
