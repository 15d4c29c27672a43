// Prepares a clone for `npm test` and `npm run demo`: npm dependencies, the native Polars
// binary and Deno; with --jupyter also Debian's Jupyter and a project-local `deno` kernelspec;
// with --chromium also Debian's Chromium (the tests open an HTML report in it, headless); with
// --lab also JupyterLab, with pip, in a project-local virtual environment (`npm run lab`).
// Each step checks first and does nothing when its work is already done. Plain Node with no
// dependencies: it runs before node_modules exists.
//
//   node scripts/setup.mjs [--jupyter] [--chromium] [--lab]
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executeNotebook, makeNotebook, notebookText } from "./jupyter.mjs";
import { denoPath, jupyterDataDir, jupyterPath, jupyterPython, kernelRelay, repoRoot, which } from "./paths.mjs";
import { jupyterLab } from "./labInstall.mjs";
import { KERNEL_V8_FLAGS, kernelSpec } from "./kernelSettings.mjs";
import { npmWithProgress } from "./npmProgress.mjs";
import { CommandError, run, runOrThrow } from "./run.mjs";
import process from "node:process";

const modules = join(repoRoot, "node_modules");
const npmFlags = ["--no-audit", "--no-fund"];
const debianPackages = ["jupyter-nbconvert", "python3-nbclient", "jupyter-client", "python3-ipykernel"];

async function npmDependencies() {
  const lock = join(repoRoot, "package-lock.json");
  const installed = join(modules, ".package-lock.json"); // npm's record of its last install
  const wanted = existsSync(lock) ? lock : join(repoRoot, "package.json");
  if (existsSync(installed) && statSync(wanted).mtimeMs <= statSync(installed).mtimeMs) {
    return "already present";
  }
  // npm is silent for a minute or more on a fresh clone: say how long and how far, as it goes.
  const report = (seconds, fetched) => {
    if (stepLineOpen) process.stdout.write("\n");
    stepLineOpen = false;
    console.log(`setup:   npm has run ${seconds} s, ${fetched} package${fetched === 1 ? "" : "s"} fetched so far`);
  };
  const command = existsSync(lock) ? "ci" : "install";
  const result = await npmWithProgress("npm", [command, ...npmFlags], { report });
  if (result.status !== 0 && command === "ci" && /package-lock\.json .*in sync/.test(result.stderr)) {
    const missing = result.stderr.split("\n").filter((line) => /Missing:|Invalid:/.test(line)).slice(0, 5);
    throw new Error(
      "package-lock.json is out of sync with package.json, so `npm ci` refuses it:\n" +
        missing.join("\n") + "\nRun `npm install` and then `node scripts/lockPlatforms.mjs` (it records other " +
        "platforms' native packages that this registry lacks), and commit package-lock.json.",
    );
  } else if (result.status !== 0) {
    throw new CommandError(
      `npm ${command} ${npmFlags.join(" ")}`,
      result,
      result.error ? result.error.message : `exit status ${result.status}`,
    );
  }
  // `npm install` may write package-lock.json after its own record; keep the record newest.
  if (existsSync(installed)) utimesSync(installed, new Date(), new Date());
  return `ok, ${result.fetched} packages fetched`;
}

async function polarsBinary() {
  const load = () => run(process.execPath, ["-e", 'require("nodejs-polars")']);
  if ((await load()).status === 0) return "already present";
  // The binary packages declare Node >= 22, so npm may skip them as optional dependencies.
  const polars = JSON.parse(readFileSync(join(modules, "nodejs-polars", "package.json"), "utf8"));
  const binary = `${binaryPackage(Object.keys(polars.optionalDependencies ?? {}))}@${polars.version}`;
  await runOrThrow("npm", ["install", "--no-save", ...npmFlags, binary]);
  const retry = await load();
  if (retry.status === 0) return `ok, installed ${binary}`;
  throw new Error(
    `nodejs-polars cannot load its native binary even after installing ${binary}:\n` +
      retry.stderr.trim().split("\n").slice(-10).join("\n"),
  );
}

function binaryPackage(names) {
  const prefix = `nodejs-polars-${process.platform}-${process.arch}`;
  if (process.platform !== "linux") return names.find((n) => n.startsWith(prefix)) ?? prefix;
  const glibc = Boolean(process.report?.getReport().header.glibcVersionRuntime);
  return `${prefix}-${glibc ? "gnu" : "musl"}`;
}

async function deno() {
  const hadNative = denoPath() !== join(modules, ".bin", "deno");
  // The npm package's launcher links the native binary into node_modules/deno on first run.
  const { stdout } = await runOrThrow(join(modules, ".bin", "deno"), ["--version"]);
  return `${hadNative ? "already present" : "ok"}, ${stdout.split(" (")[0]}`;
}

