/**
 * One notebook run as `npm run demo` and `npm run recipe` do it: execute in the Deno kernel,
 * write the executed `.ipynb` and its HTML report, and sum it up in one line.
 */
import { relative } from "node:path";
import { errorOutputs, executeNotebook, NotebookError } from "./jupyter.mjs";
import { repoRoot } from "./paths.mjs";
import { figureCount, type Notebook } from "./report.ts";

export interface NotebookRun {
  /** The notebook as named to the user. */
  name: string;
  seconds: number;
  /** Executed notebook (up to the failing cell when one failed); missing when jupyter itself failed. */
  ipynb?: string;
  /** HTML report of that notebook. */
  html?: string;
  /** Outputs showing a chart. */
  figures: number;
  /** Error outputs, or the failure that stopped execution; empty when all went well. */
  errors: string[];
}

export interface RunOptions {
  /** Names the notebook in messages (default: the input path). */
  name?: string;
  /** Kernel working directory (default: the input's folder). */
  cwd?: string;
  /** Variables added to the kernel's environment (the sandbox's address and key). */
  env?: Record<string, string>;
  /** Limit per cell, in seconds. */
  timeoutSeconds?: number;
  /** Sees the executed notebook before its report is written (and may change it in place). */
  beforeReport?: (executed: { outputPath: string; notebook: Notebook }) => void;
}

/**
 * Executes `input` and writes `<outDir>/<name>.ipynb` and `.html`. Never throws for a failing
 * notebook: its errors come back in `errors`.
 *
 * @example
 * const run = await runNotebook("notebooks/quickstart.ipynb", "out/notebooks");
 * console.log(summaryLine(run));
 */
export async function runNotebook(input: string, outDir: string, options: RunOptions = {}): Promise<NotebookRun> {
  const name = options.name ?? input;
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  // The run's time is the execution's: it stops when the executed notebook comes back.
  let elapsed: number | undefined;
  let hookFailed = false;
  const beforeReport = (done: { outputPath: string; notebook: Notebook }) => {
    elapsed = seconds();
    try {
      options.beforeReport?.(done);
    } catch (error) {
      hookFailed = true;
      throw error;
    }
  };
  let executed: { outputPath: string; notebook: Notebook; htmlPath?: string };
  let stoppedBy: string | undefined;
  try {
    // The report is written by the Python process that executed the notebook, after `beforeReport`.
    executed = await executeNotebook(input, outDir, {
      cwd: options.cwd,
      env: options.env,
      timeoutSeconds: options.timeoutSeconds,
      report: true,
      beforeReport,
    });
  } catch (error) {
    if (hookFailed) throw error;
    // A failing cell still leaves the notebook executed up to it, and its report to read.
    if (!(error instanceof NotebookError)) return { name, seconds: seconds(), figures: 0, errors: [(error as Error).message] };
    executed = error;
    stoppedBy = error.message;
  }
  elapsed ??= seconds();
  const outputs = errorOutputs(executed.notebook).map((out: { ename: string; evalue: string }) => `${out.ename}: ${out.evalue}`);
  const errors = stoppedBy === undefined ? outputs : [stoppedBy];
  return { name, seconds: elapsed, ipynb: executed.outputPath, html: executed.htmlPath, figures: figureCount(executed.notebook), errors };
}

/** `notebooks/quickstart.ipynb   8.4 s   3 figures   ok` (or the first error). */
export function summaryLine(run: NotebookRun, width = 36): string {
  const figures = `${run.figures} figure${run.figures === 1 ? "" : "s"}`;
  // nbclient's message ends with the error itself, after the cell's source and stack.
  const headline = (error: string) => error.trim().split("\n").at(-1)!.slice(0, 160);
  const status = run.errors.length === 0 ? "ok" : `FAILED: ${headline(run.errors[0])}`;
  return `${run.name.padEnd(width)} ${run.seconds.toFixed(1).padStart(6)} s ${figures.padStart(11)}   ${status}`;
}

/** A path as the user reads it: relative to the repository when inside it. */
export function shown(path: string): string {
  const rel = relative(repoRoot, path);
  return rel.startsWith("..") ? path : rel;
}
