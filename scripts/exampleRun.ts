/**
 * `deno run -A scripts/exampleRun.ts`: runs the JSDoc examples of the modules that work offline
 * ({@link RUNNABLE_MODULES}: research formulas, the calendar, query planning, formatting) and
 * checks the results their lines write (`normalCdf(1); // 0.8413`, scripts/exampleResults.ts)
 * against what the lines give. Types are checked elsewhere (scripts/exampleTypes.ts): this runs
 * them, with the same preamble, in one Deno process.
 *
 * An example that uses the preamble's `wb` or `df` needs a service or a frame and is not run; one
 * that throws fails, naming its symbol and the error.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { declaredNames, type Example, exampleBlocks, exampleModule } from "./exampleTypes.ts";
import { writesResult } from "./exampleResults.ts";
import { denoPath, repoRoot } from "./paths.mjs";
import { run } from "./run.mjs";

/** The modules whose examples run offline, in a few seconds: no service, no files, no kernel. */
export const RUNNABLE_MODULES: readonly string[] = [
  ...["adjustPrices", "blackScholes", "clusteredMeans", "forward", "normal", "seriesLink", "smileVols", "totalReturn"].map((m) =>
    `workbench/research/${m}.ts`
  ),
  ...["calendar", "dates", "earlyCloses", "holidays", "nyTime"].map((m) => `calendar/${m}.ts`),
  "workbench/calendar.ts",
  "workbench/errors/nearest.ts",
  "workbench/fetch/inFlight.ts",
  "workbench/query/endpoints.ts",
  "workbench/query/plan.ts",
  "workbench/store/lakePlan.ts",
  "workbench/errors/credentials.ts",
  "kernel-helpers/display/bytes.ts",
  "kernel-helpers/display/html.ts",
];

/** One example's run: the results its lines wrote and what they gave, or why it did not run. */
export interface ExampleRun {
  where: string;
  /** `skipped`: it needs the preamble's `wb` or `df`. */
  status: "ran" | "failed" | "skipped";
  /** The error it threw, when it failed. */
  error?: string;
  /** Each line that writes a result: its line in the example, the comment, and the mismatch if any. */
  checks: { line: number; written: string; mismatch?: string }[];
}

/** Whether the example uses a preamble name it does not declare (`wb`, `df`): it needs a service or a frame. */
function needsPreamble(code: string): boolean {
  const own = declaredNames(code);
  return ["wb", "df"].some((name) => new RegExp(`\\b${name}\\b`).test(code) && !own.has(name));
}

/** Whether `text` opens and closes its brackets in order (so it is a whole expression). */
function balanced(text: string): boolean {
  let depth = 0;
  for (const c of text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""')) {
    if ("([{".includes(c)) depth++;
    if (")]}".includes(c) && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * The example's code with a check after each top-level line that writes its result:
 * `expr; // 3` becomes `__check(n, "3", (expr));`, `const x = f(); // 3` checks `x`.
 *
 * @example
 * ```ts
 * instrument("normalPdf(0); // 0.3989"); // '__check(1, "0.3989", (normalPdf(0)));'
 * ```
 */
export function instrument(code: string): string {
  return code.split("\n").map((text, i) => {
    const m = /^([^\s/)\]}.].*?);\s*\/\/\s*(.+)$/.exec(text);
    if (!m || !writesResult(m[2])) return text;
    const statements = m[1].split(/;\s+/);
    const last = statements.pop()!;
    const declared = /^(?:const|let)\s+([A-Za-z_$][\w$]*)\s*=/.exec(last);
    if (!balanced(last)) return text;
    const check = declared
      ? `${last}; __check(${i + 1}, ${JSON.stringify(m[2])}, ${declared[1]});`
      : `__check(${i + 1}, ${JSON.stringify(m[2])}, (${last}));`;
    return [...statements, check].join("; ");
  }).join("\n");
}

/**
 * Runs the examples of `modules` (one Deno process; modules written under the root for it and
 * removed after) and returns one verdict each.
 *
 * @example
 * ```ts
 * const runs = await runExamples();
 * runs.filter((r) => r.status === "failed" || r.checks.some((c) => c.mismatch)); // [] when every written result holds
 * ```
 */
