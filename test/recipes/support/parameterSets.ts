/**
 * One recipe run with several parameter sets in ONE kernel: a copy of the recipe's cells per
 * set, each with its parameters injected as `npm run recipe` injects them (`injectParameters`),
 * executed one set after the other by nbclient in one Deno kernel, then taken apart per set.
 * A run of its own per set costs a runner, a Python, a kernel and the workbench, Polars and
 * Plot loaded in it; here they are paid once.
 *
 * A set sees nothing of the sets before it but what the workbench's modules keep (code loaded,
 * the sandbox's address): each copy declares every variable of the recipe anew (the Deno kernel
 * lets a later cell declare a `const` again), from its parameters cell on. A set whose cell
 * fails stops the execution there: the sets after it did not run, and their result says so.
 * No HTML report and no provenance manifest are written: the runner's own test
 * (test/scripts/recipe.test.ts) checks those.
 *
 * @example
 * ```ts
 * const [odfl, spy] = await runParameterSets("oi-term-structure", [{ underlying: "ODFL" }, { underlying: "SPY" }], { baseUrl, outDir });
 * expect(odfl.ran).toBe(true);
 * ```
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_KEYS } from "../../../contract/demoKeys.ts";
import { executeNotebook, NotebookError } from "../../../scripts/jupyter.mjs";
import { injectParameters } from "../../../scripts/notebookParams.ts";
import { repoRoot } from "../../../scripts/paths.mjs";

interface Output {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
  ename?: string;
  evalue?: string;
}
export interface Cell {
  cell_type: string;
  id?: string;
  source: string | string[];
  metadata: { tags?: string[]; parameterSet?: number };
  execution_count?: number | null;
  outputs?: Output[];
}

/** One parameter set's part of the run. */
export interface SetRun {
  params: Record<string, string>;
  /** The set's cells, executed (or not, when an earlier cell failed). */
  cells: Cell[];
  /** Whether every code cell of the set ran (no cell before it, in this set or an earlier one, failed). */
  ran: boolean;
  /** Why the run stopped, when it stopped in or before this set. */
  stoppedBy?: string;
}

export interface SetsOptions {
  /** The sandbox every set talks to (its demo full-access key is used). */
  baseUrl: string;
  /** Where the combined notebook and its executed copy are written. */
  outDir: string;
  /** Limit per cell, in seconds. */
  timeoutSeconds?: number;
}

const RECIPES = join(repoRoot, "recipes");

/** The recipe's cells once per set, each set's with its parameters injected and its index in `metadata.parameterSet`. */
function combined(recipe: string, sets: Record<string, string>[]) {
  const notebook = JSON.parse(readFileSync(join(RECIPES, `${recipe}.ipynb`), "utf8"));
  const cells = sets.flatMap((params, k) =>
    injectParameters(notebook, params, `recipe ${recipe}`).cells.map((cell: Cell, i: number) => ({
      ...cell,
      // nbformat 4.5 wants every cell id unique in the notebook.
      ...(cell.id === undefined ? {} : { id: `set${k}-${i}` }),
      metadata: { ...cell.metadata, parameterSet: k },
    }))
  );
  return { ...notebook, cells };
}

/**
 * Runs `recipe` once per parameter set, in one kernel, against the sandbox at `baseUrl`; one
 * result per set, in order. Never throws for a failing cell (see `SetRun.ran`); throws when
 * jupyter itself fails.
 */
export async function runParameterSets(recipe: string, sets: Record<string, string>[], options: SetsOptions): Promise<SetRun[]> {
  const input = join(options.outDir, `${recipe}.sets.ipynb`);
  writeFileSync(input, JSON.stringify(combined(recipe, sets)));
  // As the runner's `--base-url`: the recipes' `sandbox()` and `connect()` find it in the environment.
  const env = { MARKETDATA_BASE_URL: options.baseUrl, MARKETDATA_SANDBOX_URL: options.baseUrl, MARKETDATA_API_KEY: DEMO_KEYS.fullAccess };
  let executed: { notebook: { cells: Cell[] } };
  let stoppedBy: string | undefined;
  try {
    // The kernel starts in recipes/, as the runner starts it: relative paths resolve from there.
    executed = await executeNotebook(input, join(options.outDir, "executed"), {
      cwd: RECIPES,
      env,
      timeoutSeconds: options.timeoutSeconds ?? 170,
    });
  } catch (error) {
    if (!(error instanceof NotebookError)) throw error;
    executed = error as NotebookError & { notebook: { cells: Cell[] } };
    stoppedBy = error.message;
  }
  return sets.map((params, k) => {
    const cells = executed.notebook.cells.filter((c) => c.metadata.parameterSet === k);
    const ran = cells.every((c) => c.cell_type !== "code" || typeof c.execution_count === "number") &&
      !cells.some((c) => c.outputs?.some((o) => o.output_type === "error"));
    return { params, cells, ran, ...(ran ? {} : { stoppedBy: stoppedBy ?? "no cell failed, yet not every cell ran" }) };
  });
}
