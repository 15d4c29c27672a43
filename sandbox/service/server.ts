/**
 * Starts the sandbox on 127.0.0.1 with Deno's HTTP server: opens the state, loads the market,
 * ensures the demo accounts, and serves until shut down. State is written synchronously per
 * request, so stopping at any moment loses no usage counter.
 */
/// <reference lib="deno.ns" />
import { createApp } from "./app.ts";
import { loadMarket } from "./market.ts";
import { openState } from "./state/db.ts";
import { ensureDemoAccounts } from "./state/demoAccounts.ts";
import { clearInFlight } from "./state/usage.ts";
import { readSettings, type Settings, settingsReport } from "./state/settings.ts";

export interface SandboxOptions {
  marketDir: string;
  statePath: string;
  /** 0 picks a free port. */
  port: number;
  hostname?: string;
  /** Settings for this run only: they win over saved ones and are never written to the state. */
  settings?: Partial<Settings>;
  log?: (line: string) => void;
}

export interface RunningSandbox {
  baseUrl: string;
  shutdown: () => Promise<void>;
  /** Start-up lines naming every setting that is not at its default, and where it comes from. */
  settingsReport: string[];
}

export function startSandbox(options: SandboxOptions): RunningSandbox {
  const db = openState(options.statePath);
  const market = loadMarket(options.marketDir);
  ensureDemoAccounts(db, market.datasets);
  clearInFlight(db);
  const app = createApp({
    db,
    market,
    runSettings: options.settings ?? {},
    socketAddress: (_request, info) => (info as Deno.ServeHandlerInfo<Deno.NetAddr>).remoteAddr.hostname,
    now: () => new Date(),
    log: options.log ?? (() => {}),
  });
  const hostname = options.hostname ?? "127.0.0.1";
  const server = Deno.serve({ hostname, port: options.port, onListen: () => {} }, (request, info) => app.fetch(request, { info }));
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return {
    baseUrl: `http://${host}:${server.addr.port}`,
    settingsReport: settingsReport(readSettings(db), options.settings ?? {}),
    shutdown: async () => {
      await server.shutdown();
      db.close();
    },
  };
}
