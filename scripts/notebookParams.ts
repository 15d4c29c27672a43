/**
 * Parameterised notebooks for the Deno kernel, as papermill does for Python (papermill has no
 * TypeScript support). A recipe's cell tagged `parameters` declares its defaults, one per
 * statement: `const ticker = "AAPL";`. A run copies the notebook, turns the overridden `const`
 * declarations into `let` (a `const` cannot be assigned, nor declared twice in one kernel) and
 * adds a cell tagged `injected-parameters` right after it that assigns the given values:
 * `ticker = "MSFT";`. Each value is typed by its default: number, string, boolean, an array
 * (JSON, or comma-separated) or any other JSON value.
 */
import { type Declaration, declarations } from "./notebookParams/declarations.ts";
import { literal } from "./notebookParams/coerce.ts";
import { ParameterError } from "./notebookParams/errors.ts";

export { type Declaration, declarations } from "./notebookParams/declarations.ts";
export { literal } from "./notebookParams/coerce.ts";
export { ParameterError } from "./notebookParams/errors.ts";

export const PARAMETERS_TAG = "parameters";
export const INJECTED_TAG = "injected-parameters";

// deno-lint-ignore no-explicit-any
type Notebook = { cells: any[]; metadata: Record<string, any>; nbformat: number; nbformat_minor: number };

const sourceText = (source: string | string[]) => (Array.isArray(source) ? source.join("") : source);
const hasTag = (cell: { metadata?: { tags?: string[] } }, tag: string) => cell.metadata?.tags?.includes(tag) ?? false;

/**
 * Reads `key=value` arguments (as given after `--param`) into an object.
 *
 * @throws {ParameterError} when an argument has no `=` or a key is given twice
 * @example
 * parseParamArgs(["ticker=MSFT", "minutes=45"]); // { ticker: "MSFT", minutes: "45" }
 */
export function parseParamArgs(args: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const arg of args) {
    const eq = arg.indexOf("=");
    if (eq <= 0) throw new ParameterError(`Cannot read parameter '${arg}': write it as key=value, e.g. --param ticker=MSFT`);
    const key = arg.slice(0, eq).trim();
    if (key in params) throw new ParameterError(`Parameter '${key}' is given twice`);
    params[key] = arg.slice(eq + 1);
  }
  return params;
}

/** The cell tagged `parameters` and the declarations it holds. */
export function parametersCell(notebook: Notebook, label = "the notebook"): { index: number; declarations: Declaration[] } {
  const index = notebook.cells.findIndex((cell) => cell.cell_type === "code" && hasTag(cell, PARAMETERS_TAG));
  if (index < 0) throw new ParameterError(`${label} has no code cell tagged '${PARAMETERS_TAG}', so it takes no parameters`);
  return { index, declarations: declarations(sourceText(notebook.cells[index].source)) };
}

/**
 * A copy of `notebook` that runs with `params` instead of its defaults. With no params the
 * copy equals the notebook, less any cell injected by an earlier run.
 *
 * @param label names the notebook in errors ("recipe intraday-spread")
 * @throws {ParameterError} naming an unknown parameter (and the known ones) or a value that
 *   does not fit its default's type
 * @example
 * const run = injectParameters(recipe, { ticker: "MSFT", minutes: "45" }, "recipe intraday-spread");
 */
export function injectParameters(notebook: Notebook, params: Record<string, string>, label = "the notebook"): Notebook {
  const copy: Notebook = structuredClone(notebook);
  copy.cells = copy.cells.filter((cell) => !hasTag(cell, INJECTED_TAG));
  const names = Object.keys(params);
  if (names.length === 0) return copy;
  const { index, declarations: declared } = parametersCell(copy, label);
  const byName = new Map(declared.map((d) => [d.name, d]));
  const unknown = names.filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    const known = declared.map((d) => d.name).join(", ") || "none";
    throw new ParameterError(
      `Unknown parameter${unknown.length > 1 ? "s" : ""} ${
        unknown.map((n) => `'${n}'`).join(", ")
      } for ${label}; its parameters cell declares: ${known}`,
    );
  }
  const chosen = declared.filter((d) => d.name in params);
  const assignments = chosen.map((d) => `${d.name} = ${literal(d, params[d.name])};`);

  const cell = copy.cells[index];
  cell.source = reshape(letInsteadOfConst(sourceText(cell.source), chosen), cell.source);
  const injected: Record<string, unknown> = {
    cell_type: "code",
    execution_count: null,
    metadata: { tags: [INJECTED_TAG] },
    outputs: [],
    // `void 0` keeps the cell quiet: the kernel would show the last assignment's value.
    source: reshape(
      ["// Parameters injected by `npm run recipe`; they override the defaults above.", ...assignments, "void 0;"].join("\n"),
      cell.source,
    ),
  };
  if (copy.nbformat > 4 || (copy.nbformat === 4 && copy.nbformat_minor >= 5)) injected.id = INJECTED_TAG;
  copy.cells.splice(index + 1, 0, injected);
  copy.metadata = {
    ...copy.metadata,
    workbench: {
      ...copy.metadata.workbench,
      parameters: Object.fromEntries(chosen.map((d) => [d.name, JSON.parse(literal(d, params[d.name]))])),
    },
  };
  return copy;
}

function letInsteadOfConst(source: string, chosen: Declaration[]): string {
  // From the end, so that earlier offsets stay valid.
  const consts = chosen.filter((d) => d.keyword === "const").sort((a, b) => b.offset - a.offset);
  return consts.reduce((text, d) => `${text.slice(0, d.offset)}let${text.slice(d.offset + "const".length)}`, source);
}

/** `text` in the shape of `like`: one string, or nbformat's list of lines. */
function reshape(text: string, like: string | string[]): string | string[] {
  return Array.isArray(like) ? text.split(/(?<=\n)/) : text;
}
