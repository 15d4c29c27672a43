/**
 * The repository's formatter and linters, as the suite runs them (test/architecture/lint.test.ts):
 * `deno fmt --check`, `deno lint` and `deno doc --lint`, each read into a list of findings that
 * names its file. Their settings are deno.json's (`fmt`, `lint`); `deno doc --lint` has none, so
 * its modules are listed here ({@link docLintModules}).
 *
 * `deno run -A scripts/denoLint.ts` prints every finding of the three and exits 1 if there is one.
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import process from "node:process";
import { denoPath, repoRoot } from "./paths.mjs";
import { run } from "./run.mjs";

/** The folders and files whose every module `deno doc --lint` checks: the code a user imports. */
export const DOC_LINT_ROOTS: readonly string[] = [
  "workbench",
  "kernel-helpers",
  "contract",
  "calendar",
  "cli",
  "sandbox/launcher",
  "notebook.ts",
];

/** One finding: the tool's rule (or `fmt`), the file relative to the root with its line, and the message. */
export interface Finding {
  rule: string;
  /** `workbench/client.ts:12`, or the bare path when the tool names no line. */
  where: string;
  message: string;
}

const quiet = { ...process.env, NO_COLOR: "1", RUST_BACKTRACE: "0" };

/** `path` relative to the repository's root, from an absolute path or a `file://` URL. */
function fromRoot(path: string): string {
  return relative(repoRoot, path.replace(/^file:\/\//, ""));
}

/**
 * Every `.ts` module under {@link DOC_LINT_ROOTS}, relative to the root, sorted.
 *
 * @example
 * ```ts
 * docLintModules().includes("workbench/client.ts"); // true
 * ```
 */
export function docLintModules(root: string = repoRoot): string[] {
  return DOC_LINT_ROOTS.flatMap((entry) =>
    entry.endsWith(".ts") ? [entry] : readdirSync(join(root, entry), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
      .map((f) => `${entry}/${f}`)
  ).sort();
}

/**
 * The files `deno fmt --check` would change (all of the repository's, or `paths`), in its order.
 *
 * @example
 * ```ts
 * (await fmtCheck()).slice(0, 5); // the first files the formatter would change; [] when formatted
 * ```
 */
export async function fmtCheck(paths: readonly string[] = []): Promise<Finding[]> {
  const result = await run(denoPath(), ["fmt", "--check", ...paths], { cwd: repoRoot, env: quiet });
  const files = [...result.stderr.matchAll(/^from (\S.*):$/gm)].map((m) => ({
    rule: "fmt",
    where: fromRoot(m[1]),
    message: "not formatted",
  }));
  if (result.status !== 0 && files.length === 0) throw new Error(`deno fmt --check failed: ${result.stderr.trim() || result.error}`);
  return files;
}

/**
 * The diagnostics of `deno lint` (all of the repository, or `paths`), from its JSON report.
 *
 * @example
 * ```ts
 * (await lint()).map((f) => `${f.rule} ${f.where}`); // [] when clean
 * ```
 */
export async function lint(paths: readonly string[] = []): Promise<Finding[]> {
  const result = await run(denoPath(), ["lint", "--json", ...paths], { cwd: repoRoot, env: quiet });
  const report = JSON.parse(result.stdout || "{}") as {
    diagnostics?: { filename: string; range: { start: { line: number } }; code: string; message: string }[];
    errors?: { file_path: string; message: string }[];
  };
  if (!report.diagnostics) throw new Error(`deno lint failed: ${result.stderr.trim() || result.error}`);
  return [
    ...report.diagnostics.map((d) => ({ rule: d.code, where: `${fromRoot(d.filename)}:${d.range.start.line}`, message: d.message })),
    ...(report.errors ?? []).map((e) => ({ rule: "parse", where: fromRoot(e.file_path), message: e.message })),
  ];
}

/**
 * The findings of `deno doc --lint` on `modules` (by default every module it checks), in one
 * process: missing JSDoc, missing explicit types, references to types that are not exported.
 *
 * @example
 * ```ts
 * (await docLint(["workbench/research/spreads.ts"])).length; // 0 when every export is documented
 * ```
 */
export async function docLint(modules: readonly string[] = docLintModules()): Promise<Finding[]> {
  const result = await run(denoPath(), ["doc", "--lint", ...modules], { cwd: repoRoot, env: quiet });
  const findings = [...result.stderr.matchAll(/^error\[([\w-]+)\]: (.*)\n\s+--> (\S+?):(\d+):\d+/gm)]
    .map((m) => ({ rule: m[1], where: `${fromRoot(m[3])}:${m[4]}`, message: m[2] }));
  if (result.status !== 0 && findings.length === 0) throw new Error(`deno doc --lint failed: ${result.stderr.trim() || result.error}`);
  return findings;
}

if (import.meta.main) {
  const [formatting, linting, docs] = await Promise.all([fmtCheck(), lint(), docLint()]);
  for (const f of [...formatting, ...linting, ...docs]) console.log(`${f.rule.padEnd(22)} ${f.where}  ${f.message}`);
  console.log(`deno fmt --check: ${formatting.length} files; deno lint: ${linting.length}; deno doc --lint: ${docs.length}`);
  process.exit(formatting.length + linting.length + docs.length === 0 ? 0 : 1);
}
