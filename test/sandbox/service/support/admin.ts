/**
 * Runs the admin command (`npm run sandbox-admin`) against a state file, usually that of a
 * running test sandbox: `admin` in this process (`runAdmin`, what the entry point calls; the
 * state file is shared with the sandbox exactly as a separate process shares it), and
 * `adminProcess` as the child process a user starts, for the tests of the entry point itself.
 *
 * @example
 * ```ts
 * const { stdout } = await admin(sb.statePath, "keys", "create", "--identity", "6");
 * const key = await adminJson<{ key: string }>(sb.statePath, "keys", "create", "--identity", "6");
 * ```
 */
import { execFile } from "node:child_process";
import { runAdmin } from "../../../../sandbox/service/admin/run.ts";
import { denoPath } from "../../../../scripts/paths.mjs";
import process from "node:process";

const DENO = denoPath();

export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Each stream as the entry point prints it: a line, when there is anything to say. */
const printed = (text: string) => (text ? `${text}\n` : "");

/** Runs `sandbox-admin --state <statePath> ...args` in this process; resolves with the exit code and output, whatever the code. */
export function admin(statePath: string, ...args: string[]): Promise<AdminRun> {
  const { code, stdout, stderr } = runAdmin(["--state", statePath, ...args]);
  return Promise.resolve({ code, stdout: printed(stdout), stderr: printed(stderr) });
}

/** Runs `sandbox-admin --state <statePath> ...args` as a child process (Deno, as `npm run sandbox-admin` does). */
export function adminProcess(statePath: string, ...args: string[]): Promise<AdminRun> {
  return new Promise((resolve) => {
    execFile(
      DENO,
      ["run", "-A", "sandbox/service/admin/cli.ts", "--state", statePath, ...args],
      { env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Runs an admin command with `--json` and parses its output; throws with its stderr when it fails. */
export async function adminJson<T>(statePath: string, ...args: string[]): Promise<T> {
  const run = await admin(statePath, "--json", ...args);
  if (run.code !== 0) throw new Error(`sandbox-admin ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
