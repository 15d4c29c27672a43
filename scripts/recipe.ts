/**
 * `npm run notebook -- <path.ipynb> [--param key=value]... [--out <dir>] [--profile demo|tiny] [--data <dir>] [--base-url <url>] [--verify <manifest>]`
 * `npm run recipe -- <name> ...` (the same runner; a bare name is `recipes/<name>.ipynb`)
 *
 * Runs any notebook (or a recipe by name) with its parameters cell's defaults overridden, in
 * the Deno kernel, against the local sandbox; writes the executed notebook and its HTML report
 * to `--out` (default `out/notebooks/`, or `out/recipes/` for `npm run recipe`) and says where
 * they are, with the run's provenance manifest `<name>.provenance.json` (every data call's
 * request, dataset status and frame hash; see scripts/provenance/). `--verify <manifest>`
 * re-runs with the manifest's parameters, writes `<name>.rerun.provenance.json` and compares
 * every call's frame hash in order, then every download's partitions (rows and hash each).
 * Exits 2 on a bad command line (unknown notebook, unknown parameter, badly typed value,
 * unreadable manifest), 1 when the notebook fails or a verified call or download differs.
 * `--base-url <url>` runs against a sandbox already running there (with its demo full-access
 * key) instead of starting one; it is left running.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { injectParameters, ParameterError, parseParamArgs } from "./notebookParams.ts";
import { runNotebook, shown, summaryLine } from "./notebookRun.ts";
import { outDir, repoRoot } from "./paths.mjs";
import { NoSandboxError, openSandbox } from "./sandboxSession.ts";
import { withCollectCell } from "./provenance/cell.ts";
import type { RunManifest } from "../workbench/provenance/manifest.ts";

// Which npm script ran us: `notebook` and `recipe` differ only in their usage line and default --out.
const command = process.env.npm_lifecycle_event === "notebook" ? "notebook" : "recipe";
const USAGE = `usage: npm run ${command} -- <${
  command === "notebook" ? "path.ipynb" : "name"
}> [--param key=value]... [--out <dir>] [--profile demo|tiny] [--data <dir>] [--base-url <url>] [--timeout <seconds>] [--verify <manifest>]`;
const recipesDir = join(repoRoot, "recipes");

function fail(message: string, status = 2): never {
  console.error(`${command}: ${message}`);
  process.exit(status);
}

function recipeNames(): string[] {
  return existsSync(recipesDir) ? readdirSync(recipesDir).filter((f) => f.endsWith(".ipynb")).map((f) => basename(f, ".ipynb")).sort() : [];
}

/** `intraday-spread` is recipes/intraday-spread.ipynb; a name ending in .ipynb is a path. */
function recipePath(name: string): string {
  if (name.endsWith(".ipynb")) {
    const path = resolve(name);
    if (!existsSync(path)) fail(`Cannot find notebook '${name}'`);
    return path;
  }
  const path = join(recipesDir, `${name}.ipynb`);
  if (!existsSync(path)) fail(`Unknown recipe '${name}'; the recipes are: ${recipeNames().join(", ") || "none yet"}`);
  return path;
}

function parse() {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: {
        param: { type: "string", short: "p", multiple: true, default: [] },
        profile: { type: "string" },
        data: { type: "string" },
        "base-url": { type: "string" },
        out: { type: "string" },
        timeout: { type: "string", default: "600" },
        verify: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
}

const { values: args, positionals } = parse();
if (args.help || positionals.length === 0) {
  console.log(`${USAGE}\nrecipes: ${recipeNames().join(", ") || "none yet"}`);
  process.exit(args.help ? 0 : 2);
}
if (positionals.length > 1) {
  fail(`Give one recipe, not ${positionals.length} (${positionals.join(", ")}); parameters go after --param\n${USAGE}`);
}
if (args.profile !== undefined && args.profile !== "demo" && args.profile !== "tiny") {
  fail(`--profile '${args.profile}' must be demo or tiny`);
}
const baseUrl = args["base-url"];
if (baseUrl !== undefined) {
  if (args.profile !== undefined || args.data !== undefined) {
    fail(`--base-url uses the sandbox running there, on its own market: give no --profile or --data with it`);
  }
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    fail(`--base-url '${baseUrl}' is not an http(s) address such as http://127.0.0.1:8000`);
  }
}
const timeoutSeconds = Number(args.timeout);
if (!(timeoutSeconds > 0)) fail(`--timeout '${args.timeout}' must be a positive number of seconds`);

