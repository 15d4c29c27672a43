/**
 * Each test file's CPU seconds, for the suite's budget (`node scripts/testCpu.mjs`): on 2 cores
 * the suite is CPU-bound, so a file's wall time says more about what ran beside it than about
 * its own cost. Registered for every file (vitest.config.ts's setupFiles) and idle unless
 * `TEST_CPU_LOG` names a file; then, after each test file, one tab-separated line is appended
 * to it: the file, its wall seconds, the worker's own CPU seconds (all its threads: Polars,
 * V8's helpers) and those of the child processes the file started and that have ended (a
 * sandbox, a kernel with its Python, a browser), as the kernel counts them when they are
 * reaped. Not counted: a child still running when the file ends (none should be), and a process
 * started detached and left to init to reap (a sandbox kept for reuse).
 */
import { appendFileSync, readFileSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import process from "node:process";

/** Clock ticks per second of /proc's times (Linux's USER_HZ, 100 on every architecture it runs on here). */
const USER_HZ = 100;

/**
 * CPU seconds of the ended, reaped child processes of this process (and theirs, reaped in
 * turn): fields 16 and 17 (cutime, cstime) of /proc/self/stat.
 *
 * @example
 * ```ts
 * const before = childCpuSeconds();
 * ```
 */
export function childCpuSeconds(stat = readFileSync("/proc/self/stat", "utf8")): number {
  // The command name (field 2) may hold spaces and parentheses: count from its last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state): cutime and cstime are fields 16 and 17.
  return (Number(fields[13]) + Number(fields[14])) / USER_HZ;
}

const log = process.env.TEST_CPU_LOG;
if (log) {
  let started = 0, own = process.cpuUsage(), children = 0;
  beforeAll(() => {
    started = performance.now();
    own = process.cpuUsage();
    children = childCpuSeconds();
  });
  // Registered before the file's own hooks, so it runs after them (vitest runs afterAll hooks
  // in reverse order): the sandboxes and kernels the file stops there are counted.
  afterAll((suite) => {
    const used = process.cpuUsage(own);
    const row = [
      suite.file.filepath,
      ((performance.now() - started) / 1000).toFixed(2),
      ((used.user + used.system) / 1e6).toFixed(2),
      (childCpuSeconds() - children).toFixed(2),
    ];
    appendFileSync(log, `${row.join("\t")}\n`);
  });
}
