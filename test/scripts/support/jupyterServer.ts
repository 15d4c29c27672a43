/**
 * A Jupyter server (from the project's JupyterLab environment) for tests: it finds the project's
 * `deno` kernelspec through JUPYTER_PATH, listens on a free loopback port with a random token,
 * and is killed by `stop()`.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { jupyterEnv, labJupyter, repoRoot } from "../../../scripts/paths.mjs";
import { jupyterLab, LabInstallError } from "../../../scripts/labInstall.mjs";

/** A free TCP port on 127.0.0.1 (free when asked; the caller binds it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject).listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Installs JupyterLab the way `npm run lab` does; resolves with why it cannot be, or null.
 * Tests skip with that reason where no package index is reachable.
 */
export async function labUnavailable(): Promise<string | null> {
  try {
    await jupyterLab();
    return null;
  } catch (error) {
    if (error instanceof LabInstallError) return error.message;
    throw error;
  }
}

/** Polls `url` until it answers (any HTTP status), or throws after `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs: number, exited: () => string | null) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const gone = exited();
    if (gone) throw new Error(gone);
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

/** Starts `jupyter server` on a free port; `log()` is its output so far. */
export async function startJupyterServer(cwd = repoRoot) {
  const port = await freePort();
  const token = randomBytes(12).toString("hex");
  const args = ["server", "--no-browser", `--port=${port}`, "--ip=127.0.0.1", `--IdentityProvider.token=${token}`,
    "--ServerApp.port_retries=0", "--debug", ...(process.getuid?.() === 0 ? ["--allow-root"] : [])];
  const child = spawn(labJupyter, args, { cwd, env: jupyterEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  let exit: string | null = null;
  child.stdout.setEncoding("utf8").on("data", (c) => (log += c));
  child.stderr.setEncoding("utf8").on("data", (c) => (log += c));
  child.on("exit", (code, signal) => (exit = `jupyter server exited (${code ?? signal}):\n${log.slice(-3000)}`));
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/api`, 60_000, () => exit);
  return {
    url,
    token,
    log: () => log,
    stop: () => new Promise<void>((resolve) => {
      if (exit) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
    }),
  };
}
