/**
 * The sandbox's app in the test process (sandbox/service/inProcess.ts) over the run's tiny
 * market, with its own state file: no port, no child process. Tests reach it through its
 * `fetch` (hand it to `connect`), or `get`, whose answers are checked against the app's own
 * /openapi.json as a spawned sandbox's are (contractCheck.ts). Needs `node:sqlite`: the suite
 * runs under the Node 22 that npm installs (scripts/test.mjs).
 *
 * @example
 * ```ts
 * const sb = await openAppSandbox({ settings: { unentitledStatus: 403 } });
 * const wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
 * const r = await sb.get("/api/v1/account/my", "demo-full-access");
 * await sb.stop();
 * ```
 */
import { inject } from "vitest";
import { openInProcessSandbox } from "../../../../sandbox/service/inProcess.ts";
import type { Settings } from "../../../../sandbox/service/state/settings.ts";
import { ContractCheck } from "./contractCheck.ts";

/** A sandbox a test talks to: its address, how to reach it, its state file. */
export interface AppSandbox {
  baseUrl: string;
  statePath: string;
  /** Answers a request in-process; give it to `connect({ fetch })`. */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** GET a path (with query) with an optional API key and extra headers; the answer is contract-checked. */
  get: (path: string, key?: string, headers?: Record<string, string>) => Promise<Response>;
  /** Closes the app; fails when an answer `get` received does not match /openapi.json. */
  stop: () => Promise<void>;
}

/** How to open one: run settings as the CLI's flags give them, a state file to reuse, a clock. */
export interface AppSandboxOptions {
  settings?: Partial<Settings>;
  /** Reuse a state file; a fresh one by default. */
  statePath?: string;
  /** Market folder; the run's tiny market by default. */
  marketDir?: string;
  /** The service's clock; the real one by default. */
  now?: () => Date;
  /** The address requests seem to come from (127.0.0.1 by default). */
  clientAddress?: string;
  /** The origin it answers as; give a reopened sandbox its predecessor's (a restart). */
  baseUrl?: string;
}

/** Opens the app in-process and loads its contract check. */
export async function openAppSandbox(options: AppSandboxOptions = {}): Promise<AppSandbox> {
  // A query past its budget stops at its next step, but the step under way finishes on Polars'
  // threads, and one still running when its test file ends brings the test process down. On a
  // busy machine a whole-dataset scan can pass the service's 30 s, so in-process the budget is
  // generous unless a test sets it (boundedQueries.test.ts sets a tiny one).
  const settings = { queryBudgetMs: 600_000, ...options.settings };
  const sb = openInProcessSandbox({ ...options, settings, marketDir: options.marketDir ?? inject("tinyMarketDir") });
  const contract = await ContractCheck.load(sb.baseUrl, true, sb.fetch);
  const pending: Promise<void>[] = [];
  return {
    baseUrl: sb.baseUrl,
    statePath: sb.statePath,
    fetch: sb.fetch,
    get: async (path, key, headers = {}) => {
      const response = await sb.fetch(`${sb.baseUrl}${path}`, {
        headers: { ...(key === undefined ? {} : { "X-API-KEY": key }), ...headers },
      });
      pending.push(contract.recordAnswer("GET", path, response));
      return response;
    },
    stop: async () => {
      await Promise.all(pending);
      sb.close();
      contract.forget(sb.baseUrl);
      const { checked, failures } = contract.report();
      if (failures.length > 0) {
        throw new Error(`${failures.length} of ${checked} answers do not match /openapi.json:\n${failures.slice(0, 20).join("\n")}`);
      }
    },
  };
}
