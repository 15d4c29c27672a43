/**
 * Accounts with quota limits of a test's choosing, made with the admin command against a
 * (running) sandbox's state file: `teams create`, `identities create` and `keys create`.
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

/** Creates a team with these limits, its identities (entitled to every dataset) and their keys. */
export async function createQuotaAccount(statePath: string, options: QuotaAccountOptions): Promise<QuotaAccount> {
  const { team_id: teamId } = await adminJson<{ team_id: number }>(
    statePath, "teams", "create", "--name", options.name, "--per-minute", String(options.perMinute), "--monthly", String(options.monthly),
  );
  const identityIds: number[] = [];
  const keys: string[][] = [];
  for (let i = 0; i < (options.identities ?? 1); i++) {
    const { identity_id } = await adminJson<{ identity_id: number }>(statePath, "identities", "create", "--team", String(teamId), "--name", `${options.name} ${i + 1}`);
    identityIds.push(identity_id);
    const mine: string[] = [];
    for (let k = 0; k < (options.keysPerIdentity ?? 1); k++) {
      mine.push((await adminJson<{ key: string }>(statePath, "keys", "create", "--identity", String(identity_id))).key);
    }
    keys.push(mine);
  }
  return { teamId, identityIds, keys };
}