const input = recipePath(positionals[0]);
const name = basename(input, ".ipynb");
const label = `${command} ${name}`;
const notebook = JSON.parse(readFileSync(input, "utf8"));
let params: Record<string, string>;
let run;
let verified: RunManifest | undefined;
if (args.verify !== undefined) {
  if ((args.param as string[]).length > 0) fail("--verify takes its parameters from the manifest: give no --param with it");
  try {
    verified = JSON.parse(readFileSync(resolve(args.verify), "utf8")) as RunManifest;
  } catch (error) {
    fail(`Cannot read manifest '${args.verify}': ${(error as Error).message}`);
  }
  if (!Array.isArray(verified.calls) || typeof verified.parameters !== "object") {
    fail(`'${args.verify}' is not a provenance manifest (it has no calls and parameters)`);
  }
}
try {
  params = verified ? verified.parameters : parseParamArgs(args.param as string[]);
  run = withCollectCell(injectParameters(notebook, params, label));
} catch (error) {
  if (error instanceof ParameterError) fail(error.message);
  throw error;
}

const scratch = mkdtempSync(join(tmpdir(), `${command}-`));
const copy = join(scratch, `${name}.ipynb`);
writeFileSync(copy, JSON.stringify(run, null, 1));
const given = Object.entries(params).map(([k, v]) => `${k}=${v}`).join(" ");
console.log(`${command}: running ${shown(input)}${given ? ` with ${given}` : " with its defaults"}`);

// The provenance step and the comparison load much of the workbench: loaded once the command line
// is accepted, so a refused one (a typo, a wrong value) answers without them.
const { provenanceStep } = await import("./provenance/runHook.ts");
const provenance = provenanceStep({
  notebook: shown(input),
  notebookPath: input,
  parameters: params,
  suffix: verified ? ".rerun.provenance.json" : undefined,
});
const session = await openSandbox({
  profile: args.profile as "demo" | "tiny" | undefined,
  dataDir: args.data && resolve(args.data),
  baseUrl,
}).catch((error) => {
  provenance.close();
  rmSync(scratch, { recursive: true, force: true });
  if (error instanceof NoSandboxError) fail(error.message);
  throw error;
});
let result;
try {
  result = await runNotebook(copy, args.out ? resolve(args.out) : join(outDir, command === "notebook" ? "notebooks" : "recipes"), {
    name: shown(input),
    cwd: dirname(input), // relative imports resolve from the recipe's own folder
    env: { ...session.env, ...provenance.env },
    timeoutSeconds,
    beforeReport: provenance.beforeReport,
  });
} finally {
  await session.close();
  provenance.close();
  rmSync(scratch, { recursive: true, force: true });
}

console.log(summaryLine(result));
for (const error of result.errors) console.error(`\n${error}`);
if (result.ipynb) console.log(`executed notebook: ${shown(result.ipynb)}\nHTML report:       ${shown(result.html!)}`);
if (provenance.path()) console.log(`provenance:        ${shown(provenance.path()!)}`);
let differences = 0;
if (verified) {
  const rerun = provenance.manifest();
  if (!rerun) fail("verify: the re-run wrote no manifest to compare (jupyter itself failed)", 1);
  if (rerun.outcome === "failed") {
    console.log(
      `verify: the re-run failed at cell ${rerun.failedCell?.index} (${rerun.failedCell?.error}); comparing the calls made before it`,
    );
  }
  const { compareRuns } = await import("../workbench/provenance/compareRuns.ts");
  const verdict = compareRuns(verified, rerun);
  for (const line of verdict.lines) console.log(`verify: ${line}`);
  differences = verdict.differences;
  const downloads = Math.max(verified.downloads?.length ?? 0, rerun.downloads?.length ?? 0);
  const calls = Math.max(verified.calls.length, rerun.calls.length);
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const compared = [calls || !downloads ? count(calls, "call") : "", downloads ? count(downloads, "download") : ""].filter(Boolean).join(
    " and ",
  );
  console.log(
    `verify: ${
      differences === 0
        ? `identical: ${compared} gave the same frames`
        : `${differences} of ${calls + downloads} differ (${compared}) from ${args.verify}`
    }`,
  );
}
process.exit(result.errors.length === 0 && differences === 0 ? 0 : 1);
