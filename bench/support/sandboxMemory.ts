/**
 * Resident memory of a sandbox process (every worker and Polars thread is in it), from
 * /proc/<pid>/status: now (VmRSS) and at its highest since start (VmHWM).
 */
import { readFileSync } from "node:fs";

/** Resident megabytes of process `pid`: now and the high-water mark. */
export function residentMb(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
  return { now: field("VmRSS"), peak: field("VmHWM") };
}

/** The environment that runs the sandbox as it was before one budget, the allocator tuning and the paced collections: the same-run baseline. */
export const AS_BEFORE = { SANDBOX_FRAME_CACHE_MB: "640", SANDBOX_ALLOCATOR: "default", SANDBOX_COLLECT_MB: "0" };
