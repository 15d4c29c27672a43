// `npm run build` (and `npm pack` through `prepack`): the installable package's JavaScript and
// type declarations in dist/, from the TypeScript sources (tsconfig.build.json): the public
// modules (workbench/mod.ts, notebook.ts, sandbox/launcher/mod.ts), the command (cli/main.ts),
// and the sandbox service with its market generator, which the launcher runs under Deno. tsc
// emits without checking types (--noCheck): the test suite checks them (`deno check`, which
// knows the Deno API the service uses and tsc does not), and one compilation without a check
// costs half of a checked one beside an unchecked one for the service. The service's
// declarations are dropped: nothing a user imports refers to them. The sources import with
// `.ts` extensions, rewritten to `.js`; what tsc leaves (worker URLs; specifiers in
// declarations) is rewritten here, and a `.ts` specifier left anywhere fails the build.
// A build whose inputs (the sources, the build's configuration, TypeScript and the locked
// dependencies) hash as the last one did leaves dist/ as it is (`--force` builds anyway): the
// package's test packs it on every run.
//
//   node scripts/build.mjs [--force]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { cacheDir, repoRoot } from "./paths.mjs";
import process from "node:process";

const dist = join(repoRoot, "dist");
const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");

function compile(project, extra = []) {
  const result = spawnSync(process.execPath, [tsc, "-p", join(repoRoot, project), ...extra], { cwd: repoRoot, encoding: "utf8" });
  if (result.status !== 0) {
    console.error(`build: tsc -p ${project} ${extra.join(" ")} failed:\n${result.stdout}${result.stderr}`);
    process.exit(1);
  }
}

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Relative module specifiers ending in `.ts`: in from/import(...) and in `new URL("./x.ts", import.meta.url)`. */
const TS_SPECIFIER = /((?:\bfrom\s*|\bimport\s*\(?\s*|\bnew URL\(\s*)["'])(\.{1,2}\/[^"']*?)\.ts(["'])/g;

/** What dist/ is made from: every file of the compiled folders, and what decides how they compile. */
function inputsHash() {
  const folders = ["workbench", "kernel-helpers", "calendar", "contract", "sandbox", "cli"];
  const single = [
    "notebook.ts",
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    "tsconfig.build.json",
    "scripts/build.mjs",
    "scripts/kernelSettings.mjs",
    "scripts/paths.mjs",
    "node_modules/typescript/package.json",
  ];
  const paths = [...folders.flatMap((f) => [...files(join(repoRoot, f))]), ...single.map((f) => join(repoRoot, f)).filter(existsSync)]
    .sort();
  const hash = createHash("sha256");
  for (const path of paths) hash.update(`${relative(repoRoot, path)}\0`).update(readFileSync(path)).update("\0");
  return hash.digest("hex");
}

const stamp = join(cacheDir, "build-inputs.sha256");
const inputs = inputsHash();
if (!process.argv.includes("--force") && existsSync(dist) && existsSync(stamp) && readFileSync(stamp, "utf8") === inputs) {
  console.log("build: dist/ is up to date with its inputs (--force builds anyway)");
  process.exit(0);
}
rmSync(stamp, { force: true });
rmSync(dist, { recursive: true, force: true });
compile("tsconfig.build.json", ["--noCheck"]);
for (const folder of ["service", "market"]) {
  for (const file of files(join(dist, "sandbox", folder))) if (file.endsWith(".d.ts")) rmSync(file);
}
const left = [];
let count = 0;
for (const file of files(dist)) {
  count++;
  if (!/\.(d\.)?m?[jt]s$/.test(file)) continue;
  const text = readFileSync(file, "utf8");
  const rewritten = text.replace(TS_SPECIFIER, "$1$2.js$3");
  if (rewritten !== text) writeFileSync(file, rewritten);
  // Outside comments: a line of code, not of a JSDoc block or a // comment.
  for (const line of rewritten.split("\n")) {
    if (/^\s*(\*|\/\/)/.test(line)) continue;
    if (/["']\.{1,2}\/[^"']*\.ts["']/.test(line)) left.push(`${relative(repoRoot, file)}: ${line.trim()}`);
    // A module loaded by URL (a worker) is no import tsc follows: tsconfig.build.json must name it.
    for (const [, target] of line.matchAll(/new URL\(\s*["'](\.{1,2}\/[^"']+\.js)["'],\s*import\.meta\.url/g)) {
      if (!existsSync(join(dirname(file), target))) {
        left.push(`${relative(repoRoot, file)}: ${target} was not built (add its source to tsconfig.build.json's files)`);
      }
    }
  }
}
if (left.length > 0) {
  console.error(`build: modules the installed package would not load:\n${left.join("\n")}`);
  process.exit(1);
}
mkdirSync(cacheDir, { recursive: true });
writeFileSync(stamp, inputs);
console.log(`build: dist/ holds ${count} files`);
