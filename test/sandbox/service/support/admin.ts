/**
 * Runs the admin command (`sandbox/service/admin/cli.ts`, as `npm run sandbox-admin` does) as
 * a child process against a state file, usually that of a running test sandbox.
 *
 * @example
 * ```ts
 * const { stdout } = await admin(sb.statePath, "keys", "create", "--identity", "6");
 * const key = await adminJson<{ key: string }>(sb.statePath, "keys", "create", "--identity", "6");
 * ```
 */
import { execFile } from "node:child_process";
import { join } from "node:path";

const DENO = join(process.cwd(), "node_modules/.bin/deno");

export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `sandbox-admin --state <statePath> ...args`; resolves with the exit code and output, whatever the code. */
export function admin(statePath: string, ...args: string[]): Promise<AdminRun> {
  return new Promise((resolve) => {
    execFile(DENO, ["run", "-A", "sandbox/service/admin/cli.ts", "--state", statePath, ...args], { env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs an admin command with `--json` and parses its output; throws with its stderr when it fails. */
export async function adminJson<T>(statePath: string, ...args: string[]): Promise<T> {
  const run = await admin(statePath, "--json", ...args);
  if (run.code !== 0) throw new Error(`sandbox-admin ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
