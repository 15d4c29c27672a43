/**
 * `teams` lists teams with their quota limits; `teams create` adds one, so tests and demos can
 * have an account with limits of their choosing (the console of the real service does this).
 */
import type { DatabaseSync } from "node:sqlite";
import type { QuotaLimits } from "../../state/accounts.ts";
import type { Command } from "../command.ts";
import { nonNegativeInt, optionalString, requiredString } from "../input.ts";
import { table } from "../table.ts";

export interface Team extends QuotaLimits {
  team_id: number;
  name: string;
}

/**
 * Every team with its quota limits, by id.
 *
 * @example
 * ```ts
 * listTeams(openState("data/demo/sandbox-state.sqlite"))[0].per_minute_requests; // 100000
 * ```
 */
export function listTeams(db: DatabaseSync): Team[] {
  return db.prepare(
    "SELECT id AS team_id, name, per_minute_requests, monthly_requests, monthly_data_scanned, monthly_data_returned FROM teams ORDER BY id",
  ).all() as unknown as Team[];
}

const CREATE_USAGE = "teams create --name TEXT --per-minute N --monthly N [--scanned-bytes N] [--returned-bytes N]";

export const teamCommands: Command[] = [
  {
    words: ["teams"],
    usage: "teams",
    options: [],
    args: [],
    run: (db) => {
      const teams = listTeams(db);
      const rows = teams.map((
        t,
      ) => [t.team_id, t.name, t.per_minute_requests, t.monthly_requests, t.monthly_data_scanned, t.monthly_data_returned]);
      return { text: table(["id", "name", "per-minute", "monthly", "scanned-bytes", "returned-bytes"], rows), json: teams };
    },
  },
  {
    words: ["teams", "create"],
    usage: CREATE_USAGE,
    options: ["name", "per-minute", "monthly", "scanned-bytes", "returned-bytes"],
    args: [],
    run: (db, { options }) => {
      const name = requiredString(options, "name", CREATE_USAGE);
      const limit = (option: string, fallback?: number) => {
        const text = fallback === undefined ? requiredString(options, option, CREATE_USAGE) : optionalString(options, option);
        return text === undefined ? fallback! : nonNegativeInt(text, `--${option}`);
      };
      // Byte quotas default to the restricted demo account's: ample for any test market.
      const limits = [limit("per-minute"), limit("monthly"), limit("scanned-bytes", 10 * 2 ** 30), limit("returned-bytes", 2 ** 30)];
      const result = db.prepare(
        "INSERT INTO teams (name, per_minute_requests, monthly_requests, monthly_data_scanned, monthly_data_returned) VALUES (?, ?, ?, ?, ?)",
      ).run(name, ...limits);
      const team = listTeams(db).find((t) => t.team_id === Number(result.lastInsertRowid))!;
      return { text: `Created team ${team.team_id} '${team.name}'`, json: team };
    },
  },
];
