/**
 * `npm run sandbox-admin -- [--state <file> | --data <dir>] [--json] <command> ...`
 * Administers a sandbox's state file (by default data/demo/sandbox-state.sqlite): identities,
 * teams, API keys, account state, quota usage and runtime settings. Safe while the sandbox
 * runs: the state is SQLite in WAL mode and the service reads settings on every request.
 *
 * Exit codes: 0 done; 1 the state refused (the service's status and detail are printed, e.g.
 * `409 Conflict: An account cannot have more than 5 active API keys`, or a 404 for an unknown
 * identity or key); 2 bad input (the message names the bad value).
 */
/// <reference lib="deno.ns" />
import { existsSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { HttpError } from "../errors.ts";
import { openState } from "../state/db.ts";
import { COMMANDS, findCommand } from "./commands/index.ts";
import { AdminInputError } from "./input.ts";

const OPTIONS = {
  state: { type: "string" },
  data: { type: "string" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", default: false },
  identity: { type: "string" },
  expires: { type: "string" },
  team: { type: "string" },
  name: { type: "string" },
  "max-keys": { type: "string" },
  subnet: { type: "string", multiple: true },
  datasets: { type: "string" },
  "per-minute": { type: "string" },
  monthly: { type: "string" },
  "scanned-bytes": { type: "string" },
  "returned-bytes": { type: "string" },
} as const;
const GLOBAL = ["state", "data", "json", "help"];

const HELP = `usage: npm run sandbox-admin -- [--state <file> | --data <dir>] [--json] <command>
commands:
${COMMANDS.map((c) => `  ${c.usage}`).join("\n")}
--data <dir> means <dir>/sandbox-state.sqlite; the default is data/demo/sandbox-state.sqlite.`;

function main(): number {
  const { values, positionals } = parseArgs({ args: Deno.args, options: OPTIONS, allowPositionals: true });
  if (values.help || positionals.length === 0) {
    console.log(HELP);
    return values.help ? 0 : 2;
  }
  const command = findCommand(positionals);
  if (!command) throw new AdminInputError(`Unknown command '${positionals.join(" ")}': see --help`);
  const args = positionals.slice(command.words.length);
  if (args.length !== command.args.length) {
    throw new AdminInputError(`'${command.words.join(" ")}' takes ${command.args.length === 0 ? "no arguments" : command.args.map((a) => `<${a}>`).join(" ")}, got '${args.join(" ")}': ${command.usage}`);
  }
  const stray = Object.keys(values).find((k) => values[k as keyof typeof values] !== undefined && !GLOBAL.includes(k) && !command.options.includes(k));
  if (stray) throw new AdminInputError(`Option --${stray} does not apply to '${command.words.join(" ")}': ${command.usage}`);
  const statePath = values.state ?? join(values.data ?? join(import.meta.dirname!, "..", "..", "..", "data", "demo"), "sandbox-state.sqlite");
  // Opening a missing file would create an empty state: a typo must not look like success.
  if (!existsSync(statePath)) throw new AdminInputError(`State file '${statePath}' does not exist: start the sandbox once to create it, or pass --state <file>`);
  const db = openState(statePath);
  try {
    const output = command.run(db, { options: values, args, now: new Date() });
    console.log(values.json ? JSON.stringify(output.json, null, 2) : output.text);
  } finally {
    db.close();
  }
  return 0;
}

try {
  Deno.exit(main());
} catch (e) {
  if (e instanceof HttpError) {
    console.error(`${e.status} ${STATUS_CODES[e.status] ?? "Error"}: ${e.message}`);
    Deno.exit(1);
  }
  // parseArgs reports unknown options and missing values as TypeErrors with a clear message.
  if (e instanceof AdminInputError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    console.error(`sandbox-admin: ${(e as Error).message}`);
    Deno.exit(2);
  }
  throw e;
}
