/**
 * `identities` lists identities with their team, subnets and state; `identities create` adds
 * one to a team, with access rules to every dataset (or the ones named) from 2000-01-01 on,
 * with no ticker restriction.
 */
import type { DatabaseSync } from "node:sqlite";
import { HttpError } from "../../errors.ts";
import { isCidr } from "../../net/cidr.ts";
import { getIdentity, listIdentities } from "../../state/accounts.ts";
import { transaction } from "../../state/db.ts";
import type { Command, OptionValues } from "../command.ts";
import { AdminInputError, optionalString, positiveInt, requiredString } from "../input.ts";
import { table } from "../table.ts";
import { listTeams } from "./teams.ts";

const CREATE_USAGE = "identities create --team N --name TEXT [--max-keys N] [--subnet CIDR]... [--datasets all|ID,...]";

/**
 * The datasets the state knows: the full-access demo accounts hold a rule for every dataset of
 * the market the sandbox serves. (Reading the catalog instead would load Polars for a list of names.)
 */
function datasetList(db: DatabaseSync, text: string): string[] {
  const known =
    (db.prepare("SELECT DISTINCT dataset_text_id FROM access_rules ORDER BY dataset_text_id").all() as { dataset_text_id: string }[])
      .map((r) => r.dataset_text_id);
  if (text === "all") return known;
  const names = text.split(",").map((s) => s.trim());
  const bad = names.find((n) => !known.includes(n));
  if (bad !== undefined) throw new AdminInputError(`--datasets '${bad}' is not a dataset: use all or some of ${known.join(", ")}`);
  return names;
}

function createIdentity(db: DatabaseSync, options: OptionValues) {
  const teamId = positiveInt(requiredString(options, "team", CREATE_USAGE), "--team");
  const name = requiredString(options, "name", CREATE_USAGE);
  const maxKeysText = optionalString(options, "max-keys");
  const maxKeys = maxKeysText === undefined ? 5 : positiveInt(maxKeysText, "--max-keys");
  const subnets = (options.subnet as string[] | undefined) ?? [];
  const bad = subnets.find((s) => !isCidr(s));
  if (bad !== undefined) throw new AdminInputError(`--subnet '${bad}' is not a CIDR block such as 10.0.0.0/8 or fd00::/8`);
  const datasets = datasetList(db, optionalString(options, "datasets") ?? "all");
  if (!listTeams(db).some((t) => t.team_id === teamId)) throw new HttpError(404, `Team ${teamId} is not found`);
  const id = transaction(db, () => {
    const result = db.prepare("INSERT INTO identities (team_id, name, max_active_api_keys, ip_subnets) VALUES (?, ?, ?, ?)")
      .run(teamId, name, maxKeys, JSON.stringify(subnets));
    const rule = db.prepare(
      "INSERT INTO access_rules (identity_id, dataset_text_id, start_date, end_date, universe) VALUES (?, ?, '2000-01-01', NULL, '[]')",
    );
    for (const d of datasets) rule.run(result.lastInsertRowid, d);
    return Number(result.lastInsertRowid);
  });
  return getIdentity(db, id);
}

export const identityCommands: Command[] = [
  {
    words: ["identities"],
    usage: "identities",
    options: [],
    args: [],
    run: (db) => {
      const teams = new Map(listTeams(db).map((t) => [t.team_id, t.name]));
      const identities = listIdentities(db).map((i) => ({ ...i, team_name: teams.get(i.team_id) ?? null }));
      const rows = identities.map((
        i,
      ) => [i.identity_id, i.name, `${i.team_id} ${i.team_name}`, i.max_active_api_keys, i.ip_subnets, i.deactivated ? "yes" : "no"]);
      return { text: table(["id", "name", "team", "max-keys", "subnets", "deactivated"], rows), json: identities };
    },
  },
  {
    words: ["identities", "create"],
    usage: CREATE_USAGE,
    options: ["team", "name", "max-keys", "subnet", "datasets"],
    args: [],
    run: (db, { options }) => {
      const identity = createIdentity(db, options);
      return { text: `Created identity ${identity.identity_id} '${identity.name}' in team ${identity.team_id}`, json: identity };
    },
  },
];
