/**
 * Starts the sandbox on 127.0.0.1: prepares the state (demo accounts, places in flight left
 * by a killed process freed), then starts its workers (worker.ts), one per core by default,
 * each serving the same port, and closes connections that stay silent past the client
 * time-out (net/idleCloser.ts). Usage is written synchronously when each answer is committed,
 * so stopping at any moment loses no counted request; a stop gives answers in progress a
 * grace period, then cuts those still being sent.
 */
/// <reference lib="deno.ns" />
import { tuneAllocator } from "./allocator.ts";
import { loadMarket } from "./market.ts";
import { cacheBudgetMb } from "./query/cacheBudget.ts";
import { collectionReport } from "./query/frameCollector.ts";
import { openState } from "./state/db.ts";
import { ensureDemoAccounts } from "./state/demoAccounts.ts";
import { readSettings, type Settings, settingsReport } from "./state/settings.ts";
import { clearInFlight } from "./state/usage.ts";
import type { ActivityReport } from "./net/activity.ts";
import { startIdleCloser } from "./net/idleCloser.ts";
import { SharedLine } from "./net/line.ts";
import { networkReport, type NetworkShape } from "./net/shape.ts";
import type { WorkerOptions } from "./worker.ts";

export interface SandboxOptions {
  marketDir: string;
  statePath: string;
  /** 0 picks a free port. */
  port: number;
  hostname?: string;
  /** Settings for this run only: they win over saved ones and are never written to the state. */
  settings?: Partial<Settings>;
  /** Worker threads serving requests (default: one per core). */
  workers?: number;
  /** Write an access-log line per request to stderr. */
  log?: boolean;
  /** The network to imitate (--latency, --bandwidth, --line); plain loopback when absent. */
  network?: NetworkShape;
  /**
   * Milliseconds a connection may stay without a complete request (from its opening or its
   * previous answer), or without taking any of an answer, before it is closed (default 30,000).
   */
  clientTimeoutMs?: number;
}

/** The client time-out by default: a request head or an answer's next bytes within 30 s. */
export const CLIENT_TIMEOUT_MS = 30_000;

/** What a stop did: whether every answer in progress finished, and how many were cut at the deadline. */
interface StopReport {
  finished: boolean;
  cut: number;
  /** Connections closed for their silence while the sandbox ran. */
  idleClosed: number;
}

export interface RunningSandbox {
  baseUrl: string;
  /** Workers actually serving (1 when the runtime cannot share a port; see `notes`). */
  workers: number;
  /**
   * Stops serving: no new connection is taken, answers in progress may finish for `graceMs`,
   * then those still being sent are cut (their connections close) and the workers end.
   */
  shutdown: (graceMs?: number) => Promise<StopReport>;
  /** Start-up lines: the settings not at their defaults and where they come from, the workers. */
  settingsReport: string[];
}

/** Milliseconds answers in progress may take to finish once the sandbox is told to stop, by default. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** Whether this Deno lets several listeners share a port (it needs --unstable-net). */
function canSharePort(hostname: string): boolean {
  try {
    // reusePort is typed in Deno's unstable library only.
    Deno.listen({ hostname, port: 0, reusePort: true } as Deno.TcpListenOptions).close();
    return true;
  } catch {
    return false;
  }
}

function startWorker(options: WorkerOptions, peers: MessagePort[]): Promise<{ worker: Worker; port: number }> {
  const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
  return new Promise((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<{ type: string; port?: number; message?: string }>) => {
      if (e.data.type === "listening") resolve({ worker, port: e.data.port! });
      else if (e.data.type === "failed") reject(new Error(`sandbox worker ${options.index} failed to start: ${e.data.message}`));
    };
    worker.onerror = (e) => {
      e.preventDefault();
      reject(new Error(`sandbox worker ${options.index} failed: ${e.message}`));
    };
    worker.postMessage({ type: "start", options, peers }, peers);
  });
}

/** The worker's messages after it started: answers to "activity" and "stop". */
type WorkerReply = { type: "activity"; id: number; report: ActivityReport } | { type: "stopped"; cut: number; finished: boolean };

/** A started worker: asks it for its activity, stops it. */
class WorkerHandle {
  /** Questions about activity waiting for their answer, by id: a late answer to an older one is dropped, never taken for a newer one's. */
  readonly #activity = new Map<number, (report: ActivityReport) => void>();
  #asked = 0;
  #stopped?: (reply: { cut: number; finished: boolean }) => void;

  constructor(readonly worker: Worker) {
    worker.onmessage = (e: MessageEvent<WorkerReply>) => {
      if (e.data.type === "activity") this.#activity.get(e.data.id)?.(e.data.report);
      else if (e.data.type === "stopped") this.#stopped?.(e.data);
    };
  }

