// Child processes for the scripts: one way to run a command and one error shape when it fails.
import { spawn } from "node:child_process";
import { repoRoot } from "./paths.mjs";
import process from "node:process";

/** A command exited non-zero, could not start, or ran out of time. */
export class CommandError extends Error {
  constructor(command, result, reason) {
    const tail = (result.stderr || result.stdout).trim().split("\n").slice(-25).join("\n");
    super(`Command failed (${reason}): ${command}${tail ? `\n${tail}` : ""}`);
    this.name = "CommandError";
    this.command = command;
    this.result = result;
  }
}

/**
 * Runs `cmd args` and resolves with its exit status and captured output; never rejects on a
 * non-zero exit (see `runOrThrow`). Async so that a caller's event loop (say, a sandbox server
 * in the same process) keeps serving while the command runs.
 *
 * @param {string} cmd executable name or path
 * @param {string[]} [args]
 * @param {{cwd?: string, env?: NodeJS.ProcessEnv, input?: string, timeoutMs?: number,
 *   label?: string}} [opts] `label` names the command in errors (default: the command line)
 * @returns {Promise<{status: number | null, stdout: string, stderr: string, error?: Error}>}
 * @example
 * const { status, stdout } = await run("node", ["--version"]);
 */
export function run(cmd, args = [], opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd ?? repoRoot,
      env: opts.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
      timeout: opts.timeoutMs,
      killSignal: "SIGKILL",
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.stdin.on("error", () => {}); // the child may exit without reading its input
    child.stdin.end(opts.input ?? "");
    child.on("error", (error) => resolve({ status: null, stdout, stderr, error }));
    child.on("close", (status, signal) => {
      const error = signal ? new Error(`killed by ${signal}`) : undefined;
      resolve({ status, stdout, stderr, error });
    });
  });
}

/**
 * Like `run`, but rejects with a `CommandError` (carrying the output's tail) unless the
 * command exits 0.
 *
 * @example
 * const { stdout } = await runOrThrow("npm", ["--version"]);
 */
export async function runOrThrow(cmd, args = [], opts = {}) {
  const result = await run(cmd, args, opts);
  if (result.status === 0) return result;
  const reason = result.error ? result.error.message : `exit status ${result.status}`;
  throw new CommandError(opts.label ?? [cmd, ...args].join(" "), result, reason);
}
