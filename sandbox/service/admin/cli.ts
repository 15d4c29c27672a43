/**
 * `npm run sandbox-admin -- [--state <file> | --data <dir>] [--json] <command> ...`
 * Administers a sandbox's state file (by default data/demo/sandbox-state.sqlite): identities,
 * teams, API keys, account state, quota usage and runtime settings. Safe while the sandbox
 * runs: the state is SQLite in WAL mode and the service reads settings on every request.
 *
 * Exit codes: 0 done; 1 the state refused (the service's status and detail are printed, e.g.
 * `409 Conflict: An account cannot have more than 5 active API keys`, or a 404 for an unknown
 * identity or key); 2 bad input (the message names the bad value).
 */
/// <reference lib="deno.ns" />
import { runAdmin } from "./run.ts";

const { code, stdout, stderr } = runAdmin(Deno.args);
if (stdout) console.log(stdout);
if (stderr) console.error(stderr);
Deno.exit(code);
