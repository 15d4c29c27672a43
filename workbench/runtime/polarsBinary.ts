/**
 * Loads nodejs-polars, and with it its native binary, before any other module of the workbench
 * does, so that a missing binary is reported with its cause and its fix instead of a bare
 * "Cannot find module 'nodejs-polars-linux-x64-gnu'" from deep inside Polars. npm installs the
 * binary as an optional dependency of nodejs-polars, and skips it on Node 20: each binary's
 * package declares Node >= 22. Named as a dependency of the user's own project, npm installs it
 * there (with a warning about the engine), and it works on Node 20.
 */
import { createRequire } from "node:module";
import process from "node:process";

/**
 * What to tell a user whose nodejs-polars could not load `binary`, the package of its native
 * binary, at `version`, on `node` (undefined under Deno).
 *
 * @example
 * ```ts
 * import { missingBinaryMessage } from "./workbench/runtime/polarsBinary.ts";
 * missingBinaryMessage("nodejs-polars-linux-x64-gnu", "0.26.1", "20.20.2");
 * ```
 */
function missingBinaryMessage(binary: string, version: string, node: string | undefined): string {
  const major = node === undefined ? undefined : Number(node.split(".")[0]);
  const why = major !== undefined && major < 22
    ? `npm skips it on Node ${node}, as its package declares Node >= 22. Install it by name in your project: \`npm install ${binary}@${version}\` (npm warns about the engine; the binary works on Node 20), or use Node 22 or later`
    : `install it in your project: \`npm install ${binary}@${version}\` (npm installs it with nodejs-polars unless optional dependencies are omitted or npm ran on Node 20)`;
  return `nodejs-polars cannot load its native binary, the package ${binary}, which is not installed: ${why}.`;
}

const require = createRequire(import.meta.url);
try {
  require("nodejs-polars");
} catch (error) {
  const binary = /Cannot find module '(nodejs-polars-[\w-]+)'/.exec(String((error as Error).message))?.[1];
  if (binary === undefined) throw error;
  const version = String((require("nodejs-polars/package.json") as { version: string }).version);
  const deno = (globalThis as { Deno?: unknown }).Deno !== undefined;
  throw new Error(missingBinaryMessage(binary, version, deno ? undefined : process.versions.node), { cause: error });
}
