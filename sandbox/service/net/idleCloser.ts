/**
 * A header-read time-out for Deno's HTTP server, which has none (a half-sent request head, or
 * a connection that sends nothing, is otherwise held open for good): every second the sandbox's
 * main thread lists the server's established connections (Linux: /proc/self/net/tcp and tcp6,
 * matched to this process's sockets by inode), asks every worker which connections have a
 * request in progress and when the others last finished one (activity.ts), and shuts down, with
 * the C library's `shutdown()`, each connection with no request in progress that has been
 * silent for the time-out since it opened or since its last answer was sent. The server then
 * sees the connection end and closes it. So the time-out also closes keep-alive connections
 * left idle that long, as most servers do. Where it cannot work (not Linux, no C library), it
 * says so in the start-up report and closes nothing.
 */
/// <reference lib="deno.ns" />
import { parseAddress } from "./cidr.ts";
import type { ActivityReport } from "./activity.ts";

/** An established connection of the server: its socket's inode and its peer (canonical: see `peerKey`). */
interface ServerSocket {
  inode: string;
  peer: string;
}

/** A peer as `family/address:port`, the same for /proc's hex and the handler's text. */
function peerKey(family: 4 | 6, value: bigint, port: number): string {
  return `${family}/${value.toString(16)}:${port}`;
}

/** The canonical key of a worker's `host|port` (activity.ts), or undefined. */
function reportedKey(key: string): string | undefined {
  const bar = key.lastIndexOf("|");
  const address = parseAddress(key.slice(0, bar));
  return address && peerKey(address.family, address.value, Number(key.slice(bar + 1)));
}

/** An address of /proc/net/tcp{,6}: 32-bit words in host order (little-endian on the machines this runs on). */
function procAddress(hex: string): { family: 4 | 6; value: bigint } {
  let value = 0n;
  for (let i = 0; i < hex.length; i += 8) {
    const word = hex.slice(i, i + 8).match(/../g)!.reverse().join("");
    value = (value << 32n) | BigInt(`0x${word}`);
  }
  if (hex.length === 8) return { family: 4, value };
  // An IPv4-mapped address (a v4 client of a v6 socket) is its IPv4 address, as parseAddress says.
  if (value >> 32n === 0xffffn) return { family: 4, value: value & 0xffffffffn };
  return { family: 6, value };
}

/** Established connections whose local port is `port`, from the kernel's tables. */
function serverSockets(port: number): ServerSocket[] {
  const sockets: ServerSocket[] = [];
  for (const table of ["/proc/self/net/tcp", "/proc/self/net/tcp6"]) {
    let text: string;
    try {
      text = Deno.readTextFileSync(table);
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address rem_address st ... inode (field 9); st 01 is ESTABLISHED.
      if (f.length < 10 || f[3] !== "01") continue;
      const [, localPort] = f[1].split(":");
      if (parseInt(localPort, 16) !== port) continue;
      const [remoteHex, remotePort] = f[2].split(":");
      const remote = procAddress(remoteHex);
      sockets.push({ inode: f[9], peer: peerKey(remote.family, remote.value, parseInt(remotePort, 16)) });
    }
  }
  return sockets;
}

/** This process's socket descriptors by inode. */
function socketDescriptors(): Map<string, number> {
  const byInode = new Map<string, number>();
  for (const entry of Deno.readDirSync("/proc/self/fd")) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(Deno.readLinkSync(`/proc/self/fd/${entry.name}`));
      if (m) byInode.set(m[1], Number(entry.name));
    } catch { /* closed meanwhile */ }
  }
  return byInode;
}

const SHUT_RDWR = 2;

/** The C library's shutdown(2), or why it cannot be had. */
function loadShutdown(): ((fd: number) => void) | string {
  if (Deno.build.os !== "linux") return `not on Linux (this is ${Deno.build.os})`;
  try {
    const libc = Deno.dlopen("libc.so.6", { shutdown: { parameters: ["i32", "i32"], result: "i32" } });
    return (fd) => void libc.symbols.shutdown(fd, SHUT_RDWR);
  } catch (e) {
    return `glibc's libc.so.6 could not be loaded: ${(e as Error).message}`;
  }
}

