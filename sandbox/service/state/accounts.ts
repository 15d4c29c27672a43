/** Identities, their teams and their data access rules, as the request pipeline needs them. */
import type { DatabaseSync } from "node:sqlite";
import { statement } from "./db.ts";
import { HttpError } from "../errors.ts";

export interface Identity {
  identity_id: number;
  team_id: number;
  name: string;
  max_active_api_keys: number;
  ip_subnets: string[];
  deactivated: boolean;
}

export interface AccessRule {
  dataset_text_id: string;
  start_date: string;
  end_date: string | null;
  universe_identifiers: string[];
}

export interface QuotaLimits {
  per_minute_requests: number;
  monthly_requests: number;
  monthly_data_scanned: number;
  monthly_data_returned: number;
}

export function getIdentity(db: DatabaseSync, identityId: number): Identity {
  const row = statement(db, "SELECT id, team_id, name, max_active_api_keys, ip_subnets, deactivated FROM identities WHERE id = ?").get(
    identityId,
  ) as
    | { id: number; team_id: number; name: string; max_active_api_keys: number; ip_subnets: string; deactivated: number }
    | undefined;
  if (!row) throw new HttpError(404, `Identity ${identityId} is not found`);
  return {
    identity_id: row.id,
    team_id: row.team_id,
    name: row.name,
    max_active_api_keys: row.max_active_api_keys,
    ip_subnets: JSON.parse(row.ip_subnets),
    deactivated: row.deactivated === 1,
  };
}

export function getAccessRules(db: DatabaseSync, identityId: number): AccessRule[] {
  const rows = statement(
    db,
    "SELECT dataset_text_id, start_date, end_date, universe FROM access_rules WHERE identity_id = ? ORDER BY dataset_text_id",
  )
    .all(identityId) as { dataset_text_id: string; start_date: string; end_date: string | null; universe: string }[];
  return rows.map((r) => ({
    dataset_text_id: r.dataset_text_id,
    start_date: r.start_date,
    end_date: r.end_date,
    universe_identifiers: JSON.parse(r.universe),
  }));
}

export function getQuotaLimits(db: DatabaseSync, teamId: number): QuotaLimits {
  return statement(db, "SELECT per_minute_requests, monthly_requests, monthly_data_scanned, monthly_data_returned FROM teams WHERE id = ?")
    .get(teamId) as unknown as QuotaLimits;
}

/** Deactivates (or reactivates) an identity's account. */
export function setDeactivated(db: DatabaseSync, identityId: number, deactivated: boolean): void {
  const result = statement(db, "UPDATE identities SET deactivated = ? WHERE id = ?").run(deactivated ? 1 : 0, identityId);
  if (result.changes === 0) throw new HttpError(404, `Identity ${identityId} is not found`);
}

export function listIdentities(db: DatabaseSync): Identity[] {
  const ids = statement(db, "SELECT id FROM identities ORDER BY id").all() as { id: number }[];
  return ids.map((r) => getIdentity(db, r.id));
}
