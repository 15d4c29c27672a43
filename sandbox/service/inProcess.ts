/**
 * The sandbox's app in this process, over a market folder and a state file, answering through
 * a `fetch` function instead of a port: what tests and notebooks need when they want the
 * service's real answers without a child process or a socket. The state is prepared as the
 * server prepares it (demo accounts, places in flight freed); run settings and the clock are
 * given here. Needs `node:sqlite` (Deno, or Node 22.5 and later).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "./app.ts";
import { loadMarket } from "./market.ts";
import { shareFaultArrivals } from "./middleware/faults.ts";
import { openState } from "./state/db.ts";
import { ensureDemoAccounts } from "./state/demoAccounts.ts";
import type { Settings } from "./state/settings.ts";
import { clearInFlight } from "./state/usage.ts";

/** How to open an in-process sandbox. */
export interface InProcessOptions {
  /** The generated market to serve (a folder with `manifest.json`). */
  marketDir: string;
  /** The state file; a fresh one in a temporary folder (removed by `close`) when left out. */
  statePath?: string;
  /** Settings for this run only, as the CLI's `--faults`, `--unentitled-status`, ... give them. */
  settings?: Partial<Settings>;
  /** The service's clock (quota windows, key expiry); the real one when left out. */
  now?: () => Date;
  /** The peer address every request seems to come from (the IP allow-list reads it); 127.0.0.1 by default. */
  clientAddress?: string;
  /**
   * The origin requests are addressed to (nothing listens there); a fresh
   * `http://sandbox-N.invalid` when left out. Give the same one to reopen a sandbox on its
   * state as a restart on the same port would.
   */
  baseUrl?: string;
  /** Receives the access-log lines; they are dropped when left out. */
  log?: (line: string) => void;
}

/** A sandbox answering in this process. */
export interface InProcessSandbox {
  /** The origin requests are addressed to; nothing listens there, `fetch` answers it. */
  baseUrl: string;
  /** The state file (edit it as an operator would, e.g. with `sandbox-admin`). */
  statePath: string;
  /** Answers a request with the app, as the global `fetch` would over HTTP. */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Closes the state database and removes a temporary state file. */
  close: () => void;
}

/**
 * Nothing resolves or listens under `.invalid` (RFC 2606), so a request that misses `fetch`
 * fails loudly; each sandbox has a name of its own, so answers stay told apart by origin.
 */
let opened = 0;

/**
 * Opens the sandbox's app in-process.
 *
 * @example
 * ```ts
 * const sb = openInProcessSandbox({ marketDir: "data/tiny", settings: { unentitledStatus: 403 } });
 * const wb = await connect({ baseUrl: sb.baseUrl, apiKey: "demo-full-access", fetch: sb.fetch });
 * console.log(await wb.account.identity());
 * sb.close();
 * ```
 */
export function openInProcessSandbox(options: InProcessOptions): InProcessSandbox {
  const scratch = options.statePath === undefined ? mkdtempSync(join(tmpdir(), "sandbox-state-")) : undefined;
  const statePath = options.statePath ?? join(scratch!, "state.sqlite");
  const db = openState(statePath);
  try {
    const market = loadMarket(options.marketDir);
    ensureDemoAccounts(db, market.datasets);
    clearInFlight(db);
    // Fault draws follow arrivals counted from 0, as in a sandbox just started. The counter is
    // the process's: sandboxes open at the same time share it, from the latest one's start.
    shareFaultArrivals(new SharedArrayBuffer(4));
    const clientAddress = options.clientAddress ?? "127.0.0.1";
    const app = createApp({
      db,
      market,
      runSettings: options.settings ?? {},
      socketAddress: () => clientAddress,
      now: options.now ?? (() => new Date()),
      log: options.log ?? (() => {}),
    });
    return {
      baseUrl: options.baseUrl ?? `http://sandbox-${++opened}.invalid`,
      statePath,
      fetch: async (input, init) => {
        // A served request is answered in a later turn of the event loop; so is this one. Without
        // the turn, a caller's loop of requests is one chain of microtasks that keeps the host's
        // timers and I/O (a test runner's messages, say) waiting until it ends.
        await new Promise((resolve) => setTimeout(resolve, 0));
        return await app.fetch(new Request(input, init), { info: undefined });
      },
      close: () => {
        db.close();
        if (scratch) rmSync(scratch, { recursive: true, force: true });
      },
    };
  } catch (e) {
    db.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    throw e;
  }
}
