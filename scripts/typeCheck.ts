/**
 * One `deno check` for several sets of generated modules (notebooks joined into modules, JSDoc
 * examples), each set reading its own verdicts from the one run. A check resolves the types of
 * the whole workbench first, which is most of its cost, and a second check with other roots
 * pays it again: checked together, they pay it once.
 */
import process from "node:process";
import { denoPath, repoRoot } from "./paths.mjs";
import { run } from "./run.mjs";

/** One error `deno check` reported, at a line of one of the checked modules. */
export interface CheckError {
  /** The module's absolute path, as given to the check. */
  file: string;
  line: number;
  message: string;
}

/** What one check run said: its errors by module, and what failed it without naming one. */
export interface TypeCheckRun {
  /** Errors by module path; a module without errors has no entry. */
  errors: Map<string, CheckError[]>;
  /**
   * What failed the check without naming one of its modules: the messages of errors elsewhere
   * (in a module they import), or the whole output when the check failed with no type error
   * (an import that does not resolve). Each set gives them to its first module.
   */
  unattributed: string[];
}

/** Modules written for a check, and how their owner reads its verdicts from the run. */
export interface TypeCheckSet<T> {
  files: readonly string[];
  verdicts: (run: TypeCheckRun) => T;
  /** Removes the modules written for the check; called once it ran (or failed to). */
  cleanup: () => void;
}

/**
 * Splits `deno check` output into errors, each given to the module its first location names
 * (`TS2322 [ERROR]: message` then `at file:///…/module.ts:12:7`). An error in a file outside
 * `files` (an imported module) is told apart, with its place.
 *
 * @example
 * ```ts
 * const { errors } = typeErrors("TS2322 [ERROR]: Type 'string' is not assignable to type 'number'.\n    at file:///r/a.ts:3:7", ["/r/a.ts"]);
 * errors.get("/r/a.ts")?.[0].line; // 3
 * ```
 */
export function typeErrors(output: string, files: readonly string[]): { errors: Map<string, CheckError[]>; elsewhere: string[] } {
  const known = new Set(files);
  const errors = new Map<string, CheckError[]>();
  const elsewhere: string[] = [];
  for (const block of output.split(/\n(?=TS\d+ \[ERROR\])/).filter((b) => /TS\d+ \[ERROR\]/.test(b))) {
    const message = block.slice(block.search(/TS\d+ \[ERROR\]/)).split("\n")[0].replace(/^TS\d+ \[ERROR\]: /, "");
    const at = block.match(/(?:file:\/\/)?(\/[^\s:]+\.ts):(\d+):(\d+)/);
    if (!at || !known.has(at[1])) {
      elsewhere.push(at ? `${message} (${at[1]}:${at[2]})` : message);
      continue;
    }
    errors.set(at[1], [...(errors.get(at[1]) ?? []), { file: at[1], line: Number(at[2]), message }]);
  }
  return { errors, elsewhere };
}

/**
 * Runs one `deno check` over every set's modules (from the repository's root) and returns each
 * set's verdicts, in order. Never throws for a type error: the sets report them.
 *
 * @example
 * ```ts
 * const [notebooks, examples] = await typeCheck(notebookCheck(paths), await exampleCheck(examples));
 * ```
 */
export async function typeCheck<T extends unknown[]>(...sets: { [K in keyof T]: TypeCheckSet<T[K]> }): Promise<T> {
  try {
    const files = sets.flatMap((s) => s.files);
    if (files.length === 0) return sets.map((s) => s.verdicts({ errors: new Map(), unattributed: [] })) as T;
    const result = await run(denoPath(), ["check", "--quiet", ...files], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: "1", RUST_BACKTRACE: "0" },
    });
    const output = `${result.stdout}\n${result.stderr}`;
    const { errors, elsewhere } = typeErrors(output, files);
    const failedWithout = result.status !== 0 && errors.size === 0 && elsewhere.length === 0;
    const checked: TypeCheckRun = {
      errors,
      unattributed: failedWithout ? [output.trim() || `deno check: ${result.error ?? `exit status ${result.status}`}`] : elsewhere,
    };
    return sets.map((s) => s.verdicts(checked)) as T;
  } finally {
    for (const s of sets) s.cleanup();
  }
}
