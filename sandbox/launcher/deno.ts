/**
 * Which Deno runs the sandbox (and the project's notebook kernel): the native binary of the
 * `deno` npm package that market-workbench depends on, else this process when it is Deno, else
 * `deno` on PATH. The package's first: it is the version the sandbox is tested with, and the
 * sandbox's V8 flags are that version's V8's (a newer Deno's V8 refuses one of them), while a
 * notebook kernel may run any Deno the user installed. The native binary, not the package's
 * Node launcher (`node_modules/.bin/deno`): stopping the launcher would not stop the sandbox.
 */
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, join } from "node:path";
import process from "node:process";
import { DenoNotFoundError } from "./errors.ts";

/** The `deno` npm package's binary (linked into the package on first use), or why there is none. */
function npmDeno(): { path?: string; why?: string } {
  try {
    // The package's own lookup of its platform's binary, as its `bin.cjs` does.
    const install = createRequire(import.meta.url)("deno/install_api.cjs") as { runInstall(): string };
    return { path: install.runInstall() };
  } catch (error) {
    return { why: (error as Error).message.split("\n")[0] };
  }
}

/** Absolute path of the executable `name` on PATH, or undefined. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/**
 * The Deno executable to run the sandbox with. Throws DenoNotFoundError, saying where it looked
 * and how to get Deno, when there is none.
 *
 * @example
 * ```ts
 * import { denoExecutable } from "market-workbench/sandbox";
 * denoExecutable(); // e.g. "/home/me/project/node_modules/deno/deno"
 * ```
 */
export function denoExecutable(): string {
  const npm = npmDeno();
  if (npm.path) return npm.path;
  const g = globalThis as { Deno?: { execPath(): string } };
  if (g.Deno) return g.Deno.execPath();
  const found = onPath(process.platform === "win32" ? "deno.exe" : "deno");
  if (found) return found;
  throw new DenoNotFoundError(
    `The sandbox runs under Deno, and none was found: not the npm package \`deno\` (${
      npm.why ?? "not installed"
    }), not \`deno\` on PATH. ` +
      "Install it in your project with `npm install deno`, or install Deno itself (https://docs.deno.com/runtime/getting_started/installation/).",
  );
}
