/** Every admin subcommand, in the order `--help` lists them. */
import type { Command } from "../command.ts";
import { accountCommands } from "./account.ts";
import { identityCommands } from "./identities.ts";
import { keyCommands } from "./keys.ts";
import { settingsCommands } from "./settings.ts";
import { teamCommands } from "./teams.ts";
import { usageCommands } from "./usage.ts";

export const COMMANDS: readonly Command[] = [
  ...identityCommands,
  ...teamCommands,
  ...keyCommands,
  ...accountCommands,
  ...usageCommands,
  ...settingsCommands,
];

/**
 * The command named by the leading `words` (the longest match), or undefined; the words
 * after it are the command's arguments.
 *
 * @example
 * ```ts
 * findCommand(["keys", "revoke", "7"])?.usage; // "keys revoke <id>"
 * ```
 */
export function findCommand(words: readonly string[]): Command | undefined {
  return [...COMMANDS]
    .sort((a, b) => b.words.length - a.words.length)
    .find((c) => c.words.every((w, i) => words[i] === w));
}
