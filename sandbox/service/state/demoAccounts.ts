/**
 * The demo accounts, created on first start and kept in step with the catalog (a dataset
 * added later reaches the full-access accounts). Their keys are public and documented in the
 * README; like every key, only their digests are stored.
 */
import type { DatabaseSync } from "node:sqlite";
import { DEMO_KEYS } from "../../../contract/demoKeys.ts";
import type { Dataset } from "../../market/catalog.ts";
import { transaction } from "./db.ts";
import { hashKey } from "./keys.ts";

interface DemoAccount {
  key: string;
  name: string;
  quotas: [perMinute: number, monthly: number, scannedBytes: number, returnedBytes: number];
  datasets?: string[];
  window?: [string, string | null];
  universe?: string[];
  ipSubnets?: string[];
  deactivated?: boolean;
  expiresAt?: string;
}

const GENEROUS: DemoAccount["quotas"] = [100_000, 10_000_000, 10 * 2 ** 40, 2 ** 40];

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { key: DEMO_KEYS.fullAccess, name: "Demo full access", quotas: GENEROUS },
  {
    key: DEMO_KEYS.restricted,
    name: "Demo restricted",
    quotas: [30, 100_000, 10 * 2 ** 30, 2 ** 30],
    datasets: ["eq-daily-ohlc", "eq-taq-1min"],
    window: ["2023-11-21", "2023-11-27"],
    universe: ["AAPL", "MSFT"],
  },
  { key: DEMO_KEYS.ipRestricted, name: "Demo IP restricted", quotas: GENEROUS, ipSubnets: ["10.0.0.0/8", "fd00::/8"] },
  { key: DEMO_KEYS.deactivated, name: "Demo deactivated", quotas: GENEROUS, deactivated: true },
  { key: DEMO_KEYS.expired, name: "Demo expired", quotas: GENEROUS, expiresAt: "2024-01-01T00:00:00.000Z" },
  { key: DEMO_KEYS.tinyQuota, name: "Demo tiny quota", quotas: [5, 50, 10 * 2 ** 30, 2 ** 30] },
];

const EARLIEST = "2000-01-01";

/** Creates any missing demo account, key and access rule. */
export function ensureDemoAccounts(db: DatabaseSync, datasets: readonly Dataset[]): void {
  transaction(db, () => {
    for (const account of DEMO_ACCOUNTS) {
      const digest = hashKey(account.key);
      let identityId =
        (db.prepare("SELECT identity_id FROM api_keys WHERE key_hash = ?").get(digest) as { identity_id: number } | undefined)?.identity_id;
      if (identityId === undefined) {
        const team = db.prepare(
          "INSERT INTO teams (name, per_minute_requests, monthly_requests, monthly_data_scanned, monthly_data_returned) VALUES (?, ?, ?, ?, ?)",
        )
          .run(`${account.name} team`, ...account.quotas);
        const identity = db.prepare(
          "INSERT INTO identities (team_id, name, max_active_api_keys, ip_subnets, deactivated) VALUES (?, ?, ?, ?, ?)",
        )
          .run(team.lastInsertRowid, account.name, 5, JSON.stringify(account.ipSubnets ?? []), account.deactivated ? 1 : 0);
        identityId = Number(identity.lastInsertRowid);
        db.prepare("INSERT INTO api_keys (identity_id, key_hash, hint, created_at, expires_at) VALUES (?, ?, ?, ?, ?)")
          .run(
            identityId,
            digest,
            `${account.key.slice(0, 4)}...${account.key.slice(-2)}`,
            "2023-01-01T00:00:00.000Z",
            account.expiresAt ?? null,
          );
      }
      const [start, end] = account.window ?? [EARLIEST, null];
      const insertRule = db.prepare(
        "INSERT OR IGNORE INTO access_rules (identity_id, dataset_text_id, start_date, end_date, universe) VALUES (?, ?, ?, ?, ?)",
      );
      for (const d of datasets) {
        if (!account.datasets || account.datasets.includes(d.textId)) {
          insertRule.run(identityId, d.textId, start, end, JSON.stringify(account.universe ?? []));
        }
      }
    }
  });
}