async function jupyterWorks() {
  const jupyter = jupyterPath();
  const python = jupyterPython(jupyter);
  if (!jupyter || !python) return false;
  const [nbconvert, imports] = await Promise.all([
    run(jupyter, ["nbconvert", "--version"]),
    run(python, ["-c", "import nbclient, ipykernel, jupyter_client"]),
  ]);
  return nbconvert.status === 0 && imports.status === 0;
}

async function jupyter() {
  if (!missing.jupyter) return "already present";
  await debianInstall;
  if (await jupyterWorks()) return `ok, installed ${debianPackages.join(" ")}`;
  throw new Error(
    `Installed ${debianPackages.join(" ")} but \`${jupyterPath() ?? "jupyter"} ` +
      "nbconvert --version` or `import nbclient, ipykernel, jupyter_client` still fails",
  );
}

/** Installs Debian packages with apt-get, through sudo when not root. */
async function aptInstall(what, packages, otherwise) {
  if (!which("apt-get")) {
    throw new Error(`${what} is missing and this machine has no apt-get: ${otherwise}, then run setup again`);
  }
  const root = process.getuid?.() === 0;
  const sudo = root ? [] : which("sudo") ? ["sudo", ...(process.stdin.isTTY ? [] : ["-n"])] : null;
  if (!sudo) {
    throw new Error(
      `Installing ${what} needs root and there is no sudo: as root run ` +
        `\`apt-get update && apt-get install -y ${packages.join(" ")}\``,
    );
  }
  const aptGet = (...args) => {
    const [cmd, ...rest] = [...sudo, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", ...args];
    return runOrThrow(cmd, rest);
  };
  await aptGet("update");
  await aptGet("install", "-y", "--no-install-recommends", ...packages);
}

const chromiumWorks = async () => Boolean(which("chromium")) && (await run("chromium", ["--version"])).status === 0;

async function chromium() {
  if (!missing.chromium) return "already present";
  await debianInstall;
  if (await chromiumWorks()) return "ok, installed chromium";
  throw new Error("Installed chromium but `chromium --version` still fails");
}

/**
 * Whether Jupyter and Chromium are wanted and missing, their Debian packages, and what to do
 * where apt-get cannot install them; no packages when nothing is missing.
 */
async function missingDebianPackages(wantJupyter, wantChromium) {
  const [jupyter, chromium] = await Promise.all([
    wantJupyter && jupyterWorks().then((works) => !works),
    wantChromium && chromiumWorks().then((works) => !works),
  ]);
  const lacking = [
    ...(jupyter
      ? [{
        what: "Jupyter",
        packages: debianPackages,
        otherwise: "install Jupyter with `pip install nbconvert nbclient ipykernel jupyter_client`",
      }]
      : []),
    ...(chromium ? [{ what: "Chromium", packages: ["chromium"], otherwise: "install Chromium so that `chromium` is on PATH" }] : []),
  ];
  return {
    jupyter,
    chromium,
    packages: lacking.flatMap((l) => l.packages),
    what: lacking.map((l) => l.what).join(" and "),
    otherwise: lacking.map((l) => l.otherwise).join(" and "),
  };
}

/**
 * Whether apt-get can run without asking anything: as root, or through a sudo that needs no
 * password. Only then does it run beside npm; a password prompt waits for its own turn.
 */
async function aptRunsUnattended() {
  if (process.getuid?.() === 0) return true;
  return Boolean(which("sudo")) && (await run("sudo", ["-n", "true"])).status === 0;
}

async function denoKernel() {
  const dir = join(jupyterDataDir, "kernels", "deno");
  // Deno is started through the relay (Debian's Python, whose pyzmq jupyter_client needs anyway):
  // without it the kernel stops answering after a page reload (docs/jupyter-kernel-reload.md).
  const spec = JSON.stringify(kernelSpec({ python: jupyterPython(), relay: kernelRelay, deno: denoPath() }), null, 2) + "\n";
  // The stamp records which kernelspec, jupyter and npm install last passed the check below.
  const installed = statSync(join(modules, ".package-lock.json")).mtimeMs;
  const stamp = JSON.stringify({ spec, jupyter: jupyterPath(), installed });
  const read = (file) => (existsSync(file) ? readFileSync(file, "utf8") : undefined);
  if (read(join(dir, "kernel.json")) === spec && read(join(dir, ".verified")) === stamp) {
    return "already present";
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "kernel.json"), spec);
  rmSync(join(dir, ".verified"), { force: true });
  await checkKernel();
  writeFileSync(join(dir, ".verified"), stamp);
  return "ok";
}

