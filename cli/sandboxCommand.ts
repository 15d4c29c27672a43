/**
 * `market-workbench sandbox [--home DIR] [sandbox options]`: the local sandbox in the
 * foreground, on a market kept in the sandbox's home (`sandboxHome`), generated on its first
 * start; Ctrl-C stops it. Every other option goes to the sandbox's own command (`--port`,
 * `--profile`, `--data`, `--latency`, ...; `--help` lists them).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { sandboxCommand, sandboxHome, SandboxSettingError } from "../sandbox/launcher/mod.ts";

/**
 * The value of `--name VALUE` or `--name=VALUE` in `args` (the last one given), and `args`
 * without it. Throws SandboxSettingError when `--name` ends the arguments with no value.
 *
 * @example
 * ```ts
 * import { takeOption } from "./cli/sandboxCommand.ts";
 * takeOption(["--home=/srv", "--port", "0"], "--home"); // { value: "/srv", rest: ["--port", "0"] }
 * ```
 */
export function takeOption(args: readonly string[], name: string): { value?: string; rest: string[] } {
  const rest: string[] = [];
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) {
      value = args[++i];
      if (value === undefined) throw new SandboxSettingError(`${name} needs a value`);
    } else if (args[i].startsWith(`${name}=`)) value = args[i].slice(name.length + 1);
    else rest.push(args[i]);
  }
  return { value, rest };
}

/**
 * The sandbox command's arguments for `args` as given to `market-workbench sandbox`: `--home`
 * taken out, and `--data` added (the profile's market in the home) when not given.
 *
 * @example
 * ```ts
 * import { sandboxArgs } from "./cli/sandboxCommand.ts";
 * sandboxArgs(["--profile", "tiny", "--home", "/srv/teaching"]); // ["--profile", "tiny", "--data", "/srv/teaching/data/tiny"]
 * ```
 */
export function sandboxArgs(args: readonly string[]): string[] {
  const { value: home, rest } = takeOption(args, "--home");
  if (rest.some((a) => a === "--data" || a.startsWith("--data="))) return rest;
  if (rest.includes("--help")) return rest;
  const profile = takeOption(rest, "--profile").value ?? "demo";
  return [...rest, "--data", join(sandboxHome(home).markets, profile)];
}

/**
 * Runs the sandbox with `args` (as `sandboxArgs` reads them) until it exits, its output on this
 * process's; resolves with its exit status (0 when stopped by Ctrl-C or SIGTERM).
 *
 * @example
 * ```ts
 * import { runSandbox } from "./cli/sandboxCommand.ts";
 * process.exitCode = await runSandbox(["--profile", "tiny", "--port", "8000"]);
 * ```
 */
export function runSandbox(args: readonly string[]): Promise<number> {
  const run = sandboxCommand(sandboxArgs(args));
  const child = spawn(run.command, run.args, { cwd: run.cwd, env: run.env, stdio: "inherit" });
  // Ctrl-C reaches the sandbox too (one process group); SIGTERM sent to this process alone is passed on.
  const pass = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on("SIGINT", pass("SIGINT"));
  process.on("SIGTERM", pass("SIGTERM"));
  return new Promise((resolve) => {
    child.on("error", (error) => {
      console.error(`market-workbench sandbox: ${error.message}`);
      resolve(1);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal === "SIGINT" || signal === "SIGTERM" ? 0 : 1)));
  });
}
