/**
 * `market-workbench kernel`: installs the project's Deno kernel into the user's Jupyter, as
 * `jupyter kernelspec install` does for any kernel: Deno (this package's) started behind the
 * relay that keeps it answering after a page reload (docs/jupyter-kernel-reload.md), with the
 * notebook kernel's V8 flags. The relay's files are copied into the kernelspec's own folder
 * (`{resource_dir}`), so the kernel does not depend on where this package was installed from
 * but for Deno; running the command again updates it.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { kernelSpec } from "../scripts/kernelSettings.mjs";
import { jupyterPython, which } from "../scripts/paths.mjs";
import { denoExecutable } from "../sandbox/launcher/mod.ts";
import { packageRoot } from "./packageRoot.ts";

/** The command's usage. */
export const KERNEL_USAGE = `usage: market-workbench kernel [--name NAME] [--display-name TEXT] [--user | --sys-prefix | --prefix DIR]
                               [--jupyter PATH] [--python PATH]
Installs the project's Deno kernel (named NAME, default market-workbench) into Jupyter's kernels:
for this user by default, or into the Python environment of Jupyter (--sys-prefix) or under DIR.
--jupyter: the jupyter command (default: jupyter on PATH); --python: the Python that runs the relay
(default: the one jupyter runs on; it needs pyzmq, which Jupyter itself needs).`;

/** What `market-workbench kernel` did: the kernel's name and where Jupyter put it. */
export interface KernelInstall {
  /** The kernel's name, as notebooks' metadata and `--kernel_name` give it. */
  name: string;
  /** Jupyter's own line, e.g. "Installed kernelspec market-workbench in /home/me/.local/share/jupyter/kernels/market-workbench". */
  message: string;
}

/** A failure of `market-workbench kernel` that names its cause and the fix. */
export class KernelInstallError extends Error {
  /** An error whose message says what failed and how to fix it. */
  constructor(message: string) {
    super(message);
    this.name = "KernelInstallError";
  }
}

/**
 * Installs the kernel as `args` ask (see KERNEL_USAGE). Throws KernelInstallError naming the
 * fix when Jupyter, its Python's pyzmq or Deno is missing, or `jupyter kernelspec install` fails.
 *
 * @example
 * ```ts
 * import { installKernel } from "./cli/kernel.ts";
 * console.log(installKernel(["--name", "market-workbench"]).message);
 * ```
 */
export function installKernel(args: readonly string[]): KernelInstall {
  const { values } = parseArgs({
    args: [...args],
    options: {
      name: { type: "string", default: "market-workbench" },
      "display-name": { type: "string", default: "Deno (market-workbench)" },
      user: { type: "boolean" },
      "sys-prefix": { type: "boolean" },
      prefix: { type: "string" },
      jupyter: { type: "string" },
      python: { type: "string" },
    },
  });
  const name = values.name!;
  // Jupyter's own rule for kernel names.
  if (!/^[a-z0-9._-]+$/i.test(name)) throw new KernelInstallError(`--name '${name}': a kernel's name is letters, digits, '.', '_' and '-'`);
  const jupyter = values.jupyter ?? which("jupyter");
  if (!jupyter) {
    throw new KernelInstallError(
      "Jupyter is not installed here (no `jupyter` on PATH): install JupyterLab (`pip install jupyterlab`) or give --jupyter PATH, then run this again",
    );
  }
  const python = values.python ?? jupyterPython(jupyter);
  if (!python) throw new KernelInstallError(`Cannot tell which Python ${jupyter} runs on: give --python PATH`);
  const zmq = spawnSync(python, ["-c", "import zmq"], { encoding: "utf8" });
  if (zmq.status !== 0) {
    throw new KernelInstallError(
      `The relay runs on ${python}, which cannot import zmq: \`${python} -m pip install pyzmq\`, or give --python PATH`,
    );
  }
  const deno = denoExecutable();
  const dir = mkdtempSync(join(tmpdir(), "market-workbench-kernel-"));
  try {
    const relayDir = join(packageRoot().dir, "scripts", "jupyter-kernel");
    for (const file of readdirSync(relayDir).filter((f) => f.endsWith(".py"))) copyFileSync(join(relayDir, file), join(dir, file));
    const spec = kernelSpec({ python, relay: "{resource_dir}/relay.py", deno, displayName: values["display-name"] });
    writeFileSync(join(dir, "kernel.json"), JSON.stringify(spec, null, 2) + "\n");
    const where = values.prefix !== undefined ? ["--prefix", values.prefix] : values["sys-prefix"] ? ["--sys-prefix"] : ["--user"];
    const result = spawnSync(jupyter, ["kernelspec", "install", dir, "--name", name, ...where], { encoding: "utf8" });
    const said = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
    if (result.status !== 0) {
      throw new KernelInstallError(`\`jupyter kernelspec install\` failed${result.error ? ` (${result.error.message})` : ""}:\n${said}`);
    }
    return { name, message: said.split("\n").find((l) => /Installed kernelspec/.test(l)) ?? said };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