/**
 * The help index that Tab and Shift+Tab read in a notebook (kernel-helpers/editor/indexFile.ts),
 * built from the TypeScript sources with `deno doc` when missing or older than a source; the
 * kernel would build it on the first Tab otherwise.
 */
async function editorIndex() {
  const code = 'import { docIndex, INDEX_FILE } from "./kernel-helpers/editor/indexFile.ts";\n' +
    "const before = (() => { try { return Deno.statSync(INDEX_FILE).mtime?.getTime(); } catch { return undefined; } })();\n" +
    "const index = await docIndex(Deno.execPath());\n" +
    "console.log(JSON.stringify({ built: Deno.statSync(INDEX_FILE).mtime?.getTime() !== before, types: Object.keys(index.types).length }));";
  const { stdout } = await runOrThrow(denoPath(), ["eval", "--quiet", code], { label: "deno eval (the editor's help index)" });
  const { built, types } = JSON.parse(stdout.trim().split("\n").at(-1));
  return built ? `ok, ${types} types documented` : "already present";
}

async function checkKernel() {
  const tmp = mkdtempSync(join(tmpdir(), "setup-kernel-"));
  try {
    const input = join(tmp, "kernel-check.ipynb");
    const cells = [
      "console.log(1 + 1);",
      'import pl from "nodejs-polars";\npl.DataFrame({ x: [1, 2, 3] }).height',
      'console.log(Deno.env.get("DENO_V8_FLAGS"));',
    ];
    writeFileSync(input, JSON.stringify(makeNotebook(cells)));
    // Through the relay, as the kernelspec says: the check is of the kernelspec as installed.
    const { notebook } = await executeNotebook(input, tmp, { timeoutSeconds: 120, relay: true });
    const printed = notebookText(notebook).map((text) => text.trim());
    if (printed[0] !== "2" || printed[1] !== "3" || printed[2] !== KERNEL_V8_FLAGS) {
      throw new Error(
        `The deno kernel printed ${JSON.stringify(printed)}; expected ["2","3",${
          JSON.stringify(KERNEL_V8_FLAGS)
        }] (the last: its kernelspec's V8 flags)`,
      );
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Whether the current step's "name ..." line still waits for its status (no progress line printed since). */
let stepLineOpen = false;

async function step(name, action) {
  const started = performance.now();
  process.stdout.write(`setup: ${name} ... `);
  stepLineOpen = true;
  try {
    const status = await action();
    console.log(`${stepLineOpen ? "" : `setup: ${name}: `}${status} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    console.log("failed");
    console.error(`setup: ${name} failed: ${error.message}`);
    process.exit(1);
  }
}

const args = process.argv.slice(2);
const flags = ["--jupyter", "--chromium", "--lab"];
if (args.some((arg) => !flags.includes(arg))) {
  console.error(
    `setup: unknown argument ${args.find((a) => !flags.includes(a))}; ` +
      "usage: node scripts/setup.mjs [--jupyter] [--chromium] [--lab]",
  );
  process.exit(2);
}
// The Debian packages are installed in one apt-get run (one `apt-get update`), started before
// npm's install when nothing will ask for a password, so the two downloads overlap on a fresh
// machine; the steps that need the packages wait for it.
const wantJupyter = args.includes("--jupyter") || args.includes("--lab");
const missing = await missingDebianPackages(wantJupyter, args.includes("--chromium"));
/** Settles once the missing Debian packages are installed; started by `startDebianInstall`. */
let debianInstall = Promise.resolve();
const startDebianInstall = () => {
  debianInstall = missing.packages.length === 0 ? Promise.resolve() : aptInstall(missing.what, missing.packages, missing.otherwise);
  // Its failure is reported by the step that waits for it, not as an unhandled rejection meanwhile.
  debianInstall.catch(() => {});
};
const alongsideNpm = missing.packages.length > 0 && Boolean(which("apt-get")) && (await aptRunsUnattended());
if (alongsideNpm) {
  console.log(`setup: installing ${missing.packages.join(" ")} with apt-get, alongside npm`);
  startDebianInstall();
}
await step("npm dependencies", npmDependencies);
await step("polars native binary", polarsBinary);
await step("deno", deno);
if (!alongsideNpm) startDebianInstall();
if (wantJupyter) {
  await step("jupyter", jupyter);
  await step("deno kernel", denoKernel);
  await step("editor help index", editorIndex);
}
if (args.includes("--lab")) await step("jupyterlab", jupyterLab);
if (args.includes("--chromium")) await step("chromium", chromium);
