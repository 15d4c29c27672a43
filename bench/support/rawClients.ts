/**
 * Clients that misbehave, over raw TCP (no HTTP library between them and the socket): one that
 * sends a request and never reads the answer, one that sends half a request head, one that
 * reads its answers at a trickle; and a prober that times other users' requests with a
 * time-out of its own. For the benchmark of hostile clients (bench/hostileClients.ts).
 *
 * @example
 * ```ts
 * const silent = await sendAndNeverRead(baseUrl, "/api/v1/data/us-equity/eq-taq-1min/AAPL?limit=100000", "demo-full-access");
 * const closed = serverClosed(silent); // resolves with the ms until the server closes it
 * ```
 */
/// <reference lib="deno.ns" />

const encoder = new TextEncoder();

function address(baseUrl: string): { hostname: string; port: number } {
  const url = new URL(baseUrl);
  return { hostname: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port) };
}

const head = (path: string, key: string | undefined, host: string) =>
  `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${key === undefined ? "" : `X-API-KEY: ${key}\r\n`}\r\n`;

/** A connection that has sent a whole request for `path` and will never read a byte of the answer. */
export async function sendAndNeverRead(baseUrl: string, path: string, key: string): Promise<Deno.TcpConn> {
  const conn = await Deno.connect(address(baseUrl));
  await conn.write(encoder.encode(head(path, key, new URL(baseUrl).host)));
  return conn;
}

/** A connection that has sent the first half of a request head and then nothing. */
export async function sendHalfAHead(baseUrl: string, key: string): Promise<Deno.TcpConn> {
  const conn = await Deno.connect(address(baseUrl));
  const whole = head("/api/v1/account/my", key, new URL(baseUrl).host);
  await conn.write(encoder.encode(whole.slice(0, whole.length >> 1)));
  return conn;
}

/**
 * Milliseconds until the server closes `conn` (an end of stream or a reset seen by a read), or
 * undefined when it is still open after `waitMs`. Reads what arrives, so call it only on a
 * connection whose answer may be read.
 */
export async function closedWithin(conn: Deno.TcpConn, waitMs: number): Promise<number | undefined> {
  const started = performance.now();
  const buffer = new Uint8Array(64 * 1024);
  const read = (async () => {
    try {
      while ((await conn.read(buffer)) !== null) { /* drained */ }
    } catch { /* reset by the server: closed too */ }
    return performance.now() - started;
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
  const result = await Promise.race([read, timeout]);
  clearTimeout(timer);
  return result;
}

/** Closes a connection, ignoring one the server closed already. */
export function forget(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* closed */ }
}

/**
 * A client that asks for `path` again and again and reads each answer at `bytesPerSecond`
 * (16 KiB at a time), on one connection, until stopped; resolves with the bytes it read.
 */
export function slowReader(baseUrl: string, path: string, key: string, bytesPerSecond: number): { stop: () => Promise<number> } {
  let running = true;
  let conn: Deno.TcpConn | undefined;
  const done = (async () => {
    let total = 0;
    const buffer = new Uint8Array(16 * 1024);
    while (running) {
      try {
        conn = await sendAndNeverRead(baseUrl, path, key);
        let n: number | null;
        while (running && (n = await conn.read(buffer)) !== null) {
          total += n;
          await new Promise((r) => setTimeout(r, (n! / bytesPerSecond) * 1000));
        }
      } catch { /* closed by the server or by stop */ }
      if (conn) forget(conn);
    }
    return total;
  })();
  return {
    stop: async () => {
      running = false;
      if (conn) forget(conn);
      return await done;
    },
  };
}

/** What a prober saw: latencies of the answers (ms, sorted) and how many requests timed out. */
export interface Probed {
  ms: number[];
  timedOut: number;
  statuses: Record<number, number>;
}

/**
 * Requests `url` every `intervalMs` until stopped, each with its own time-out, as another user
 * of the service would; several requests may be outstanding at once (a stalled service shows as
 * time-outs, not as one long wait).
 */
export function prober(url: string, key: string, intervalMs: number, timeoutMs: number): { stop: () => Promise<Probed> } {
  const seen: Probed = { ms: [], timedOut: 0, statuses: {} };
  const pending: Promise<void>[] = [];
  const one = async () => {
    const started = performance.now();
    try {
      const response = await fetch(url, { headers: { "X-API-KEY": key }, signal: AbortSignal.timeout(timeoutMs) });
      await response.arrayBuffer();
      seen.statuses[response.status] = (seen.statuses[response.status] ?? 0) + 1;
      seen.ms.push(performance.now() - started);
    } catch {
      seen.timedOut++;
    }
  };
  const timer = setInterval(() => pending.push(one()), intervalMs);
  pending.push(one());
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
      seen.ms.sort((a, b) => a - b);
      return seen;
    },
  };
}