export async function runExamples(modules: readonly string[] = RUNNABLE_MODULES, examples?: readonly Example[]): Promise<ExampleRun[]> {
  const found = examples ?? (await exampleBlocks(modules));
  const dir = mkdtempSync(join(repoRoot, ".example-runs-"));
  try {
    const runnable = found.map((example, i) => ({
      example,
      file: join(dir, `example${i}.ts`),
      // The module it documents: its exports are in scope, as notebook.ts's are (see the driver).
      own: join(repoRoot, example.where.split(":")[0]),
      run: example.fenced !== false && !needsPreamble(example.code),
    }));
    for (const r of runnable) {
      if (r.run) writeFileSync(r.file, exampleModule(instrument(r.example.code), []).replace(/^declare const .*$/gm, ""));
    }
    const driver = join(dir, "driver.ts");
    const out = join(dir, "results.json");
    writeFileSync(
      driver,
      [
        `import { resultMismatch } from "../scripts/exampleResults.ts";`,
        `const examples: { file: string; own: string }[] = ${
          JSON.stringify(runnable.filter((r) => r.run).map(({ file, own }) => ({ file, own })))
        };`,
        // An example sees notebook.ts's exports and its own module's as free names, as a user
        // who imported them would: put on the global object before it is imported.
        `Object.assign(globalThis, await import("../notebook.ts"));`,
        `const results: Record<string, { error?: string; checks: { line: number; written: string; mismatch?: string }[] }> = {};`,
        `let current: { checks: { line: number; written: string; mismatch?: string }[] } = { checks: [] };`,
        `(globalThis as Record<string, unknown>).__check = (line: number, written: string, actual: unknown) => {`,
        `  current.checks.push({ line, written, mismatch: resultMismatch(written, actual) });`,
        `};`,
        `const log = console.log;`,
        `console.log = () => {};`,
        `for (const { file, own } of examples) {`,
        `  current = results[file] = { checks: [] };`,
        `  try {`,
        `    Object.assign(globalThis, await import(own));`,
        `    await import(file);`,
        `  } catch (e) {`,
        `    results[file].error = e instanceof Error ? \`\${e.name}: \${e.message}\` : String(e);`,
        `  }`,
        `}`,
        `console.log = log;`,
        `Deno.writeTextFileSync(${JSON.stringify(out)}, JSON.stringify(results));`,
        `Deno.exit(0);`,
      ].join("\n"),
    );
    const result = await run(denoPath(), ["run", "-A", "--no-check", driver], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: "1" },
      timeoutMs: 120_000,
    });
    if (result.status !== 0) throw new Error(`the examples' run failed: ${result.stderr.trim() || result.error}`);
    const results = JSON.parse(readFileSync(out, "utf8")) as Record<string, { error?: string; checks: ExampleRun["checks"] }>;
    return runnable.map(({ example, file, run }) => {
      if (!run) return { where: example.where, status: "skipped", checks: [] };
      const r = results[file];
      return {
        where: example.where,
        status: r.error ? "failed" : "ran",
        ...(r.error ? { error: r.error } : {}),
        checks: r.checks.map((c) => (c.mismatch ? c : { line: c.line, written: c.written })),
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const runs = await runExamples(process.argv.slice(2).length ? process.argv.slice(2) : RUNNABLE_MODULES);
  let bad = 0;
  for (const r of runs) {
    const wrong = r.checks.filter((c) => c.mismatch);
    if (r.status === "failed" || wrong.length) bad++;
    console.log(`${r.status.padEnd(7)} ${r.where}  (${r.checks.length} results checked)${r.error ? `\n  ${r.error}` : ""}`);
    for (const c of wrong) console.log(`  line ${c.line}: // ${c.written}\n    ${c.mismatch}`);
  }
  console.log(
    `${runs.filter((r) => r.status === "ran").length} of ${runs.length} examples ran; ${
      runs.reduce((n, r) => n + r.checks.length, 0)
    } written results checked; ${bad} wrong`,
  );
  process.exit(bad ? 1 : 0);
}
