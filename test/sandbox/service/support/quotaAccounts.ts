/**
 * Accounts with quota limits of a test's choosing, made with the admin command against a
 * (running) sandbox's state file: `teams create`, `identities create` and `keys create`. Under
 * Node (no `node:sqlite`) the command runs as a child process, as an operator runs it; under
 * Deno its commands run in the test process on the state file, without a process per step
 * (the command line itself is tested in admin.test.ts).
 *
 * @example
 * ```ts
 * const account = await createQuotaAccount(sb.statePath, { name: "forty", perMinute: 40, monthly: 10_000 });
 * await sb.get("/api/v1/account/my/quotas", account.keys[0][0]);
 * ```
 */
import { adminJson } from "./admin.ts";

export interface QuotaAccountOptions {
  name: string;
  perMinute: number;
  monthly: number;
  /** Identities in the team (default 1). */
  identities?: number;
  /** Keys per identity (default 1). */
  keysPerIdentity?: number;
}

export interface QuotaAccount {
  teamId: number;
  identityIds: number[];
  /** `keys[i][k]` is the k-th key of the i-th identity. */
  keys: string[][];
}

/** An admin command (its words, then its options as `--name value` pairs) with `--json`: its answer. */
type Admin = <T>(words: string[], options: Record<string, string>) => Promise<T>;

/** The admin command line in a child process. */
const adminProcess = (statePath: string): Admin => (words, options) =>
  adminJson(statePath, ...words, ...Object.entries(options).flatMap(([k, v]) => [`--${k}`, v]));

/** The admin commands in this process (it has node:sqlite), on one connection to the state. */
async function adminHere<T>(statePath: string, use: (admin: Admin) => Promise<T>): Promise<T> {
  // Imported only here: under Node, loading the state modules would fail on node:sqlite.
  const { openState } = await import("../../../../sandbox/service/state/db.ts");
  const { findCommand } = await import("../../../../sandbox/service/admin/commands/index.ts");
  const db = openState(statePath);
  try {
    return await use(<A>(words: string[], options: Record<string, string>) => {
      const command = findCommand(words);
      if (!command) throw new Error(`No admin command '${words.join(" ")}'`);
      return command.run(db, { options, args: [], now: new Date() }).json as A;
    });
  } finally {
    db.close();
  }
}

/** Creates a team with these limits, its identities (entitled to every dataset) and their keys. */
export function createQuotaAccount(statePath: string, options: QuotaAccountOptions): Promise<QuotaAccount> {
  const create = async (admin: Admin): Promise<QuotaAccount> => {
    const { team_id: teamId } = await admin<{ team_id: number }>(["teams", "create"], {
      name: options.name,
      "per-minute": String(options.perMinute),
      monthly: String(options.monthly),
    });
    const identityIds: number[] = [];
    const keys: string[][] = [];
    for (let i = 0; i < (options.identities ?? 1); i++) {
      const { identity_id } = await admin<{ identity_id: number }>(["identities", "create"], {
        team: String(teamId),
        name: `${options.name} ${i + 1}`,
      });
      identityIds.push(identity_id);
      const mine: string[] = [];
      for (let k = 0; k < (options.keysPerIdentity ?? 1); k++) {
        mine.push((await admin<{ key: string }>(["keys", "create"], { identity: String(identity_id) })).key);
      }
      keys.push(mine);
    }
    return { teamId, identityIds, keys };
  };
  return "Deno" in globalThis ? adminHere(statePath, create) : create(adminProcess(statePath));
}
