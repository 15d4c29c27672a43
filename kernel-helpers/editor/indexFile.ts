/**
 * The help index on disk (`.cache/editor/doc-index.json` in the repository): built with
 * `deno doc --json` from notebook.ts and from nodejs-polars' declaration files, read back
 * while its sources are unchanged, built again when one changed. Setup builds it
 * (`node scripts/setup.mjs --jupyter`), so the first Tab in a notebook finds it ready.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { DOC_INDEX_VERSION, type DocIndex, type DocNode, indexFromDocs } from "./docIndex.ts";
import process from "node:process";

/** The repository this module is in. */
export const REPO_ROOT: string = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Where the index is kept. */
export const INDEX_FILE: string = join(REPO_ROOT, ".cache", "editor", "doc-index.json");

/** Polars' declaration files read: its frames, series, expressions, lazy frames, their traits and namespaces, and `pl.` functions. */
const POLARS_FILES = [
  "dataframe.d.ts",
  "series/index.d.ts",
  "lazy/expr/index.d.ts",
  "lazy/dataframe.d.ts",
  "shared_traits.d.ts",
  "groupby.d.ts",
  "lazy/groupby.d.ts",
  "lazy/functions.d.ts",
  "functions.d.ts",
  "io.d.ts",
  "lazy/whenthen.d.ts",
  "lazy/expr/string.d.ts",
  "lazy/expr/datetime.d.ts",
  "lazy/expr/list.d.ts",
  "lazy/expr/struct.d.ts",
  "series/string.d.ts",
  "series/datetime.d.ts",
  "series/list.d.ts",
  "series/struct.d.ts",
];

const mtime = (file: string) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
};

/** Whether `index` was built from the sources as they are now. */
function fresh(index: DocIndex): boolean {
  return index.version === DOC_INDEX_VERSION && Object.entries(index.sources).every(([file, time]) => mtime(file) === time);
}

function runDenoDoc(deno: string, args: string[]): Promise<DocNode[]> {
  return new Promise((resolve, reject) => {
    execFile(
      deno,
      ["doc", "--json", ...args],
      { cwd: REPO_ROOT, maxBuffer: 256 * 2 ** 20, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`deno doc ${args.join(" ")} failed: ${stderr.trim().split("\n").slice(0, 3).join(" ")}`));
        const parsed = JSON.parse(stdout) as DocNode[] | { nodes: DocNode[] };
        resolve(Array.isArray(parsed) ? parsed : parsed.nodes);
      },
    );
  });
}

/** Every `.d.ts` file under `dir`, relative to it. */
function declarationFiles(dir: string, under = ""): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? declarationFiles(dir, join(under, e.name)) : e.name.endsWith(".d.ts") ? [join(under, e.name)] : []
  );
}

/**
 * Builds the index with `deno` (the executable) and writes it to INDEX_FILE. Polars'
 * declarations are copied out of node_modules first: `deno doc` does not document files
 * there, and reads their extensionless imports only with sloppy imports.
 *
 * @example
 * ```ts
 * const index = await buildDocIndex(Deno.execPath());
 * index.types.DataFrame.members.length; // about 150
 * ```
 */
export async function buildDocIndex(deno: string): Promise<DocIndex> {
  const polarsDir = join(REPO_ROOT, "node_modules", "nodejs-polars", "bin");
  // A copy of this process's own: kernels and setup may build at the same time.
  const copy = join(dirname(INDEX_FILE), `polars-dts-${process.pid}`);
  rmSync(copy, { recursive: true, force: true });
  let module: DocNode[], polars: DocNode[];
  try {
    for (const file of declarationFiles(polarsDir)) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(polarsDir, file), join(copy, file));
    }
    [module, polars] = await Promise.all([
      runDenoDoc(deno, ["notebook.ts"]),
      runDenoDoc(deno, ["--unstable-sloppy-imports", ...POLARS_FILES.map((f) => relative(REPO_ROOT, join(copy, f)))]),
    ]);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  const sources: Record<string, number> = { [join(REPO_ROOT, "node_modules", "nodejs-polars", "package.json")]: 0 };
  for (const node of module) if (node.location.filename.startsWith("file://")) sources[fileURLToPath(node.location.filename)] = 0;
  for (
    const file of [join(REPO_ROOT, "notebook.ts"), join(REPO_ROOT, "workbench", "mod.ts"), join(REPO_ROOT, "kernel-helpers", "mod.ts")]
  ) sources[file] = 0;
  for (const file of Object.keys(sources)) sources[file] = mtime(file);
  const index = indexFromDocs(module, polars, sources);
  mkdirSync(dirname(INDEX_FILE), { recursive: true });
  const tmp = `${INDEX_FILE}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(index));
  renameSync(tmp, INDEX_FILE); // atomic: kernels building at once each write a whole index
  return index;
}

let loaded: { index: DocIndex; checked: number } | undefined;
let building: Promise<DocIndex> | undefined;

/**
 * The index: kept in memory, read from INDEX_FILE, or built when it is missing or a source
 * changed since (checked at most every few seconds).
 *
 * @example
 * ```ts
 * const index = await docIndex(Deno.execPath());
 * index.types.DataApi.members[0].name; // "eqTaq1Min"
 * ```
 */
export async function docIndex(deno: string): Promise<DocIndex> {
  if (loaded && (Date.now() - loaded.checked < 5000 || fresh(loaded.index))) {
    loaded.checked = Date.now();
    return loaded.index;
  }
  if (existsSync(INDEX_FILE)) {
    try {
      const index = JSON.parse(readFileSync(INDEX_FILE, "utf8")) as DocIndex;
      if (fresh(index)) return (loaded = { index, checked: Date.now() }).index;
    } catch {
      // unreadable (a write cut short): built again below
    }
  }
  building ??= buildDocIndex(deno).finally(() => (building = undefined));
  const index = await building;
  loaded = { index, checked: Date.now() };
  return index;
}
