/**
 * `settings` shows the saved runtime settings; `set <name> <value>` saves one. Saved settings
 * outlive restarts (unlike the sandbox's command-line options, which apply to one run), and
 * the service reads them from the state database, so a change reaches a running sandbox at its
 * next request, with no restart (unless that run overrides the setting on its command line).
 */
import type { DatabaseSync } from "node:sqlite";
import { isCidr } from "../../net/cidr.ts";
import { readSettings, type Settings, showSetting, writeSettings } from "../../state/settings.ts";
import type { Command, Output } from "../command.ts";
import { AdminInputError } from "../input.ts";
import { table } from "../table.ts";

/** Each setting's command-line name and how to read a value for it (showSetting shows it). */
const SETTINGS: Record<string, { key: keyof Settings; parse: (v: string) => Settings[keyof Settings] }> = {
  maintenance: {
    key: "maintenance",
    parse: (v) => (v === "on" ? true : v === "off" ? false : bad("maintenance", v, "on or off")),
  },
  "unentitled-status": {
    key: "unentitledStatus",
    parse: (v) => (v === "403" ? 403 : v === "404" ? 404 : bad("unentitled-status", v, "403 or 404")),
  },
  "query-budget-ms": {
    key: "queryBudgetMs",
    parse: (
      v,
    ) => (/^[0-9]{1,9}$/.test(v) && Number(v) > 0 ? Number(v) : bad("query-budget-ms", v, "a positive whole number of milliseconds")),
  },
  "query-memory-mb": {
    key: "queryMemoryMb",
    parse: (v) => (/^[0-9]{1,6}$/.test(v) && Number(v) > 0 ? Number(v) : bad("query-memory-mb", v, "a positive whole number of megabytes")),
  },
  "trusted-proxies": {
    key: "trustedProxies",
    parse: (v) => {
      if (v === "none") return [];
      const cidrs = v.split(",").map((c) => c.trim());
      const wrong = cidrs.find((c) => !isCidr(c));
      return wrong === undefined
        ? cidrs
        : bad("trusted-proxies", wrong, "a CIDR block such as 127.0.0.1/32 (several separated by commas, or none)");
    },
  },
  faults: {
    key: "faults",
    parse: (v) => {
      if (v === "off") return null;
      const parts = v.split(",").map((p) => (/^\d+(\.\d+)?$/.test(p.trim()) ? Number(p) : NaN));
      if (parts.length !== 5 || parts.some(Number.isNaN) || parts.slice(1).reduce((a, b) => a + b, 0) > 1) {
        return bad("faults", v, "off or seed,rate503,rate504,rate429,rateDrop with rates summing to at most 1");
      }
      return { seed: parts[0], rate503: parts[1], rate504: parts[2], rate429: parts[3], rateDrop: parts[4] };
    },
  },
};

function bad(name: string, value: string, expected: string): never {
  throw new AdminInputError(`Setting ${name} cannot be '${value}': use ${expected}`);
}

function show(db: DatabaseSync): Output {
  const settings = readSettings(db);
  return {
    text: table(["setting", "value"], Object.entries(SETTINGS).map(([name, s]) => [name, showSetting(s.key, settings)])),
    json: settings,
  };
}

export const settingsCommands: Command[] = [
  { words: ["settings"], usage: "settings", options: [], args: [], run: (db) => show(db) },
  {
    words: ["set"],
    usage: `set <name> <value>   (names: ${Object.keys(SETTINGS).join(", ")})`,
    options: [],
    args: ["name", "value"],
    run: (db, { args: [name, value] }) => {
      if (!Object.hasOwn(SETTINGS, name)) {
        throw new AdminInputError(`Unknown setting '${name}': known settings are ${Object.keys(SETTINGS).join(", ")}`);
      }
      const setting = SETTINGS[name];
      const before = showSetting(setting.key, readSettings(db));
      writeSettings(db, { [setting.key]: setting.parse(value) });
      const after = showSetting(setting.key, readSettings(db));
      return { text: `${name}: ${before} -> ${after}`, json: readSettings(db) };
    },
  },
];
