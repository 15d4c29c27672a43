// Headless notebook execution in the project's Deno kernel, through nbclient (jupyter's executor).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { jupyterConfigDir, jupyterEnv, jupyterPython, repoRoot } from "./paths.mjs";
import { CommandError, run } from "./run.mjs";

// Executes the notebook on stdin with nbclient (what `jupyter nbconvert --execute` uses), run
// by jupyter's own Python, and prints the executed notebook on stdout, also when a cell fails
// or times out: then it is executed up to and including that cell, whose error output it
// holds, and the exit status is 3 with the error on stderr after "CellExecutionError: ".
// Deno's kernel sends `"transient": null` with every execute_result, and nbclient before 0.10.2
// (Debian 12 ships 0.7.2) then crashes on `transient.get(...)` (jupyter/nbclient#322): the
// project's fix is loaded from scripts/jupyter-config/, as for a plain `jupyter nbconvert`.
const executeMain = `
import os, runpy, sys
import nbformat
from nbclient.client import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
runpy.run_path(sys.argv[2])
nb = nbformat.read(sys.stdin, as_version=4)
client = NotebookClient(nb, kernel_name="deno", timeout=int(sys.argv[1]), resources={"metadata": {"path": os.getcwd()}})
failure = None
try:
    client.execute()
except (CellExecutionError, CellTimeoutError, DeadKernelError) as error:
    failure = error
sys.stdout.write(nbformat.writes(nb))
if failure is not None:
    sys.stderr.write("CellExecutionError: " + str(failure))
    sys.exit(3)
`;

/**
 * Builds a minimal nbformat 4.5 notebook for the `deno` kernel from cell sources.
 *
 * @param {string[]} sources one string per code cell
 * @example
 * writeFileSync("check.ipynb", JSON.stringify(makeNotebook(["console.log(1 + 1)"])));
 */
export function makeNotebook(sources) {
  return {
    cells: sources.map((source, i) => ({
      cell_type: "code",
      execution_count: null,
      id: `cell-${i + 1}`,
      metadata: {},
      outputs: [],
      source,
    })),
    metadata: {
      kernelspec: { name: "deno", display_name: "Deno", language: "typescript" },
      language_info: { name: "typescript" },
    },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

/** A notebook whose execution stopped at a failing cell; its executed copy was written all the same. */
export class NotebookError extends Error {
  /**
   * @param {string} message the cell's source and error, as nbclient tells them
   * @param {string} outputPath the executed copy, up to and including the failing cell
   * @param {any} notebook that copy, parsed
   */
  constructor(message, outputPath, notebook) {
    super(message);
    this.name = "NotebookError";
    this.outputPath = outputPath;
    this.notebook = notebook;
  }
}

/**
 * Executes a notebook in the `deno` kernel and writes the executed copy to
 * `outputDir/<same name>`. The kernel's working directory is `cwd`: by default the
 * notebook's own folder when it lies inside the repo (as JupyterLab would do), else the repo
 * root, so that Deno always finds deno.json and the npm-installed node_modules. When a cell
 * raises or times out, execution stops there, and the copy, executed up to and including
 * that cell and showing its error, is written before the error is thrown.
 *
 * @param {string} inputPath the `.ipynb` to run
 * @param {string} outputDir where the executed notebook goes (created if missing)
 * @param {{timeoutSeconds?: number, cwd?: string}} [opts] `timeoutSeconds` limits each cell
 * @returns {Promise<{outputPath: string, notebook: any}>}
 * @throws {NotebookError} naming the failing cell's source and error when a cell raises
 * @throws {import("./run.mjs").CommandError} when jupyter itself fails
 * @example
 * const { notebook } = await executeNotebook("notebooks/intro.ipynb", "out/notebooks");
 * console.log(notebookText(notebook));
 */
export async function executeNotebook(inputPath, outputDir, opts = {}) {
  const python = jupyterPython();
  if (!python) {
    throw new Error("Cannot find jupyter: run `node scripts/setup.mjs --jupyter` first");
  }
  const input = resolve(inputPath);
  const insideRepo = !relative(repoRoot, input).startsWith("..");
  const cwd = opts.cwd ?? (insideRepo ? dirname(input) : repoRoot);
  const timeoutSeconds = opts.timeoutSeconds ?? 600;
  // The notebook goes in on stdin and the kernel starts in `cwd`, where Deno finds deno.json.
  const result = await run(python, ["-c", executeMain, String(timeoutSeconds), join(jupyterConfigDir, "nbclient_transient_fix.py")], {
    cwd,
    env: jupyterEnv(),
    input: readFileSync(input, "utf8"),
  });
  const label = `nbclient execution of ${inputPath} (kernel deno, cwd ${cwd})`;
  const cellFailed = result.status === 3 && result.stdout.startsWith("{");
  if (result.status !== 0 && !cellFailed) {
    throw new CommandError(label, result, result.error ? result.error.message : `exit status ${result.status}`);
  }
  mkdirSync(outputDir, { recursive: true });
  const outputPath = join(resolve(outputDir), basename(input));
  writeFileSync(outputPath, result.stdout);
  const notebook = JSON.parse(result.stdout);
  if (cellFailed) {
    // nbclient's message already shows the cell and its error; the traceback above it is noise.
    const marker = "CellExecutionError: ";
    const detail = result.stderr.slice(result.stderr.lastIndexOf(marker) + marker.length).trim();
    throw new NotebookError(`Notebook ${inputPath} failed (kernel deno, cwd ${cwd}):\n${detail}`, outputPath, notebook);
  }
  return { outputPath, notebook };
}

/** Text of one cell's outputs: streams, `text/plain` results and error messages. */
export function cellText(cell) {
  const text = (value) => (Array.isArray(value) ? value.join("") : (value ?? ""));
  return (cell.outputs ?? [])
    .map((out) => {
      if (out.output_type === "stream") return text(out.text);
      if (out.output_type === "error") return `${out.ename}: ${out.evalue}`;
      return text(out.data?.["text/plain"]);
    })
    .join("");
}

/** Text of every code cell's outputs, one entry per code cell. */
export function notebookText(notebook) {
  return notebook.cells.filter((cell) => cell.cell_type === "code").map(cellText);
}

/** Every error output in the notebook. */
export function errorOutputs(notebook) {
  return notebook.cells.flatMap((cell) =>
    (cell.outputs ?? []).filter((out) => out.output_type === "error")
  );
}
