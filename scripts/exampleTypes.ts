/**
 * `deno run -A scripts/exampleTypes.ts [<module.ts>...]`: type-checks every ```ts block in the
 * JSDoc of the public modules (`workbench/mod.ts`, `kernel-helpers/mod.ts`, `notebook.ts`,
 * `sandbox/launcher/mod.ts` and every file they export from), so an example a user pastes compiles. Errors name the symbol,
 * its file and line, and the line inside the example.
 *
 * Each example becomes one module. It sees, unless it declares the same name itself:
 * - every export of `notebook.ts`, as if imported from it;
 * - `pl` (nodejs-polars), `wb` (a connected `Workbench`) and `df` (a `pl.DataFrame`).
 * That is the whole preamble ({@link PREAMBLE_NAMES}): an example that needs anything else
 * declares or imports it. Relative imports resolve from the repository's root, as a user of
 * `./workbench/mod.ts` at the root would write them.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { denoPath, repoRoot } from "./paths.mjs";
import { run } from "./run.mjs";
import { typeCheck, type TypeCheckSet } from "./typeCheck.ts";

/** The modules whose exports are public: their examples are checked. */
export const PUBLIC_MODULES: readonly string[] = ["workbench/mod.ts", "kernel-helpers/mod.ts", "notebook.ts", "sandbox/launcher/mod.ts"];

/** The names an example may use without declaring them, and what each is. */
export const PREAMBLE_NAMES: Readonly<Record<string, string>> = {
  pl: 'import pl from "nodejs-polars";',
  wb: "declare const wb: Workbench;",
  df: "declare const df: pl.DataFrame;",
};

/** One ```ts block of a JSDoc comment. */
export interface Example {
  /** Where it is written: `workbench/client.ts:217 connect` (the documented symbol's line). */
  where: string;
  /** The block's code, without the fences. */
  code: string;
  /** False for an `@example` with no ```ts block: it cannot be checked, and fails for that. */
  fenced?: boolean;
}

/** One example's verdict: empty `errors` when it type-checks. */
export interface ExampleTypes extends Example {
  /** `deno check`'s messages, each with the line inside the example. */
  errors: string[];
}

interface DocNode {
  name?: string;
  kind?: string;
  declarationKind?: string;
  location?: { filename: string; line: number };
  jsDoc?: { doc?: string; tags?: { kind: string; doc?: string }[] };
  [key: string]: unknown;
}

/** `deno doc --json` of `modules`: every documented node, nested members included. */
async function docNodes(modules: readonly string[]): Promise<DocNode[]> {
  const result = await run(denoPath(), ["doc", "--json", ...modules], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: "1", RUST_BACKTRACE: "0" },
  });
  if (result.status !== 0) throw new Error(`deno doc --json ${modules.join(" ")} failed: ${result.stderr.trim() || result.error}`);
  return (JSON.parse(result.stdout) as { nodes: DocNode[] }).nodes;
}

/**
 * Every ```ts block in the JSDoc of `modules` and of the files they export from, once each
 * (a symbol re-exported by two modules is documented once), and every `@example` without one
 * (`fenced: false`).
 *
 * @example
 * ```ts
 * const examples = await exampleBlocks(["workbench/mod.ts"]);
 * examples.map((e) => e.where); // ["workbench/mod.ts:1 (module)", "workbench/client.ts:217 connect", ...]
 * ```
 */
