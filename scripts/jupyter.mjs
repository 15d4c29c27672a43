// Headless notebook execution in the project's Deno kernel, through `jupyter nbconvert`.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { jupyterEnv, jupyterPython, repoRoot } from "./paths.mjs";
import { runOrThrow } from "./run.mjs";

// `jupyter nbconvert`, run by jupyter's own Python with one fix: Deno's kernel sends
// `"transient": null` with every execute_result, and nbclient before 0.10.2 (Debian 12 ships
// 0.7.2) then crashes on `transient.get(...)`. See jupyter/nbclient#322, denoland/deno#34483.
const nbconvertMain = `
import sys
from nbclient.client import NotebookClient
process_message = NotebookClient.process_message
def patched(self, msg, *args, **kwargs):
    if msg.get("content", {}).get("transient", {}) is None:
        msg["content"]["transient"] = {}
    return process_message(self, msg, *args, **kwargs)
NotebookClient.process_message = patched
from nbconvert.nbconvertapp import main
sys.argv[0] = "jupyter-nbconvert"
main()
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

/**
 * Executes a notebook in the `deno` kernel and writes the executed copy to
 * `outputDir/<same name>`. The kernel's working directory is `cwd`: by default the
 * notebook's own folder when it lies inside the repo (as JupyterLab would do), else the repo
 * root, so that Deno always finds deno.json and the npm-installed node_modules.
 *
 * @param {string} inputPath the `.ipynb` to run
 * @param {string} outputDir where the executed notebook goes (created if missing)
 * @param {{timeoutSeconds?: number, cwd?: string}} [opts] `timeoutSeconds` limits each cell
 * @returns {Promise<{outputPath: string, notebook: any}>}
 * @throws {Error} naming the failing cell's source and error when a cell raises
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
  // The notebook goes in on stdin: nbconvert would otherwise start the kernel in the
  // notebook's folder, where Deno finds no deno.json for notebooks outside the repo.
  const { stdout } = await nbconvert(python, [
    "-c", nbconvertMain,
    "--to", "notebook",
    "--execute",
    "--stdin",
    "--stdout",
    "--ExecutePreprocessor.kernel_name=deno",
    `--ExecutePreprocessor.timeout=${timeoutSeconds}`,
  ], {
    cwd,
    env: jupyterEnv(),
    input: readFileSync(input, "utf8"),
    notebook: inputPath,
    label: `jupyter nbconvert --execute ${inputPath} (kernel deno, cwd ${cwd})`,
  });
  mkdirSync(outputDir, { recursive: true });
  const outputPath = join(resolve(outputDir), basename(input));
  writeFileSync(outputPath, stdout);
  return { outputPath, notebook: JSON.parse(stdout) };
}

async function nbconvert(python, args, opts) {
  try {
    return await runOrThrow(python, args, opts);
  } catch (error) {
    // nbclient's message already shows the cell and its error; the traceback above it is noise.
    const marker = "CellExecutionError: ";
    const stderr = error.result?.stderr ?? "";
    if (!stderr.includes(marker)) throw error;
    const detail = stderr.slice(stderr.lastIndexOf(marker) + marker.length).trim();
    throw new Error(`Notebook ${opts.notebook} failed (kernel deno, cwd ${opts.cwd}):\n${detail}`,
      { cause: error });
  }
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
