/**
 * The suite's CPU budget tool: test/cpuProbe.ts counts the CPU of a file's ended child
 * processes from /proc, and scripts/testCpu.mjs sums and sorts its log.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cpuTable } from "../../scripts/testCpu.mjs";
import { childCpuSeconds } from "../cpuProbe.ts";
import process from "node:process";

describe("childCpuSeconds", () => {
  it("counts a child's CPU once it has ended", () => {
    const before = childCpuSeconds();
    // A child that spins for 300 ms of CPU time, not of the clock.
    const child = spawnSync(process.execPath, [
      "-e",
      "const s = process.cpuUsage(); while (process.cpuUsage(s).user < 300000);",
    ]);
    expect(child.status).toBe(0);
    expect(childCpuSeconds() - before).toBeGreaterThanOrEqual(0.25);
  });

  it("reads cutime and cstime after a command name holding spaces and parentheses", () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
    const stat = "123 (node (vitest) 1) S 1 123 123 0 -1 4194560 10 20 0 0 500 60 250 75 20 0 12";
    expect(childCpuSeconds(stat)).toBeCloseTo(3.25, 10);
  });
});

describe("cpuTable", () => {
  it("sums a file's lines, sorts by CPU and totals", () => {
    const { rows, total } = cpuTable("a.test.ts\t2\t1\t0.5\nb.test.ts\t1\t3\t0\na.test.ts\t1\t1\t1\n");
    expect(rows.map((r) => [r.file, r.cpu])).toEqual([["a.test.ts", 3.5], ["b.test.ts", 3]]);
    expect(total).toEqual({ wall: 4, own: 5, children: 1.5, cpu: 6.5 });
  });

  it("refuses a line that is not the probe's, naming it", () => {
    expect(() => cpuTable("a.test.ts\t2\tnot-a-number\t0\n")).toThrow(/Not a line of TEST_CPU_LOG .*'a\.test\.ts\t2\tnot-a-number\t0'/);
  });
});
