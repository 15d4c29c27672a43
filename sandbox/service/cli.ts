/**
 * `npm run sandbox -- [--host ADDR] [--port N] [--profile tiny|demo] [--data <dir>] [--state <file>] [--latency MS] [--bandwidth MBPS] [--line MBPS] ...`
 * Generates the profile's market on first start when it is missing, serves it on 127.0.0.1
 * (or `--host`, e.g. ::1 to try IPv6 clients and allow-lists),
 * prints the demo keys and the settings that are not at their defaults (command-line settings
 * apply to this run only), then `ready <base_url>` once it accepts requests. Stops on SIGINT
 * and SIGTERM: answers in progress may finish for `--shutdown-grace` seconds, then the rest
 * are cut and the process exits.
 */
/// <reference lib="deno.ns" />
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { GENERATOR_VERSION } from "../market/manifest.ts";
import { profileByName } from "../market/profiles.ts";
import { isCidr, parseAddress } from "./net/cidr.ts";
import { cacheBudgetMb } from "./query/cacheBudget.ts";
import { collectPaceMb } from "./query/frameCollector.ts";
import { CLIENT_TIMEOUT_MS, SHUTDOWN_GRACE_MS, startSandbox } from "./server.ts";
import { DEMO_ACCOUNTS } from "./state/demoAccounts.ts";
import type { Settings } from "./state/settings.ts";

function fail(message: string): never {
  console.error(`sandbox: ${message}`);
  Deno.exit(2);
}

