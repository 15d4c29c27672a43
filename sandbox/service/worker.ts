/**
 * One worker of the sandbox (a Deno Worker thread, started by server.ts): its own state
 * connection, market index, decoded-file cache and HTTP server, listening with SO_REUSEPORT
 * on the port every worker shares, so the kernel spreads connections over the workers and
 * every core serves. Quotas stay exact across workers because admission and counting are
 * SQLite transactions on the one state file (state/usage.ts), taken in turn through a lock
 * the workers share (state/db.ts). The results workers write for small pages are shared with
 * the others over a MessagePort to each (query/writtenResults.ts).
 *
 * Large answers are guarded against clients that stop reading (net/bodyGuard.ts), and each
 * connection's requests are followed (net/activity.ts) so that the main thread's idle-connection
 * closer (net/idleCloser.ts) never closes one in use.
 *
 * Messages: in `{ type: "start", options, peers }` (peers: a port to each other worker),
 * `{ type: "activity", id }` (answered `{ type: "activity", id, report }`), then `{ type: "stop",
 * deadlineMs }` (answers in progress may finish until then: epoch milliseconds); out
 * `{ type: "listening", port }`, `{ type: "failed", message }` and `{ type: "stopped", cut,
 * finished }` (`cut`: answers cut at the deadline).
 */
/// <reference lib="deno.ns" />
/// <reference lib="deno.worker" />
import { createApp } from "./app.ts";
import { loadMarket } from "./market.ts";
import { shareFaultArrivals } from "./middleware/faults.ts";
import { adoptWrittenResult, shareWrittenResults, type WrittenMessage } from "./query/writtenResults.ts";
import { ConnectionActivity, connectionKey } from "./net/activity.ts";
import { cutAll, guardBody } from "./net/bodyGuard.ts";
import { SharedLine } from "./net/line.ts";
import { type NetworkShape, shapeAnswer, shapesAnswers } from "./net/shape.ts";
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
  /** The network answers go through (--latency, --bandwidth, --line); loopback as it is when absent. */
  network?: NetworkShape;
  /** The clock of the line every worker shares (--line; net/line.ts). */
  lineClock: SharedArrayBuffer;
  /** Milliseconds a client may take nothing of an answer before its connection is closed (bodyGuard.ts). */
  clientTimeoutMs: number;
}

/** Answers from this size up are guarded (bodyGuard.ts); smaller ones fit in the sockets' buffers whole. */
const GUARDED_FROM_BYTES = 64 * 1024;

/**
 * `response` with its body guarded against a client that stops taking it, when the body is
 * large: the app streams such bodies with their Content-Length (routes/data.ts), and a smaller
 * one is bytes, which Deno sends without asking back.
 */
function guarded(response: Response, stallMs: number): Response {
  const length = Number(response.headers.get("Content-Length") ?? 0);
  if (response.body === null || length < GUARDED_FROM_BYTES) return response;
  return new Response(guardBody(response.body, stallMs), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

let stop: ((deadlineMs: number) => Promise<void>) | undefined;
const activity = new ConnectionActivity();
let activityForgetMs = 60_000;

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
  const network = shapesAnswers(options.network) ? options.network : undefined;
  const line = network?.lineMBps === undefined ? undefined : new SharedLine(options.lineClock, network.lineMBps);
  const server = Deno.serve(
    {
      hostname: options.hostname,
      port: options.port,
      reusePort: options.reusePort,
      onListen: (addr) => self.postMessage({ type: "listening", port: (addr as Deno.NetAddr).port }),
    },
    (request, info) => {
      // Which connections are busy, for the idle-connection closer (net/idleCloser.ts).
      const key = connectionKey((info as Deno.ServeHandlerInfo<Deno.NetAddr>).remoteAddr);
      activity.begin(key);
      const ended = () => activity.end(key);
      info.completed.then(ended, ended);
      const answer = async () => {
        const response = await app.fetch(request, { info });
        response.headers.set("X-Sandbox-Worker", worker);
        // Deno.serve would gzip a body for a client that accepts it; the service promises no
        // transfer encoding (a client that wants fewer bytes asks for response_format=csv_gzip),
        // and on loopback compressing only costs CPU on both sides, so no answer is transformed.
        response.headers.set("Cache-Control", "no-transform");
        return response;
      };
      const response = network ? shapeAnswer(request.method, answer, network, line) : answer();
      return response.then((r) => guarded(r, options.clientTimeoutMs));
    },
  );
  activityForgetMs = 2 * options.clientTimeoutMs;
  stop = async (deadlineMs) => {
    // Answers in progress may finish until the deadline; then those still being sent are cut
    // (their connections close) and the worker stops waiting for the rest.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"deadline">((
      resolve,
    ) => (timer = setTimeout(() => resolve("deadline"), Math.max(0, deadlineMs - Date.now()))));
    const finished = await Promise.race([server.shutdown().then(() => "finished" as const), deadline]);
    clearTimeout(timer);
    const cut = finished === "deadline" ? cutAll() : 0;
    self.postMessage({ type: "stopped", cut, finished: finished === "finished" });
    for (const peer of peers) peer.close();
    db.close();
  };
}

type Message = { type: "start"; options: WorkerOptions; peers: MessagePort[] } | { type: "stop"; deadlineMs: number } | {
  type: "activity";
  id: number;
};

self.onmessage = async (event: MessageEvent<Message>) => {
  try {
    if (event.data.type === "start") start(event.data.options, event.data.peers);
    else if (event.data.type === "activity") {
      self.postMessage({ type: "activity", id: event.data.id, report: activity.report(activityForgetMs) });
    } else if (stop) await stop(event.data.deadlineMs);
    else self.postMessage({ type: "stopped", cut: 0, finished: true });
  } catch (e) {
    self.postMessage({ type: "failed", message: (e as Error).stack ?? String(e) });
  }
};
