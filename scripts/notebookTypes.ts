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
import { denoPath, repoRoot } from "./paths.mjs";
import { run } from "./run.mjs";

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
 * Type-checks each notebook; never throws for a type error (it comes back in `errors`).
 * Notebooks in one folder must have different names (their modules sit side by side).
 *
 * @example
 * ```ts
 * const [result] = await checkNotebookTypes(["notebooks/quickstart.ipynb"]);
 * result.errors; // [] when it type-checks
 * ```
 */
export async function checkNotebookTypes(paths: readonly string[]): Promise<NotebookTypes[]> {
  const modules = paths.map((path) => {
    const { code, cellStarts } = notebookModule(JSON.parse(readFileSync(path, "utf8")));
    const module = join(dirname(path), `.typecheck-${basename(path, ".ipynb")}.ts`);
    writeFileSync(module, code);
    return { path, module, cellStarts, errors: [] as string[] };
  });
  try {
    // One deno check for all: the workbench's types are resolved once.
    const result = await run(denoPath(), ["check", "--quiet", ...modules.map((m) => m.module)], { cwd: repoRoot, env: { ...process.env, NO_COLOR: "1", RUST_BACKTRACE: "0" } });
    const output = `${result.stdout}\n${result.stderr}`;
    for (const block of output.split(/\n(?=TS\d+ \[ERROR\])/).filter((b) => /TS\d+ \[ERROR\]/.test(b))) {
      const message = block.split("\n")[0].replace(/^TS\d+ \[ERROR\]: /, "");
      const at = block.match(/(\.typecheck-[^/:]+\.ts):(\d+):(\d+)/);
      const owner = modules.find((m) => at && m.module.endsWith(at[1])) ?? modules[0];
      owner.errors.push(at ? `${where(Number(at[2]), owner.cellStarts)}: ${message}` : message);
    }
    if (result.status !== 0 && modules.every((m) => m.errors.length === 0)) modules[0].errors.push(output.trim());
  } finally {
    for (const m of modules) rmSync(m.module, { force: true });
  }
  return modules.map(({ path, errors }) => ({ path, errors }));
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
