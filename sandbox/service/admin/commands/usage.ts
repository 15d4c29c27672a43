/**
 * `usage [--identity N]`: each team's quota usage against its limits for the current minute
 * and month, read with the service's own functions, so it matches
 * GET /api/v1/account/my/quotas for any identity of the team.
 */
import { getIdentity, getQuotaLimits, listIdentities } from "../../state/accounts.ts";
import { readUsage } from "../../state/usage.ts";
import type { Command } from "../command.ts";
import { optionalString, positiveInt } from "../input.ts";
import { table } from "../table.ts";
import { listTeams } from "./teams.ts";

const QUOTAS = ["per_minute_requests", "monthly_requests", "monthly_data_scanned", "monthly_data_returned"] as const;

export const usageCommands: Command[] = [
  {
    words: ["usage"],
    usage: "usage [--identity N]",
    options: ["identity"],
    args: [],
    run: (db, { options, now }) => {
      const text = optionalString(options, "identity");
      const only = text === undefined ? undefined : getIdentity(db, positiveInt(text, "--identity")).team_id;
      const identities = listIdentities(db);
      const teams = listTeams(db).filter((t) => only === undefined || t.team_id === only).map((t) => ({
        team_id: t.team_id,
        name: t.name,
        identity_ids: identities.filter((i) => i.team_id === t.team_id).map((i) => i.identity_id),
        quotas_usage: readUsage(db, t.team_id, now),
        quotas_limit: getQuotaLimits(db, t.team_id),
      }));
      const blocks = teams.map((t) =>
        `team ${t.team_id} '${t.name}' (identities ${t.identity_ids.join(", ") || "none"}) at ${now.toISOString()}\n` +
        table(["quota", "used", "limit"], QUOTAS.map((q) => [q, t.quotas_usage[q], t.quotas_limit[q]]))
      );
      return { text: blocks.join("\n\n") || "(no teams)", json: teams };
    },
  },
];
