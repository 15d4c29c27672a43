// JupyterLab for `npm run lab`: installed with pip into a project-local virtual environment
// (.cache/jupyterlab), so it neither needs root nor touches Debian's Python packages. Plain Node,
// no dependencies: scripts/setup.mjs imports it before node_modules exists.
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { jupyterPython, labJupyter, labVenv } from "./paths.mjs";
import { run } from "./run.mjs";

/** JupyterLab could not be installed; the message says why and what to do instead. */
export class LabInstallError extends Error {
  constructor(message) {
    super(message);
    this.name = "LabInstallError";
  }
}

/** True when the project's JupyterLab environment runs `jupyter lab --version`. */
export async function labWorks() {
  return existsSync(labJupyter) && (await run(labJupyter, ["lab", "--version"])).status === 0;
}

const tail = (text) => text.trim().split("\n").slice(-8).join("\n");

/**
 * Installs JupyterLab into `.cache/jupyterlab` unless it already runs there; a setup step.
 *
 * @returns {Promise<string>} what was done, for setup's log line
 * @throws {LabInstallError} naming the failing step (no Python, no venv module, no reachable
 *   package index) and what to run by hand
 * @example
 * console.log(await jupyterLab()); // "already present" or "ok, installed jupyterlab 4.6.4"
 */
export async function jupyterLab() {
  if (await labWorks()) return "already present";
  // One installer at a time (test files may ask at once): a lock folder, waited for up to 30 minutes.
  const lock = `${labVenv}.installing`;
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    try {
      mkdirSync(dirname(lock), { recursive: true });
      mkdirSync(lock);
      break;
    } catch {
      if (await labWorks()) return "already present";
      if (Date.now() > deadline) break; // a lock left by a killed install
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  try {
    return await installLab();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * pip's index arguments: none where PyPI answers; where it does not and pip is configured with
 * extra indexes (an offline mirror), the first of them as the index, so pip does not wait on
 * PyPI for each of JupyterLab's ~80 packages (minutes, against seconds).
 */
async function mirrorFirst(python) {
  const probe = await run(python, ["-c", "import socket; socket.create_connection(('pypi.org', 443), 3).close()"]);
  if (probe.status === 0) return [];
  const extra = (await run(python, ["-m", "pip", "config", "get", "global.extra-index-url"])).stdout.trim().split(/\s+/).filter(Boolean);
  if (extra.length === 0) return [];
  return ["--index-url", extra[0], ...extra.slice(1).flatMap((url) => ["--extra-index-url", url])];
}

async function installLab() {
  if (await labWorks()) return "already present";
  const python = jupyterPython();
  if (!python) throw new LabInstallError("No Python found to install JupyterLab with: run `node scripts/setup.mjs --jupyter` first");
  if (!existsSync(labJupyter)) {
    rmSync(labVenv, { recursive: true, force: true });
    const venv = await run(python, ["-m", "venv", labVenv]);
    if (venv.status !== 0) {
      throw new LabInstallError(`\`${python} -m venv ${labVenv}\` failed (on Debian install python3-venv):\n${tail(venv.stderr)}`);
    }
  }
  // --no-compile: pip would byte-compile every module of JupyterLab and its dependencies, half
  // the install's CPU; Python compiles the ones a server imports when it first imports them.
  const pip = await run(`${labVenv}/bin/python`, [
    "-m",
    "pip",
    "install",
    "--disable-pip-version-check",
    "--no-compile",
    ...(await mirrorFirst(`${labVenv}/bin/python`)),
    "jupyterlab",
  ]);
  if (pip.status !== 0) {
    const offline =
      /No matching distribution|Could not find a version|NewConnectionError|Name or service not known|Network is unreachable|ProxyError/
        .test(pip.stderr);
    throw new LabInstallError(
      (offline
        ? "JupyterLab is not installed and pip could not get it: no package index that holds jupyterlab is reachable from this machine. " +
          `Configure pip's index (pip config, PIP_INDEX_URL) and run \`npm run lab\` again, or install it yourself with \`${labVenv}/bin/pip install jupyterlab\`.`
        : `\`pip install jupyterlab\` into ${labVenv} failed.`) + `\npip said:\n${tail(pip.stderr)}`,
    );
  }
  const version = await run(labJupyter, ["lab", "--version"]);
  if (version.status !== 0) {
    throw new LabInstallError(`Installed jupyterlab but \`${labJupyter} lab --version\` fails:\n${tail(version.stderr)}`);
  }
  return `ok, installed jupyterlab ${version.stdout.trim()}`;
}