export async function exampleBlocks(modules: readonly string[] = PUBLIC_MODULES): Promise<Example[]> {
  const found = new Map<string, Example>();
  // `parent` is the nearest documented declaration: a member (a method, a field) is named
  // after its owner, `Workbench.download`.
  const visit = (value: unknown, parent: { at: string; name: string }): void => {
    if (Array.isArray(value)) return value.forEach((v) => visit(v, parent));
    if (!value || typeof value !== "object") return;
    const node = value as DocNode;
    // An import carries the module's doc again when it follows it (kernel-helpers/mod.ts).
    if (node.kind === "import") return;
    // A module's own doc has an empty name.
    const name = node.kind === "moduleDoc" ? "(module)" : node.name;
    const self = name && node.location
      ? {
        at: `${relative(repoRoot, fileURLToPath(node.location.filename))}:${node.location.line}`,
        name: parent.name ? `${parent.name}.${name}` : name,
      }
      : parent;
    const where = `${self.at} ${self.name}`.trim();
    const texts = [node.jsDoc?.doc ?? "", ...(node.jsDoc?.tags ?? []).map((t) => t.doc ?? "")];
    for (const text of texts) {
      for (const block of text.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)) {
        found.set(`${where}\n${block[1]}`, { where, code: block[1] });
      }
    }
    for (const tag of node.jsDoc?.tags ?? []) {
      if (tag.kind === "example" && !/```(?:ts|typescript)\n/.test(tag.doc ?? "")) {
        found.set(`${where}\n${tag.doc}`, { where, code: tag.doc ?? "", fenced: false });
      }
    }
    for (const [key, child] of Object.entries(node)) if (key !== "jsDoc" && key !== "location") visit(child, self);
  };
  for (const node of await docNodes(modules)) visit(node, { at: "", name: "" });
  return [...found.values()];
}

/**
 * The names `code` declares or imports at its top level (a regex reading, not a parser).
 *
 * @example
 * ```ts
 * declaredNames('import { a as b } from "./x.ts";\nconst wb = 1;'); // Set { "b", "wb" }
 * ```
 */
export function declaredNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/\b(?:const|let|var|function|class|interface|type)\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1]);
  for (const m of code.matchAll(/\bconst\s*\{([^}]*)\}/g)) for (const n of m[1].split(",")) names.add(n.split(":").pop()!.trim());
  for (const m of code.matchAll(/^\s*import\s+([\s\S]*?)\s+from\s/gm)) {
    for (const part of m[1].replace(/[{}]/g, ",").split(",")) {
      const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()!.replace(/^\*\s*/, "").trim();
      if (name) names.add(name);
    }
  }
  return names;
}

/** Relative specifiers moved one folder up: the module sits in a folder under the root. */
function fromRoot(code: string): string {
  return code.replace(/((?:from|import)\s*\(?\s*["'])(\.\.?\/)/g, (_, head, dots) => `${head}${dots === "./" ? "../" : "../../"}`);
}

/**
 * One example as a module (written one folder below the root): the preamble first, on two lines
 * so the example's line numbers stay its own plus two, then the example.
 *
 * @example
 * ```ts
 * exampleModule("const n: number = wb.data ? 1 : 0;", [{ name: "Workbench", type: true }]);
 * ```
 */
export function exampleModule(code: string, exports: readonly { name: string; type: boolean }[]): string {
  const own = declaredNames(code);
  const imported = exports.filter((e) => !own.has(e.name)).map((e) => (e.type ? `type ${e.name}` : e.name));
  const preamble = [
    imported.length ? `import { ${imported.join(", ")} } from "../notebook.ts";` : "",
    ...Object.entries(PREAMBLE_NAMES).filter(([name]) => !own.has(name)).map(([, text]) => text),
  ].filter(Boolean);
  // `export {}` keeps it a module (top-level await, no global clashes) even without imports.
  // The kernel's own API (Deno.jupyter) is typed in Deno's unstable library.
  return `/// <reference lib="deno.unstable" />\n${preamble.join(" ")}\n${fromRoot(code)}\nexport {};\n`;
}

/** The exports of notebook.ts, and whether each is a type only. */
async function publicExports(): Promise<{ name: string; type: boolean }[]> {
  const nodes = await docNodes(["notebook.ts"]);
  const kinds = new Map<string, Set<string>>();
  for (const n of nodes) {
    if (n.declarationKind !== "export" || !n.name || n.kind === "reference" || n.kind === "import") continue;
    kinds.set(n.name, (kinds.get(n.name) ?? new Set()).add(n.kind ?? ""));
  }
  return [...kinds].map(([name, k]) => ({ name, type: [...k].every((kind) => kind === "interface" || kind === "typeAlias") }));
}

/**
 * The examples' modules, written in a folder of their own for one check (see typeCheck.ts), and
 * how their verdicts (each error with the line inside its example) are read from it.
 *
 * @example
 * ```ts
 * const [results] = await typeCheck(await exampleCheck(await exampleBlocks()));
 * ```
 */
export async function exampleCheck(examples: readonly Example[]): Promise<TypeCheckSet<ExampleTypes[]>> {
  const dir = mkdtempSync(join(repoRoot, ".examples-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const exports = await publicExports();
    const modules = examples.map((example, i) => {
      const file = join(dir, `example${i}.ts`);
      writeFileSync(file, exampleModule(example.fenced === false ? "" : example.code, exports));
      return { example, file };
    });
    return {
      files: modules.map((m) => m.file),
      verdicts: (checked) => {
        const verdicts: ExampleTypes[] = modules.map(({ example: { where, code, fenced }, file }) => ({
          where,
          code,
          ...(fenced === false ? { fenced } : {}),
          errors: [
            ...(fenced === false ? ["an @example without a ```ts block: fence its code so that it is checked"] : []),
            ...(checked.errors.get(file) ?? []).map((e) => `line ${e.line - 2}: ${e.message}`),
          ],
        }));
        // What names no example's line (an import that does not resolve): the example it names, else the first.
        for (const text of checked.unattributed) {
          const named = modules.findIndex((m) => text.includes(m.file));
          verdicts[Math.max(0, named)]?.errors.push(text);
        }
        return verdicts;
      },
      cleanup,
    };
  } catch (e) {
    cleanup();
    throw e;
  }
}

/**
 * Type-checks each example with one `deno check`; never throws for a type error (it comes back
 * in `errors`, with the line inside the example).
 *
 * @example
 * ```ts
 * const results = await checkExampleTypes(await exampleBlocks());
 * results.filter((r) => r.errors.length > 0); // [] when every example compiles
 * ```
 */
export async function checkExampleTypes(examples: readonly Example[]): Promise<ExampleTypes[]> {
  const [verdicts] = await typeCheck(await exampleCheck(examples));
  return verdicts;
}

if (import.meta.main) {
  const modules = process.argv.slice(2).length ? process.argv.slice(2) : PUBLIC_MODULES;
  const results = await checkExampleTypes(await exampleBlocks(modules));
  const failed = results.filter((r) => r.errors.length > 0);
  for (const r of failed) console.log(`FAILED  ${r.where}\n${r.errors.map((e) => `  ${e}`).join("\n")}`);
  console.log(`${results.length - failed.length} of ${results.length} examples type-check`);
  process.exit(failed.length === 0 ? 0 : 1);
}
