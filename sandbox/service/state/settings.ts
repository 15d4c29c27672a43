/**
 * Runtime settings (maintenance, the 403/404 choice for unentitled datasets, the query budget
 * and memory ceiling, trusted proxies, fault injection) in two layers: saved ones, kept in the state database by
 * `sandbox-admin set` (a running service sees them at its next request, and they outlive a
 * restart), and the command line's, which apply to that run only and win over saved ones.
 */
import type { DatabaseSync } from "node:sqlite";
import { statement } from "./db.ts";

interface FaultSettings {
  seed: number;
  rate503: number;
  rate504: number;
  rate429: number;
  rateDrop: number;
}

export interface Settings {
  maintenance: boolean;
  unentitledStatus: 403 | 404;
  /** Milliseconds a data query may take before it is stopped and answered 504. */
  queryBudgetMs: number;
  /** Megabytes a data query's frames may hold (estimated) before it is stopped and answered 504. */
  queryMemoryMb: number;
  /** CIDRs whose `X-Forwarded-For` header is believed. */
  trustedProxies: string[];
  faults: FaultSettings | null;
}

const DEFAULT_SETTINGS: Settings = {
  maintenance: false,
  unentitledStatus: 404,
  queryBudgetMs: 30_000,
  queryMemoryMb: 256,
  trustedProxies: [],
  faults: null,
};

export function readSettings(db: DatabaseSync): Settings {
  const rows = statement(db, "SELECT key, value FROM settings").all() as { key: string; value: string }[];
  const stored = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]));
  return { ...DEFAULT_SETTINGS, ...stored };
}

export function writeSettings(db: DatabaseSync, changes: Partial<Settings>): void {
  const upsert = statement(db, "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
  for (const [key, value] of Object.entries(changes)) {
    if (!(key in DEFAULT_SETTINGS)) {
      throw new Error(`Unknown setting '${key}': known settings are ${Object.keys(DEFAULT_SETTINGS).join(", ")}`);
    }
    upsert.run(key, JSON.stringify(value));
  }
}

/** How a setting is shown (admin `settings`, the start-up lines), by its key. */
export function showSetting(key: keyof Settings, settings: Settings): string {
  switch (key) {
    case "maintenance":
      return settings.maintenance ? "on" : "off";
    case "unentitledStatus":
      return String(settings.unentitledStatus);
    case "queryBudgetMs":
      return String(settings.queryBudgetMs);
    case "queryMemoryMb":
      return String(settings.queryMemoryMb);
    case "trustedProxies":
      return settings.trustedProxies.join(",") || "none";
    case "faults": {
      const f = settings.faults;
      return f ? `${f.seed},${f.rate503},${f.rate504},${f.rate429},${f.rateDrop}` : "off";
    }
  }
}

/**
 * One line per setting that differs from its default, saying where it comes from: what a
 * start-up prints so nobody runs with faults or a trusted proxy without knowing.
 *
 * @example
 * ```ts
 * settingsReport(readSettings(db), { faults: { seed: 1, rate503: 0.1, rate504: 0, rate429: 0, rateDrop: 0 } });
 * // ["setting faults = 1,0.1,0,0,0 (command line, this run only)"]
 * ```
 */
export function settingsReport(saved: Settings, runOnly: Partial<Settings>): string[] {
  const effective = { ...saved, ...runOnly };
  const lines: string[] = [];
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    const shown = showSetting(key, effective);
    if (key in runOnly) lines.push(`setting ${key} = ${shown} (command line, this run only)`);
    else if (shown !== showSetting(key, DEFAULT_SETTINGS)) {
      lines.push(`setting ${key} = ${shown} (saved in the state file; change with sandbox-admin set)`);
    }
  }
  return lines.length > 0 ? lines : ["settings: all at their defaults"];
}
