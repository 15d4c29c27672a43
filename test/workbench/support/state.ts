/**
 * Node-side wrapper of `stateEdit.ts`: edits a running sandbox's state file through Deno.
 *
 * @example
 * ```ts
 * createAccount(sb.statePath, { key: "wb-small-month", perMinute: 10_000, monthly: 40 });
 * setMonthlyLimit(sb.statePath, "wb-small-month", 10_000);
 * ```
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { denoPath } from "../../../scripts/paths.mjs";
import process from "node:process";

const DENO = denoPath();
const SCRIPT = join(process.cwd(), "test/workbench/support/stateEdit.ts");

function edit(statePath: string, operation: string, args: unknown): unknown {
  const out = execFileSync(DENO, ["run", "-A", SCRIPT, statePath, operation, JSON.stringify(args)], {
    env: { ...process.env, NO_COLOR: "1" },
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

/** A new team with its own identity and key, entitled to every dataset, with these request quotas. */
export function createAccount(statePath: string, account: { key: string; perMinute: number; monthly: number }): void {
  edit(statePath, "account", account);
}

/** Sets the monthly request limit of the key's team. */
export function setMonthlyLimit(statePath: string, key: string, monthly: number): void {
  edit(statePath, "monthlyLimit", { key, monthly });
}

/** Sets this month's request count of the key's team. */
export function setMonthlyUsage(statePath: string, key: string, requests: number): void {
  edit(statePath, "monthlyUsage", { key, requests });
}
