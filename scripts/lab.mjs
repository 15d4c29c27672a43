// `npm run lab`: JupyterLab on the project's notebooks with the Deno kernel. Runs the setup
// (`scripts/setup.mjs --jupyter --lab`: Jupyter, the `deno` kernelspec, JupyterLab in
// .cache/jupyterlab), then `jupyter lab` in notebooks/ with `deno` as the default kernel and the
// project's kernelspec found through JUPYTER_PATH, and prints the URL with its token.
//
//   node scripts/lab.mjs [--no-setup] [JUPYTER LAB OPTION ...]   e.g. --port=9999
//
// Options other than --no-setup go to `jupyter lab` after the project's own, so they win; a
// --ServerApp.root_dir or --notebook-dir of the caller replaces notebooks/.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { jupyterEnv, labJupyter, labVenv, repoRoot } from "./paths.mjs";
import process from "node:process";

const args = process.argv.slice(2);
// Jupyter takes its root folder once only: the caller's, when given, replaces notebooks/.
const ownRoot = args.some((arg) => /^--(ServerApp\.root_dir|notebook-dir)\b/.test(arg));
if (!args.includes("--no-setup")) {
  const setup = spawnSync(process.execPath, [join(repoRoot, "scripts", "setup.mjs"), "--jupyter", "--lab"], { stdio: "inherit" });
  if (setup.status !== 0) process.exit(setup.status ?? 1);
}

/**
 * Defaults of the project's JupyterLab (its own environment's overrides.json; a user's settings
 * still win). Completion: JupyterLab ignores a provider that answers after 1 s, and the Deno
 * kernel's answers come through the relay and a silent cell, which a busy machine can take
 * longer than that (docs/notebook-helpers.md). News: no first-run question about fetching it.
 */
function labDefaults() {
  const file = join(labVenv, "share", "jupyter", "lab", "settings", "overrides.json");
  const wanted = {
    "@jupyterlab/completer-extension:manager": { providerTimeout: 5000 },
    "@jupyterlab/apputils-extension:notification": { fetchNews: "false" },
  };
  let current = {};
  try {
    current = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  } catch {
    // an unreadable file is replaced
  }
  const merged = { ...current };
  for (const [plugin, settings] of Object.entries(wanted)) merged[plugin] = { ...settings, ...current[plugin] };
  if (JSON.stringify(merged) === JSON.stringify(current)) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(merged, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}
labDefaults();

const token = randomBytes(24).toString("hex");
const labArgs = [
  "lab",
  ...(ownRoot ? [] : [`--ServerApp.root_dir=${join(repoRoot, "notebooks")}`]),
  "--MappingKernelManager.default_kernel_name=deno",
  `--IdentityProvider.token=${token}`,
  "--no-browser",
  // Jupyter refuses to run as root without it; containers and CI machines often are root.
  ...(process.getuid?.() === 0 ? ["--allow-root"] : []),
  ...args.filter((arg) => arg !== "--no-setup"),
];
const lab = spawn(labJupyter, labArgs, { cwd: repoRoot, env: jupyterEnv(), stdio: ["inherit", "inherit", "pipe"] });

// Jupyter logs its URL on stderr among other lines, with the token masked: read the port from it
// (Jupyter moves to the next free port when the asked one is taken) and add the token ourselves.
let pending = "";
let announced = false;
lab.stderr.setEncoding("utf8").on("data", (chunk) => {
  process.stderr.write(chunk);
  if (announced) return;
  pending += chunk;
  const url = pending.match(/(https?):\/\/127\.0\.0\.1:(\d+)\/lab\?token=/);
  if (url) {
    announced = true;
    const address = `${url[1]}://127.0.0.1:${url[2]}/lab?token=${token}`;
    console.log(`\nJupyterLab is running on notebooks/ with the Deno kernel. Open:\n\n    ${address}\n`);
  }
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => lab.kill(signal));
lab.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
