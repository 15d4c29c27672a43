/**
 * The Python Polars peer (bench/peers/python_polars.py) as a long-lived child: started once,
 * asked for one pull at a time, so interpreter start and imports are never timed and its
 * rounds can alternate with the workbench's in one run.
 */
import { execFileSync, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { REPO_ROOT } from "./paths.ts";

/** One pull as the peer timed it: wall seconds, CPU seconds of its process (every thread), rows, bytes. */
export interface PeerPull {
  seconds: number;
  cpuSeconds: number;
  rows: number;
  bytes: number;
}

/** A running peer. */
export interface PythonPeer {
  polars: string;
  /** One pull, its pages asked in `format` (plain CSV by default). */
  pull(format?: "csv" | "csv_gzip"): Promise<PeerPull>;
  stop(): void;
}

/** Why the peer cannot run here (python3 or its polars missing), or undefined when it can. */
export function peerUnavailable(): string | undefined {
  try {
    execFileSync("python3", ["-c", "import polars, requests"], { stdio: "ignore" });
    return undefined;
  } catch {
    return "python3 with polars and requests is not installed (pip install polars requests): the Python Polars peer is skipped";
  }
}

/**
 * Starts the peer against `baseUrl` for `tickers` from `start` to `end`.
 *
 * @example
 * ```ts
 * const peer = await startPythonPeer(sandbox.baseUrl, "demo-full-access", "2023-11-01", "2023-11-29", ["AAPL"]);
 * const { seconds, cpuSeconds } = await peer.pull();
 * peer.stop();
 * ```
 */
export async function startPythonPeer(
  baseUrl: string,
  apiKey: string,
  start: string,
  end: string,
  tickers: readonly string[],
): Promise<PythonPeer> {
  const child = spawn("python3", [join(REPO_ROOT, "bench/peers/python_polars.py"), baseUrl, apiKey, start, end, ...tickers], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the Python peer exited (code ${child.exitCode})`);
    return JSON.parse(value);
  };
  const ready = await next();
  return {
    polars: String(ready.polars),
    pull: async (format) => {
      child.stdin!.write(format ? `pull ${format}\n` : "pull\n");
      return (await next()) as unknown as PeerPull;
    },
    stop: () => {
      child.stdin!.end();
      child.kill();
    },
  };
}