function parse() {
  try {
    return parseArgs({
      args: Deno.args,
      options: {
        host: { type: "string", default: "127.0.0.1" },
        port: { type: "string", default: "8000" },
        profile: { type: "string", default: "demo" },
        seed: { type: "string", default: "42" },
        data: { type: "string" },
        state: { type: "string" },
        maintenance: { type: "boolean" },
        "unentitled-status": { type: "string" },
        "query-budget-ms": { type: "string" },
        "query-memory-mb": { type: "string" },
        "trusted-proxy": { type: "string", multiple: true },
        faults: { type: "string" },
        workers: { type: "string" },
        latency: { type: "string" },
        bandwidth: { type: "string" },
        line: { type: "string" },
        "client-timeout": { type: "string" },
        "shutdown-grace": { type: "string" },
        log: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }).values;
  } catch (e) {
    fail(`${(e as Error).message}; see --help`);
  }
}

const args = parse();
if (args.help) {
  console.log(`usage: npm run sandbox -- [--host ADDR] [--port N|0] [--profile tiny|demo] [--data <dir>] [--state <file>]
  [--maintenance] [--unentitled-status 403|404] [--query-budget-ms N] [--query-memory-mb N] [--trusted-proxy CIDR]...
  [--faults seed,rate503,rate504,rate429,rateDrop] [--workers N] [--latency MS] [--bandwidth MBPS] [--line MBPS]
  [--client-timeout S] [--shutdown-grace S] [--log]
--workers: threads serving requests on one port, one per core by default (Deno needs --unstable-net to share a port).
--latency, --bandwidth: a network like a user's: MS milliseconds before each answer's first byte, and each
answer's body paced at MBPS megabytes (10^6 bytes) a second per connection.
--line: one line of MBPS megabytes (10^6 bytes) a second shared by every connection, as a user's link is
(12.5 is 100 Mbit/s): the answers in flight divide it. Combines with --latency (and --bandwidth).
--client-timeout: a connection that sends no complete request head (from its opening or its previous answer),
or takes nothing of an answer, for S seconds is closed (default 30).
--shutdown-grace: on SIGINT or SIGTERM, answers in progress may finish for S seconds (default 10); then those
still being sent are cut, their connections closed, and the sandbox exits.
Settings given here apply to this run only; \`npm run sandbox-admin -- set <name> <value>\` saves one in the
state file for every later run. The lines before \`ready\` name every setting that is not at its default.`);
  Deno.exit(0);
}

// An address, not a name: the allow-list compares addresses, and a name could resolve anywhere.
if (!parseAddress(args.host!)) fail(`--host '${args.host}' is not an IPv4 or IPv6 address such as 127.0.0.1 or ::1`);
const port = Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port '${args.port}' is not a port number (0 picks a free one)`);
const workers = args.workers === undefined ? undefined : Number(args.workers);
if (workers !== undefined && !(/^[0-9]{1,3}$/.test(args.workers!) && workers >= 1)) {
  fail(`--workers '${args.workers}' is not a number of workers (1 or more)`);
}
const latencyMs = args.latency === undefined ? 0 : Number(args.latency);
if (!(args.latency === undefined || (/^\d+(\.\d+)?$/.test(args.latency) && latencyMs <= 60_000))) {
  fail(`--latency '${args.latency}' is not a number of milliseconds from 0 to 60000`);
}
const bandwidthMBps = args.bandwidth === undefined ? undefined : Number(args.bandwidth);
if (!(args.bandwidth === undefined || (/^\d+(\.\d+)?$/.test(args.bandwidth) && bandwidthMBps! > 0))) {
  fail(`--bandwidth '${args.bandwidth}' is not a positive number of megabytes a second`);
}
const lineMBps = args.line === undefined ? undefined : Number(args.line);
if (!(args.line === undefined || (/^\d+(\.\d+)?$/.test(args.line) && lineMBps! > 0))) {
  fail(`--line '${args.line}' is not a positive number of megabytes a second (12.5 is 100 Mbit/s)`);
}
/** A number of seconds from a flag, as milliseconds: more than 0, at most an hour. */
function seconds(flag: string, text: string | undefined, fallbackMs: number): number {
  if (text === undefined) return fallbackMs;
  const s = Number(text);
  if (!(/^\d+(\.\d+)?$/.test(text) && s > 0 && s <= 3600)) fail(`--${flag} '${text}' is not a number of seconds from 0 (excluded) to 3600`);
  return s * 1000;
}
const clientTimeoutMs = seconds("client-timeout", args["client-timeout"], CLIENT_TIMEOUT_MS);
const shutdownGraceMs = seconds("shutdown-grace", args["shutdown-grace"], SHUTDOWN_GRACE_MS);
const seed = Number(args.seed);
if (!Number.isSafeInteger(seed) || seed < 0) fail(`--seed '${args.seed}' is not a non-negative integer`);
const settings: Partial<Settings> = {};
if (args.maintenance !== undefined) settings.maintenance = args.maintenance;
if (args["unentitled-status"] !== undefined) {
  const status = Number(args["unentitled-status"]);
  if (status !== 403 && status !== 404) fail(`--unentitled-status '${args["unentitled-status"]}' must be 403 or 404`);
  settings.unentitledStatus = status;
}
if (args["query-budget-ms"] !== undefined) {
  const ms = Number(args["query-budget-ms"]);
  if (!(ms > 0)) fail(`--query-budget-ms '${args["query-budget-ms"]}' must be a positive number of milliseconds`);
  settings.queryBudgetMs = ms;
}
if (args["query-memory-mb"] !== undefined) {
  const mb = Number(args["query-memory-mb"]);
  if (!(/^[0-9]{1,6}$/.test(args["query-memory-mb"]) && mb > 0)) {
    fail(`--query-memory-mb '${args["query-memory-mb"]}' must be a positive whole number of megabytes`);
  }
  settings.queryMemoryMb = mb;
}
if (args["trusted-proxy"]) {
  const bad = args["trusted-proxy"].find((c) => !isCidr(c));
  if (bad) fail(`--trusted-proxy '${bad}' is not a CIDR block such as 127.0.0.1/32`);
  settings.trustedProxies = args["trusted-proxy"];
}
if (args.faults !== undefined) {
  const parts = args.faults.split(",").map(Number);
  if (parts.length !== 5 || parts.some((x) => !Number.isFinite(x) || x < 0) || parts.slice(1).reduce((a, b) => a + b, 0) > 1) {
    fail(`--faults '${args.faults}' must be seed,rate503,rate504,rate429,rateDrop with rates summing to at most 1`);
  }
  settings.faults = { seed: parts[0], rate503: parts[1], rate504: parts[2], rate429: parts[3], rateDrop: parts[4] };
}

// The settings read from the environment too, before a market is generated: a mistyped value
// is named at once, not after minutes of generation.
try {
  cacheBudgetMb();
  collectPaceMb();
} catch (e) {
  fail((e as Error).message);
}

let profile;
try {
  profile = profileByName(args.profile!);
} catch (e) {
  fail((e as Error).message);
}
if (args.data !== undefined && args.data.trim() === "") {
  fail(`--data '${args.data}' names no folder: give the market's folder, or leave --data out for data/<profile>`);
}
const marketDir = args.data ?? join(import.meta.dirname!, "..", "..", "data", profile.name);
if (!existsSync(join(marketDir, "manifest.json"))) {
  // Loaded only to generate: the generator (and Polars with it) is no part of serving.
  const { generateMarketInParallel } = await import("../market/generate.ts");
  console.error(
    `sandbox: no market at ${marketDir}; generating profile ${profile.name} (seed ${seed}, generator v${GENERATOR_VERSION}) on every core...`,
  );
  const started = performance.now();
  await generateMarketInParallel({ profile, seed, outDir: marketDir });
  console.error(`sandbox: generated the market in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const sandbox = await startSandbox({
  marketDir,
  statePath: args.state ?? join(marketDir, "sandbox-state.sqlite"),
  port,
  hostname: args.host!.replace(/^\[|\]$/g, ""),
  settings,
  workers,
  log: args.log,
  network: { latencyMs, bandwidthMBps, lineMBps },
  clientTimeoutMs,
});
// `ready` is the last line on stdout: a parent that stops reading once it sees it (the
// workbench's sandbox() closes the pipe) would make any later write fail with a broken pipe.
console.log(`demo keys (X-API-KEY): ${DEMO_ACCOUNTS.map((a) => a.key).join(", ")}`);
for (const line of sandbox.settingsReport) console.log(line);
console.log(`ready ${sandbox.baseUrl}`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  const stopped = await sandbox.shutdown(shutdownGraceMs);
  const cut = stopped.finished
    ? ""
    : `; after ${shutdownGraceMs / 1000} s, ${stopped.cut} answer${
      stopped.cut === 1 ? "" : "s"
    } still being sent cut and the open connections closed`;
  console.error(`sandbox: stopped${cut}`);
  // Exiting closes every connection still open (a half-sent request, a client that never read).
  Deno.exit(0);
};
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);
