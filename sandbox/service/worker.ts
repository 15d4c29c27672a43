/**
 * One worker of the sandbox (a Deno Worker thread, started by server.ts): its own state
 * connection, market index, decoded-file cache and HTTP server, listening with SO_REUSEPORT
 * on the port every worker shares, so the kernel spreads connections over the workers and
 * every core serves. Quotas stay exact across workers because admission and counting are
 * SQLite transactions on the one state file (state/usage.ts), taken in turn through a lock
 * the workers share (state/db.ts). The results workers write for small pages are shared with
 * the others over a MessagePort to each (query/writtenResults.ts).
 *
 * Messages: in `{ type: "start", options, peers }` (peers: a port to each other worker) then
 * `{ type: "stop" }`; out `{ type: "listening", port }`, `{ type: "failed", message }` and
 * `{ type: "stopped" }`.
 */
/// <reference lib="deno.ns" />
/// <reference lib="deno.worker" />
import { createApp } from "./app.ts";
import { loadMarket } from "./market.ts";
import { shareFaultArrivals } from "./middleware/faults.ts";
import { adoptWrittenResult, shareWrittenResults, type WrittenMessage } from "./query/writtenResults.ts";
import { type NetworkShape, shapeAnswer } from "./net/shape.ts";
import { openState, shareWriteLock } from "./state/db.ts";
import type { Settings } from "./state/settings.ts";

export interface WorkerOptions {
  /** 1-based, sent as X-Sandbox-Worker so tests can see several workers answer. */
  index: number;
  marketDir: string;
  statePath: string;
  hostname: string;
  port: number;
  /** Share the port with other workers (SO_REUSEPORT). */
  reusePort: boolean;
  runSettings: Partial<Settings>;
  log: boolean;
  /** The fault-injection arrival counter every worker shares. */
  faultArrivals: SharedArrayBuffer;
  /** The state's in-process write lock every worker shares (state/db.ts). */
  stateLock: SharedArrayBuffer;
  /** The network answers go through (--latency, --bandwidth); loopback as it is when absent. */
  network?: NetworkShape;
}

let stop: (() => Promise<void>) | undefined;

/** Results this worker writes go to its peers, and theirs come here (see query/writtenResults.ts). */
function joinPeers(peers: MessagePort[]): void {
  if (peers.length === 0) return;
  shareWrittenResults((message) => {
    for (const peer of peers) peer.postMessage(message);
  });
  for (const peer of peers) peer.onmessage = (e: MessageEvent<WrittenMessage>) => adoptWrittenResult(e.data);
}

function start(options: WorkerOptions, peers: MessagePort[]): void {
  const db = openState(options.statePath);
  shareFaultArrivals(options.faultArrivals);
  shareWriteLock(options.stateLock);
  joinPeers(peers);
  const app = createApp({
    db,
    market: loadMarket(options.marketDir),
    runSettings: options.runSettings,
    socketAddress: (_request, info) => (info as Deno.ServeHandlerInfo<Deno.NetAddr>).remoteAddr.hostname,
    now: () => new Date(),
    log: options.log ? (line) => console.error(`${line} worker=${options.index}`) : () => {},
  });
  const worker = String(options.index);
  const network = options.network && (options.network.latencyMs > 0 || options.network.bandwidthMBps !== undefined) ? options.network : undefined;
  const server = Deno.serve(
    {
      hostname: options.hostname,
      port: options.port,
      reusePort: options.reusePort,
      onListen: (addr) => self.postMessage({ type: "listening", port: (addr as Deno.NetAddr).port }),
    },
    (request, info) => {
      const answer = async () => {
        const response = await app.fetch(request, { info });
        response.headers.set("X-Sandbox-Worker", worker);
        // Deno.serve would gzip a body for a client that accepts it; the service promises no
        // transfer encoding (a client that wants fewer bytes asks for response_format=csv_gzip),
        // and on loopback compressing only costs CPU on both sides, so no answer is transformed.
        response.headers.set("Cache-Control", "no-transform");
        return response;
      };
      return network ? shapeAnswer(request.method, answer, network) : answer();
    },
  );
  stop = async () => {
    await server.shutdown();
    for (const peer of peers) peer.close();
    db.close();
  };
}

self.onmessage = async (event: MessageEvent<{ type: "start"; options: WorkerOptions; peers: MessagePort[] } | { type: "stop" }>) => {
  try {
    if (event.data.type === "start") start(event.data.options, event.data.peers);
    else {
      await stop?.();
      self.postMessage({ type: "stopped" });
    }
  } catch (e) {
    self.postMessage({ type: "failed", message: (e as Error).stack ?? String(e) });
  }
};
