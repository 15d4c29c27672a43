// Headless notebook execution in the project's Deno kernel, through nbclient (jupyter's executor).
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { jupyterConfigDir, jupyterEnv, jupyterPython, repoRoot } from "./paths.mjs";
import { CommandError } from "./run.mjs";
import process from "node:process";

// scripts/jupyter-run/execute.py executes the notebook with nbclient (what `jupyter nbconvert
// --execute` uses), run by jupyter's own Python, and writes its HTML report in that same process
// when asked. Deno's kernel sends `"transient": null` with every execute_result, and nbclient
// before 0.10.2 (Debian 12 ships 0.7.2) then crashes on `transient.get(...)` (jupyter/nbclient#322):
// the project's fix is loaded from scripts/jupyter-config/, as for a plain `jupyter nbconvert`.
const executePy = join(repoRoot, "scripts", "jupyter-run", "execute.py");

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
   * @param {string} [htmlPath] its HTML report, when one was asked for
   */
  constructor(message, outputPath, notebook, htmlPath) {
    super(message);
    this.name = "NotebookError";
    this.outputPath = outputPath;
    this.notebook = notebook;
    this.htmlPath = htmlPath;
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
 * With `report`, the HTML report `<name>.html` (what `jupyter nbconvert --to html` writes) is
 * written beside the copy by the same Python process, also when a cell failed; `beforeReport`
 * sees the executed notebook first and may change it, rewriting `outputPath` to match.
 *
 * @param {string} inputPath the `.ipynb` to run
 * @param {string} outputDir where the executed notebook goes (created if missing)
 * @param {{timeoutSeconds?: number, cwd?: string, env?: Record<string, string>, report?: boolean, relay?: boolean,
 *   beforeReport?: (executed: {outputPath: string, notebook: any}) => void}} [opts]
 *   `timeoutSeconds` limits each cell; `env` adds variables to the kernel's environment (ours
 *   otherwise, left as it is); `relay` starts the kernel exactly as the kernelspec
 *   says, behind scripts/jupyter-kernel/relay.py (by default nbclient, the kernel's only
 *   client, starts Deno directly: the relay serves clients that connect again)
 * @returns {Promise<{outputPath: string, notebook: any, htmlPath?: string}>}
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
  mkdirSync(outputDir, { recursive: true });
  const outputPath = join(resolve(outputDir), basename(input));
  const args = [
    executePy,
    String(timeoutSeconds),
    join(jupyterConfigDir, "nbclient_transient_fix.py"),
    ...(opts.report ? ["--report"] : []),
    ...(opts.relay ? ["--relay"] : []),
  ];
  // The notebook goes in as one line: JSON keeps no raw line break but between tokens.
  const line = `${readFileSync(input, "utf8").replace(/[\r\n]+/g, " ")}\n`;
  /** @type {{outputPath: string, notebook: any} | undefined} */
  let executed;
  /** @type {unknown} */
  let hookError;
  // The kernel starts in `cwd`, where Deno finds deno.json.
  const result = await executor(python, args, { cwd, env: { ...process.env, ...opts.env }, line, report: Boolean(opts.report) }, (text) => {
    writeFileSync(outputPath, text);
    executed = { outputPath, notebook: JSON.parse(text) };
    if (!opts.report) return "";
    opts.beforeReport?.(executed);
    return outputPath;
  }, (error) => (hookError = error));
  if (hookError !== undefined) throw hookError;
  const label = `nbclient execution of ${inputPath} (kernel deno, cwd ${cwd})`;
  const cellFailed = result.status === 3 && executed !== undefined;
  if ((result.status !== 0 && !cellFailed) || executed === undefined) {
    throw new CommandError(label, result, result.error ? result.error.message : `exit status ${result.status}`);
  }
  const htmlPath = opts.report ? result.stdout.slice(result.stdout.indexOf("\0") + 1).trim() : undefined;
  if (cellFailed) {
    // nbclient's message already shows the cell and its error; the traceback above it is noise.
    const marker = "CellExecutionError: ";
    const detail = result.stderr.slice(result.stderr.lastIndexOf(marker) + marker.length).trim();
    throw new NotebookError(`Notebook ${inputPath} failed (kernel deno, cwd ${cwd}):\n${detail}`, outputPath, executed.notebook, htmlPath);
  }
  return { outputPath, notebook: executed.notebook, ...(htmlPath ? { htmlPath } : {}) };
}

/**
 * Runs execute.py: sends `line`, hands the executed notebook (the text before the first NUL on
 * stdout) to `onExecuted`, and answers with the path it returns (the notebook to report on) when
 * `report` is set. A throwing `onExecuted` is passed to `onError` and the report skipped.
 *
 * @returns {Promise<{status: number | null, stdout: string, stderr: string, error?: Error}>}
 */
function executor(python, args, { cwd, env, line, report }, onExecuted, onError) {
  return new Promise((resolvePromise) => {
    const child = spawn(python, args, { cwd, env: jupyterEnv(env), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let answered = false;
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
      const end = answered ? -1 : stdout.indexOf("\0");
      if (end < 0) return;
      answered = true;
      let reportOf = "";
      try {
        reportOf = onExecuted(stdout.slice(0, end));
      } catch (error) {
        onError(error);
      }
      if (report) child.stdin.end(`${reportOf}\n`);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.stdin.on("error", () => {}); // the child may exit without reading its input
    if (report) child.stdin.write(line);
    else child.stdin.end(line);
    child.on("error", (error) => resolvePromise({ status: null, stdout, stderr, error }));
    child.on("close", (status, signal) => {
      const error = signal ? new Error(`killed by ${signal}`) : undefined;
      resolvePromise({ status, stdout, stderr, error });
    });
  });
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
  return notebook.cells.flatMap((cell) => (cell.outputs ?? []).filter((out) => out.output_type === "error"));
}
