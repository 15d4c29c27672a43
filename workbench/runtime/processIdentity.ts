/**
 * Who a process is, beyond its PID: PIDs are reused, so a lock names its holder by PID, start
 * time, host and (on Linux) boot, and a holder is gone only when no process with that PID and
 * that start time runs on this host. On Linux the start time is `/proc/<pid>/stat`'s, in clock
 * ticks since boot (exact; a zombie, killed but not yet reaped, counts as gone); elsewhere it is
 * what `ps -o lstart=` prints (to the second); where neither can be read, a live PID is taken
 * for the holder (never a lock taken from a process that may still run).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import process from "node:process";

/** A process as a lock records it. */
export interface ProcessIdentity {
  /** The process id. */
  pid: number;
  /** The start time as the system tells it (Linux: `linux:<ticks since boot>`; else `ps:<lstart>`), when readable. */
  start?: string;
  /** The start time as a date (ISO), for messages; approximate. */
  startedAt?: string;
  /** The host the process runs on. */
  host: string;
  /** Linux's boot id: a lock written before a reboot names a process that is gone. */
  boot?: string;
}

const LINUX = process.platform === "linux" && existsSync("/proc/self/stat");
/** Linux reports /proc times in USER_HZ ticks, 100 a second on every architecture it runs on. */
const TICKS_PER_SECOND = 100;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Linux: `[state, start ticks]` of `pid` from /proc/<pid>/stat (the name, field 2, may hold spaces and parentheses). */
function procStat(pid: number): [state: string, ticks: string] | undefined {
  const text = read(`/proc/${pid}/stat`);
  if (text === undefined) return undefined;
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return [fields[0], fields[19]];
}

/** Elsewhere: what `ps` says the process started, undefined when it does not run or `ps` is missing. */
function psStart(pid: number): string | undefined {
  try {
    const out = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return out || undefined;
  } catch {
    return undefined;
  }
}

/** The start time of a running `pid` as a lock records it; undefined when it does not run (or cannot be read). */
function startOf(pid: number): string | undefined {
  if (LINUX) {
    const stat = procStat(pid);
    return stat && !/^[ZX]$/.test(stat[0]) ? `linux:${stat[1]}` : undefined;
  }
  const lstart = psStart(pid);
  return lstart === undefined ? undefined : `ps:${lstart}`;
}

function isoStart(start: string | undefined): string | undefined {
  if (start?.startsWith("linux:")) {
    const btime = Number(/^btime (\d+)$/m.exec(read("/proc/stat") ?? "")?.[1]);
    return Number.isFinite(btime) ? new Date((btime + Number(start.slice(6)) / TICKS_PER_SECOND) * 1000).toISOString() : undefined;
  }
  const parsed = start?.startsWith("ps:") ? Date.parse(start.slice(3)) : NaN;
  return Number.isFinite(parsed) ? new Date(parsed).toISOString() : undefined;
}

let self: ProcessIdentity | undefined;

/**
 * This process, as a lock records it (read once).
 *
 * @example
 * ```ts
 * const me = thisProcess(); // { pid: 4711, start: "linux:127308", startedAt: "2024-…", host: "lab-1", boot: "c632…" }
 * ```
 */
export function thisProcess(): ProcessIdentity {
  if (self) return self;
  const start = startOf(process.pid);
  const boot = LINUX ? read("/proc/sys/kernel/random/boot_id")?.trim() : undefined;
  self = {
    pid: process.pid,
    ...(start ? { start } : {}),
    startedAt: isoStart(start) ?? new Date(Date.now() - process.uptime() * 1000).toISOString(),
    host: hostname(),
    ...(boot ? { boot } : {}),
  };
  return self;
}

/** Whether `pid` exists at all (EPERM: another user's process, which exists). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/**
 * Whether the process a lock names is gone: false when it may still run (or runs on another
 * host, where that cannot be told), true when no process with its PID runs, the PID now belongs
 * to a process started at another time (reused), or this host has rebooted since. A lock of an
 * older workbench recorded its PID only: `writtenAt` (the lock file's time) then tells a PID
 * reused by a process started after the lock was written.
 *
 * @example
 * ```ts
 * if (processGone({ pid: 4711, start: "linux:127308", host: "lab-1" })) console.log("stale lock");
 * ```
 */
export function processGone(holder: Pick<ProcessIdentity, "pid" | "start" | "host" | "boot">, writtenAt?: Date): boolean {
  const me = thisProcess();
  if (holder.host !== me.host) return false;
  if (holder.boot && me.boot && holder.boot !== me.boot) return true;
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return true;
  const stat = LINUX ? procStat(holder.pid) : undefined;
  if (stat && /^[ZX]$/.test(stat[0])) return true; // killed, not yet reaped by its parent
  const now = stat ? `linux:${stat[1]}` : LINUX ? undefined : startOf(holder.pid);
  if (now !== undefined) {
    if (holder.start) return now !== holder.start;
    const started = Date.parse(isoStart(now) ?? "");
    // Started over a second after the lock was written: another process with a reused PID.
    return writtenAt !== undefined && Number.isFinite(started) && started > writtenAt.getTime() + 1000;
  }
  // No start time readable (no such process; /proc hidden for other users; no ps): gone only if no such PID.
  return !pidExists(holder.pid);
}
