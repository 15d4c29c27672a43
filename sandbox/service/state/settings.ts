/**
 * Runtime settings, kept in the state database so the admin command can change them while
 * the service runs (maintenance, the 403/404 choice for unentitled datasets, the query
 * budget, trusted proxies, fault injection).
 */
import type { DatabaseSync } from "node:sqlite";

export interface FaultSettings {
  seed: number;
  rate503: number;
  rate504: number;
  rate429: number;
  rateDrop: number;
}

export interface Settings {
  maintenance: boolean;
  unentitledStatus: 403 | 404;
  /** Milliseconds a data query may take before it is abandoned and answered 504. */
  queryBudgetMs: number;
  /** CIDRs whose `X-Forwarded-For` header is believed. */
  trustedProxies: string[];
  faults: FaultSettings | null;
}

export const DEFAULT_SETTINGS: Settings = {
  maintenance: false,
  unentitledStatus: 404,
  queryBudgetMs: 30_000,
  trustedProxies: [],
  faults: null,
};

export function readSettings(db: DatabaseSync): Settings {
  const rows = db.prepare("SELECT key, value FROM settings").all() as { key: string; value: string }[];
  const stored = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]));
  return { ...DEFAULT_SETTINGS, ...stored };
}

export function writeSettings(db: DatabaseSync, changes: Partial<Settings>): void {
  const upsert = db.prepare("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
  for (const [key, value] of Object.entries(changes)) {
    if (!(key in DEFAULT_SETTINGS)) throw new Error(`Unknown setting '${key}': known settings are ${Object.keys(DEFAULT_SETTINGS).join(", ")}`);
    upsert.run(key, JSON.stringify(value));
  }
}
