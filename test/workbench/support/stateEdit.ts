/**
 * Changes a sandbox's state file the way an operator would, for cases no HTTP call can set up
 * (a team with a small monthly quota, a raised limit, a spent month). Runs under Deno, which
 * has `node:sqlite` (Node 20 does not); SQLite's WAL mode lets it write while the sandbox
 * serves. Usage: `deno run -A stateEdit.ts <state file> <operation> <JSON arguments>`;
 * prints the operation's result as JSON.
 *
 * Operations:
 * - `account {key, perMinute, monthly}`: a new team, identity and key, entitled to every
 *   dataset the demo full-access identity reaches, with the given request quotas.
 * - `monthlyLimit {key, monthly}`: sets the monthly request limit of the key's team.
 * - `monthlyUsage {key, requests}`: sets this month's request count of the key's team.
 */
import { createHash } from "node:crypto";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";

const [statePath, operation, json] = process.argv.slice(2);
const args = JSON.parse(json ?? "{}");
const db = new DatabaseSync(statePath);
db.exec("PRAGMA busy_timeout = 5000;");
const digest = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

function teamOf(key: string): number {
  const row = db.prepare("SELECT i.team_id AS team FROM api_keys k JOIN identities i ON i.id = k.identity_id WHERE k.key_hash = ?").get(
    digest(key),
  ) as { team: number } | undefined;
  if (!row) throw new Error(`No key '${key.slice(0, 4)}...' in ${statePath}`);
  return row.team;
}

function account(): { identityId: number; teamId: number } {
  db.exec("BEGIN IMMEDIATE");
  const team = db.prepare(
    "INSERT INTO teams (name, per_minute_requests, monthly_requests, monthly_data_scanned, monthly_data_returned) VALUES (?, ?, ?, ?, ?)",
  )
    .run(`workbench test team ${args.key}`, args.perMinute, args.monthly, 2 ** 50, 2 ** 50);
  const identity = db.prepare(
    "INSERT INTO identities (team_id, name, max_active_api_keys, ip_subnets, deactivated) VALUES (?, ?, 5, '[]', 0)",
  )
    .run(team.lastInsertRowid, `workbench test ${args.key}`);
  db.prepare("INSERT INTO api_keys (identity_id, key_hash, hint, created_at, expires_at) VALUES (?, ?, ?, ?, NULL)")
    .run(identity.lastInsertRowid, digest(args.key), `${args.key.slice(0, 4)}...`, new Date().toISOString());
  db.prepare(
    `INSERT INTO access_rules (identity_id, dataset_text_id, start_date, end_date, universe)
     SELECT ?, r.dataset_text_id, '2000-01-01', NULL, '[]' FROM access_rules r JOIN api_keys k ON k.identity_id = r.identity_id WHERE k.key_hash = ?`,
  ).run(identity.lastInsertRowid, digest("demo-full-access"));
  db.exec("COMMIT");
  return { identityId: Number(identity.lastInsertRowid), teamId: Number(team.lastInsertRowid) };
}

const monthPeriod = () => `month:${new Date().toISOString().slice(0, 7)}`;

const operations: Record<string, () => unknown> = {
  account,
  monthlyLimit: () => db.prepare("UPDATE teams SET monthly_requests = ? WHERE id = ?").run(args.monthly, teamOf(args.key)).changes,
  monthlyUsage: () =>
    db.prepare(
      "INSERT INTO usage (team_id, period, requests) VALUES (?, ?, ?) ON CONFLICT (team_id, period) DO UPDATE SET requests = excluded.requests",
    )
      .run(teamOf(args.key), monthPeriod(), args.requests).changes,
};

if (!operations[operation]) throw new Error(`Unknown operation '${operation}': use ${Object.keys(operations).join(", ")}`);
console.log(JSON.stringify(operations[operation]() ?? null));
db.close();