/**
 * Closes the server's connections on `port` that stay silent for `timeoutMs` with no request
 * in progress; `activity` asks every worker for its report (undefined when one does not
 * answer in time: nothing is closed then).
 *
 * @example
 * ```ts
 * const closer = startIdleCloser(8000, 30_000, () => askWorkers());
 * console.log(closer.report); // "connections: closed after 30 s without a complete request ..."
 * await closer.closeIdleNow(); // stopping: no connection without a request is waited for
 * closer.stop();
 * ```
 */
export function startIdleCloser(port: number, timeoutMs: number, activity: () => Promise<ActivityReport[] | undefined>): IdleCloser {
  const shutdown = loadShutdown();
  if (typeof shutdown === "string") {
    return {
      report: `connections: no header-read time-out (${shutdown})`,
      stop: () => {},
      closeIdleNow: () => Promise.resolve(),
      closed: () => 0,
    };
  }
  const firstSeen = new Map<string, number>();
  let closed = 0, sweeping = false;
  // Connections silent for `silentMs` with no request in progress are shut down.
  const sweep = async (silentMs: number) => {
    if (sweeping) return;
    sweeping = true;
    try {
      const now = performance.now();
      const sockets = serverSockets(port);
      const open = new Set(sockets.map((s) => s.inode));
      for (const inode of firstSeen.keys()) if (!open.has(inode)) firstSeen.delete(inode);
      for (const s of sockets) if (!firstSeen.has(s.inode)) firstSeen.set(s.inode, now);
      const candidates = sockets.filter((s) => now - firstSeen.get(s.inode)! >= silentMs);
      if (candidates.length === 0) return;
      const reports = await activity();
      if (!reports) return;
      const busy = new Set(reports.flatMap((r) => r.busy.map(reportedKey)));
      const idle = new Map<string, number>();
      for (const r of reports) {
        for (const [key, ms] of Object.entries(r.idleMs)) {
          const k = reportedKey(key);
          if (k !== undefined) idle.set(k, Math.min(idle.get(k) ?? Infinity, ms));
        }
      }
      const stale = candidates.filter((s) => !busy.has(s.peer) && (idle.get(s.peer) ?? Infinity) >= silentMs);
      if (stale.length === 0) return;
      const descriptors = socketDescriptors();
      for (const s of stale) {
        const fd = descriptors.get(s.inode);
        // Checked again just before: a descriptor closed and reused meanwhile is another socket.
        if (fd === undefined || Deno.readLinkSync(`/proc/self/fd/${fd}`) !== `socket:[${s.inode}]`) continue;
        shutdown(fd);
        firstSeen.delete(s.inode);
        closed++;
      }
    } catch {
      /* a table or descriptor gone mid-sweep: the next sweep sees the new state */
    } finally {
      sweeping = false;
    }
  };
  const interval = setInterval(() => sweep(timeoutMs), Math.min(1000, Math.max(100, timeoutMs / 4)));
  return {
    report: `connections: closed after ${
      timeoutMs / 1000
    } s without a complete request (a header-read and idle time-out) or without taking any of an answer (--client-timeout)`,
    stop: () => clearInterval(interval),
    closeIdleNow: async () => {
      while (sweeping) await new Promise((resolve) => setTimeout(resolve, 10));
      await sweep(0);
    },
    closed: () => closed,
  };
}

/** A running idle-connection closer. */
export interface IdleCloser {
  /** The start-up line saying what it does (or why it cannot). */
  report: string;
  /** Stops sweeping. */
  stop: () => void;
  /** Closes at once every connection with no request in progress (a half-sent head, an idle keep-alive): when the sandbox stops. */
  closeIdleNow: () => Promise<void>;
  /** Connections closed so far. */
  closed: () => number;
}
