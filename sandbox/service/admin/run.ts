/**
 * The admin command's whole run as a function of its arguments: parses them, opens the state
 * file, runs the command and returns the exit code with what would be printed. The entry
 * point (`cli.ts`) prints and exits; tests call this in their own process instead of starting
 * one per command.
 */
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

/** The default state folder: the demo market's, beside the repository's sources. */
const DEMO_DATA = join(import.meta.dirname!, "..", "..", "..", "data", "demo");

/** What one admin run ends with: the exit code and the text for each stream (no trailing newline). */
export interface AdminResult {
  /** 0 done; 1 the state refused; 2 bad input. */
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the admin command with `argv` (the arguments after `sandbox-admin`), at time `now`.
 *
 * @example
 * ```ts
 * const { code, stdout } = runAdmin(["--state", "data/demo/sandbox-state.sqlite", "identities"]);
 * ```
 */
export function runAdmin(argv: string[], now: Date = new Date()): AdminResult {
  try {
    return answer(argv, now);
  } catch (e) {
    if (e instanceof HttpError) return { code: 1, stdout: "", stderr: `${e.status} ${STATUS_CODES[e.status] ?? "Error"}: ${e.message}` };
    // parseArgs reports unknown options and missing values as TypeErrors with a clear message.
    if (e instanceof AdminInputError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      return { code: 2, stdout: "", stderr: `sandbox-admin: ${(e as Error).message}` };
    }
    throw e;
  }
}

/** The run's result unless the state refuses or the input is bad: those it throws. */
function answer(argv: string[], now: Date): AdminResult {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  // Without a command the usage is the answer, and the exit code says nothing was done.
  if (values.help || positionals.length === 0) return { code: values.help ? 0 : 2, stdout: HELP, stderr: "" };
  const command = findCommand(positionals);
  if (!command) throw new AdminInputError(`Unknown command '${positionals.join(" ")}': see --help`);
  const args = positionals.slice(command.words.length);
  if (args.length !== command.args.length) {
    throw new AdminInputError(
      `'${command.words.join(" ")}' takes ${
        command.args.length === 0 ? "no arguments" : command.args.map((a) => `<${a}>`).join(" ")
      }, got '${args.join(" ")}': ${command.usage}`,
    );
  }
  const stray = Object.keys(values).find((k) =>
    values[k as keyof typeof values] !== undefined && !GLOBAL.includes(k) && !command.options.includes(k)
  );
  if (stray) throw new AdminInputError(`Option --${stray} does not apply to '${command.words.join(" ")}': ${command.usage}`);
  const statePath = values.state ?? join(values.data ?? DEMO_DATA, "sandbox-state.sqlite");
  // Opening a missing file would create an empty state: a typo must not look like success.
  if (!existsSync(statePath)) {
    throw new AdminInputError(`State file '${statePath}' does not exist: start the sandbox once to create it, or pass --state <file>`);
  }
  const db = openState(statePath);
  try {
    const output = command.run(db, { options: values, args, now });
    return { code: 0, stdout: values.json ? JSON.stringify(output.json, null, 2) : output.text, stderr: "" };
  } finally {
    db.close();
  }
}
