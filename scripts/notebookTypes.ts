/**
 * `npm run check-notebooks [-- <path.ipynb>...]`: type-checks the code of notebooks as one
 * module each (their code cells joined in order), with `deno check`, so a wrong annotation in
 * a notebook fails like one in any source file. Errors name the notebook and the cell. With no
 * paths it checks every notebook in notebooks/ and recipes/.
 *
 * The module is written beside the notebook (a hidden `.typecheck-<name>.ts`, removed after) so
 * that the notebook's relative imports resolve as they do in the kernel.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import process from "node:process";
import { repoRoot } from "./paths.mjs";
import { typeCheck, type TypeCheckSet } from "./typeCheck.ts";

interface Cell {
  cell_type: string;
  source: string | string[];
}

/** One notebook's verdict: empty `errors` when it type-checks. */
export interface NotebookTypes {
  path: string;
  errors: string[];
}

/** Every `.ipynb` in notebooks/ and recipes/ (the ones `npm test` checks). */
export function projectNotebooks(): string[] {
  return ["notebooks", "recipes"].flatMap((folder) => {
    const dir = join(repoRoot, folder);
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".ipynb")).sort().map((f) => join(dir, f)) : [];
  });
}

/** The notebook's code as one module, and the first line of each cell in it (1-based). */
export function notebookModule(notebook: { cells: Cell[] }): { code: string; cellStarts: { cell: number; line: number }[] } {
  // The kernel's own API (Deno.jupyter) is typed in Deno's unstable library.
  const lines: string[] = ['/// <reference lib="deno.unstable" />'];
  const cellStarts: { cell: number; line: number }[] = [];
  notebook.cells.forEach((cell, i) => {
    if (cell.cell_type !== "code") return;
    const source = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
    lines.push(`// cell ${i + 1}`);
    cellStarts.push({ cell: i + 1, line: lines.length + 1 });
    lines.push(...source.split("\n"), "");
  });
  // `export {}` keeps it a module (top-level await, no global clashes) even without imports.
  return { code: `${lines.join("\n")}\nexport {};\n`, cellStarts };
}

/** "cell 4, line 2" for a line of the joined module. */
function where(line: number, starts: { cell: number; line: number }[]): string {
  const start = [...starts].reverse().find((s) => s.line <= line);
  return start ? `cell ${start.cell}, line ${line - start.line + 1}` : `line ${line}`;
}

/**
 * The notebooks' modules, written beside them for one check (see typeCheck.ts), and how their
 * verdicts are read from it. Notebooks in one folder must have different names (their modules
 * sit side by side).
 *
 * @example
 * ```ts
 * const [results] = await typeCheck(notebookCheck(["notebooks/quickstart.ipynb"]));
 * ```
 */
export function notebookCheck(paths: readonly string[]): TypeCheckSet<NotebookTypes[]> {
  const modules = paths.map((path) => {
    const { code, cellStarts } = notebookModule(JSON.parse(readFileSync(path, "utf8")));
    const module = join(dirname(path), `.typecheck-${basename(path, ".ipynb")}.ts`);
    writeFileSync(module, code);
    return { path, module, cellStarts };
  });
  return {
    files: modules.map((m) => m.module),
    verdicts: (checked) => {
      const verdicts = modules.map(({ path, module, cellStarts }) => ({
        path,
        errors: (checked.errors.get(module) ?? []).map((e) => `${where(e.line, cellStarts)}: ${e.message}`),
      }));
      verdicts[0]?.errors.push(...checked.unattributed);
      return verdicts;
    },
    cleanup: () => {
      for (const m of modules) rmSync(m.module, { force: true });
    },
  };
}

/**
 * Type-checks each notebook; never throws for a type error (it comes back in `errors`).
 *
 * @example
 * ```ts
 * const [result] = await checkNotebookTypes(["notebooks/quickstart.ipynb"]);
 * result.errors; // [] when it type-checks
 * ```
 */
export async function checkNotebookTypes(paths: readonly string[]): Promise<NotebookTypes[]> {
  const [verdicts] = await typeCheck(notebookCheck(paths));
  return verdicts;
}

if (import.meta.main) {
  const paths = process.argv.slice(2).length ? process.argv.slice(2) : projectNotebooks();
  const results = await checkNotebookTypes(paths);
  for (const r of results) {
    const name = relative(repoRoot, r.path);
    console.log(r.errors.length === 0 ? `ok      ${name}` : `FAILED  ${name}\n${r.errors.map((e) => `  ${e}`).join("\n")}`);
  }
  process.exit(results.every((r) => r.errors.length === 0) ? 0 : 1);
}
