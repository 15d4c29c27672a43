/**
 * A sandbox writes a log file per start into `.cache`; `sandbox()` keeps the newest few of its
 * profile and removes the rest, so kernel restarts do not pile them up.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pruneSandboxLogs } from "../../../sandbox/launcher/local.ts";

const dir = mkdtempSync(join(tmpdir(), "sandbox-logs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pruneSandboxLogs", () => {
  it("keeps the newest logs of the profile by their start time, and every other file", () => {
    // Written out of order: the time in the name decides, not the order of writing.
    const tiny = [1795681201029, 1795715162086, 1795684344603, 1795705295422, 1795681263889, 1795694646950];
    for (const t of tiny) writeFileSync(join(dir, `sandbox-tiny-${t}.log`), "log");
    for (const name of ["sandbox-demo-1795681805860.log", "sandbox-tiny.json", "sandbox-tiny-notes.log", "jupyter"]) {
      writeFileSync(join(dir, name), "x");
    }
    const removed = pruneSandboxLogs(dir, "tiny", 3);
    expect(removed.sort()).toEqual(["sandbox-tiny-1795681201029.log", "sandbox-tiny-1795681263889.log", "sandbox-tiny-1795684344603.log"]);
    expect(readdirSync(dir).sort()).toEqual([
      "jupyter",
      "sandbox-demo-1795681805860.log",
      "sandbox-tiny-1795694646950.log",
      "sandbox-tiny-1795705295422.log",
      "sandbox-tiny-1795715162086.log",
      "sandbox-tiny-notes.log",
      "sandbox-tiny.json",
    ]);
    expect(pruneSandboxLogs(dir, "tiny", 3)).toEqual([]);
  });
});
