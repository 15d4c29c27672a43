/** What every request handler can reach: the state database, the market, and the request's identity. */
import type { DatabaseSync } from "node:sqlite";
import type { Dataset } from "../market/catalog.ts";
import type { Manifest } from "../market/manifest.ts";
import type { MarketFile } from "./query/marketFiles.ts";
import type { ValidationIssue } from "./errors.ts";
import type { Identity } from "./state/accounts.ts";
import type { Settings } from "./state/settings.ts";

export interface Market {
  dir: string;
  manifest: Manifest;
  /** Modification time of the manifest: when the data was last updated. */
  updatedAt: string;
  files: Map<string, MarketFile[]>;
  datasets: readonly Dataset[];
}

export interface Services {
  db: DatabaseSync;
  market: Market;
  /** Settings given for this run only (command line); they win over the saved ones. */
  runSettings: Partial<Settings>;
  /** The socket address of the request's peer. */
  socketAddress: (request: Request, info: unknown) => string;
  now: () => Date;
  log: (line: string) => void;
}

export type Env = {
  Bindings: { info?: unknown };
  Variables: {
    services: Services;
    settings: Settings;
    requestId: string;
    identity: Identity;
    /** Problems with a data request's parameter names, reported with its value problems. */
    nameIssues?: ValidationIssue[];
  };
};
