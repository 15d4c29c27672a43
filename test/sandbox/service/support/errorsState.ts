/**
 * Changes a running sandbox's state file the way an operator would, for error cases no HTTP
 * call can set up (a revoked key, a spent monthly quota). Node 20 has no `node:sqlite`, so the
 * change runs as a short Deno script over the service's own state modules; SQLite's WAL mode
 * lets it write while the sandbox serves.
 *
 * @example
 * ```ts
 * const id = addKey(sb.statePath, "demo-full-access", "errors-revoked-key");
 * revokeKey(sb.statePath, id);
 * ```
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { denoPath } from "../../../../scripts/paths.mjs";
import process from "node:process";

const DENO = denoPath();
const module = (file: string) => pathToFileURL(join(process.cwd(), "sandbox/service/state", file)).href;

/** Runs `body` (which sees `db`, `hashKey`, `createKey`, `revokeKey` and `args`) and returns what it returns. */
function inState<T>(statePath: string, body: string, args: unknown): T {
  const script = `
    import { openState } from "${module("db.ts")}";
    import { createKey, hashKey, revokeKey } from "${module("keys.ts")}";
    const db = openState(Deno.env.get("STATE_PATH"));
    const args = JSON.parse(Deno.env.get("STATE_ARGS"));
    const identityOf = (key) => db.prepare("SELECT identity_id FROM api_keys WHERE key_hash = ?").get(hashKey(key)).identity_id;
    const result = (() => { ${body} })();
    db.close();
    console.log(JSON.stringify(result ?? null));
  `;
  const out = execFileSync(DENO, ["eval", script], {
    env: { ...process.env, NO_COLOR: "1", STATE_PATH: statePath, STATE_ARGS: JSON.stringify(args) },
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

/** Stores `newKey` for the identity that owns the demo key `owner`; returns the key's id. */
export function addKey(statePath: string, owner: string, newKey: string): number {
  return inState(statePath, "return createKey(db, identityOf(args.owner), { key: args.newKey }).id;", { owner, newKey });
}

export function revokeKey(statePath: string, keyId: number): void {
  inState(statePath, "revokeKey(db, args.keyId);", { keyId });
}

/** Sets the current month's request count of the team that owns the demo key `owner`. */
export function setMonthlyRequests(statePath: string, owner: string, requests: number): void {
  inState(
    statePath,
    `const team = db.prepare("SELECT team_id FROM identities WHERE id = ?").get(identityOf(args.owner)).team_id;
     const period = "month:" + new Date().toISOString().slice(0, 7);
     db.prepare("INSERT INTO usage (team_id, period, requests) VALUES (?, ?, ?) ON CONFLICT (team_id, period) DO UPDATE SET requests = excluded.requests").run(team, period, args.requests);`,
    { owner, requests },
  );
}

/** Sets the per-minute request quota of the team that owns the demo key `owner`. */
export function setPerMinuteQuota(statePath: string, owner: string, perMinute: number): void {
  inState(
    statePath,
    `db.prepare("UPDATE teams SET per_minute_requests = ? WHERE id = (SELECT team_id FROM identities WHERE id = ?)").run(args.perMinute, identityOf(args.owner));`,
    { owner, perMinute },
  );
}