  /** The worker's activity report, or undefined when it does not answer within `waitMs` (busy). */
  activity(waitMs: number): Promise<ActivityReport | undefined> {
    const id = ++this.#asked;
    return new Promise<ActivityReport | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), waitMs);
      this.#activity.set(id, (report) => {
        clearTimeout(timer);
        resolve(report);
      });
      this.worker.postMessage({ type: "activity", id });
    }).finally(() => this.#activity.delete(id));
  }

  /** Stops the worker: answers in progress may finish until `deadlineMs` (epoch ms); a worker that does not say it stopped soon after is ended anyway. */
  async stop(deadlineMs: number): Promise<{ cut: number; finished: boolean }> {
    const stopped = new Promise<{ cut: number; finished: boolean }>((resolve) => (this.#stopped = resolve));
    this.worker.postMessage({ type: "stop", deadlineMs });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<{ cut: number; finished: boolean }>((
      resolve,
    ) => (timer = setTimeout(() => resolve({ cut: 0, finished: false }), Math.max(0, deadlineMs - Date.now()) + 2000)));
    const reply = await Promise.race([stopped, late]);
    clearTimeout(timer);
    this.worker.terminate();
    return reply;
  }
}

/**
 * Shares the sandbox's one cache budget (SANDBOX_FRAME_CACHE_MB, see query/frameCache.ts) out
 * among the workers, which read their share when they start: each keeps its own caches, and
 * together they hold no more than the budget. Returns the start-up line that says so.
 */
function shareCaches(workers: number): string {
  const mb = cacheBudgetMb(Deno.env.get("SANDBOX_FRAME_CACHE_MB"));
  Deno.env.set("SANDBOX_WORKER_CACHE_MB", String(mb / workers));
  return mb === 0
    ? "caches: off (SANDBOX_FRAME_CACHE_MB=0)"
    : `caches: ${mb} MB over ${workers} worker${
      workers === 1 ? "" : "s"
    } (decoded files, whole results and written pages; SANDBOX_FRAME_CACHE_MB)`;
}

/**
 * A channel between every two workers: `ports[i]` are worker i's ends. Workers tell each other
 * over them what they have written (query/writtenResults.ts), directly, without a hop through
 * this thread, so the message usually arrives before the client's next request does.
 */
function peerPorts(count: number): MessagePort[][] {
  const ports: MessagePort[][] = Array.from({ length: count }, () => []);
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) {
      const channel = new MessageChannel();
      ports[i].push(channel.port1);
      ports[j].push(channel.port2);
    }
  }
  return ports;
}

/**
 * Prepares the state and starts the workers; resolves once all of them listen.
 *
 * @example
 * ```ts
 * const sb = await startSandbox({ marketDir: "data/tiny", statePath: "/tmp/s.sqlite", port: 0 });
 * await fetch(`${sb.baseUrl}/openapi.json`);
 * await sb.shutdown();
 * ```
 */
export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const hostname = options.hostname ?? "127.0.0.1";
  const allocator = tuneAllocator();
  const db = openState(options.statePath);
  const report = (() => {
    try {
      ensureDemoAccounts(db, loadMarket(options.marketDir).datasets);
      clearInFlight(db);
      return settingsReport(readSettings(db), options.settings ?? {});
    } finally {
      db.close();
    }
  })();
  const wanted = Math.max(1, options.workers ?? navigator.hardwareConcurrency);
  const shared = wanted > 1 && canSharePort(hostname);
  const count = shared ? wanted : 1;
  const caches = shareCaches(count);
  const clientTimeoutMs = options.clientTimeoutMs ?? CLIENT_TIMEOUT_MS;
  const base = {
    marketDir: options.marketDir,
    statePath: options.statePath,
    hostname,
    reusePort: shared,
    runSettings: options.settings ?? {},
    log: options.log ?? false,
    network: options.network,
    clientTimeoutMs,
    faultArrivals: new SharedArrayBuffer(4),
    stateLock: new SharedArrayBuffer(4),
    lineClock: SharedLine.clock(),
  };
  const peers = peerPorts(count);
  // The first worker takes the port (a free one for 0); the others join it.
  const first = await startWorker({ ...base, index: 1, port: options.port }, peers[0]);
  const rest = await Promise.all(
    Array.from({ length: count - 1 }, (_, i) => startWorker({ ...base, index: i + 2, port: first.port }, peers[i + 1])),
  );
  const workers = [first.worker, ...rest.map((r) => r.worker)].map((w) => new WorkerHandle(w));
  const closer = startIdleCloser(first.port, clientTimeoutMs, async () => {
    const reports = await Promise.all(workers.map((w) => w.activity(1000)));
    return reports.every((r) => r !== undefined) ? reports as ActivityReport[] : undefined;
  });
  const networkLine = options.network && networkReport(options.network);
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  const workerLine = shared || wanted === 1
    ? `workers: ${count} (one port, shared with SO_REUSEPORT)`
    : `workers: 1 of ${wanted} wanted: this Deno cannot share a port; run it with --unstable-net to serve on every core`;
  return {
    baseUrl: `http://${host}:${first.port}`,
    workers: count,
    settingsReport: [...report, workerLine, caches, allocator, collectionReport(), closer.report, ...(networkLine ? [networkLine] : [])],
    shutdown: async (graceMs = SHUTDOWN_GRACE_MS) => {
      closer.stop();
      const deadline = Date.now() + graceMs;
      // A connection with no request in progress (a half-sent head, an idle keep-alive) would
      // hold the stop until the deadline for nothing: closed first, while the workers still
      // answer the closer's question about their connections.
      await closer.closeIdleNow();
      const replies = await Promise.all(workers.map((w) => w.stop(deadline)));
      return { finished: replies.every((r) => r.finished), cut: replies.reduce((n, r) => n + r.cut, 0), idleClosed: closer.closed() };
    },
  };
}
