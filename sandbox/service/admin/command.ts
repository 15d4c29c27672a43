/**
 * What an admin subcommand is: the words that name it, the options and arguments it takes,
 * and a function from the state database and the checked input to an answer. Commands never
 * print or exit themselves, so the entry point alone decides the output form and exit code.
 */
import type { DatabaseSync } from "node:sqlite";

/** Option values as `node:util` parseArgs hands them over. */
export type OptionValues = Record<string, string | string[] | boolean | undefined>;

interface CommandInput {
  options: OptionValues;
  /** Positional arguments after the command words, one per name in `Command.args`. */
  args: string[];
  now: Date;
}

/** A command's answer, in the two forms the entry point can print. */
export interface Output {
  /** For people: a table or a sentence. */
  text: string;
  /** For scripts and tests (`--json`). */
  json: unknown;
}

export interface Command {
  /** The subcommand words, e.g. `["keys", "create"]`. */
  words: string[];
  /** One usage line, e.g. `keys create --identity N [--expires ISO]`. */
  usage: string;
  /** Names of the options it accepts (beyond the global ones). */
  options: string[];
  /** Names of its positional arguments, all required. */
  args: string[];
  run: (db: DatabaseSync, input: CommandInput) => Output;
}
