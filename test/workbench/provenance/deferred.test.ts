/**
 * Recording's deferred tasks: run later, in order; never more than a few waiting (each holds a
 * frame: a busy main thread must not pile them up); all run by `runDeferred()`; a failing task
 * is told and does not stop the others.
 */
import { describe, expect, it, vi } from "vitest";
import { defer, runDeferred } from "../../../workbench/provenance/deferred.ts";

describe("deferred recording tasks", () => {
  it("run after the current turn, in the order deferred", async () => {
    const ran: number[] = [];
    defer(() => ran.push(1));
    defer(() => ran.push(2));
    expect(ran).toEqual([]);
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toEqual([1, 2]);
  });

  it("a queue of more than four runs its oldest at once, so memory stays bounded; runDeferred() runs the rest", () => {
    const ran: number[] = [];
    for (let i = 0; i < 10; i++) defer(() => ran.push(i));
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]); // four still waiting
    runDeferred();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("a failing task is told (console.warn) and the next ones still run", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const ran: string[] = [];
      defer(() => {
        throw new Error("hash failed");
      });
      defer(() => ran.push("after"));
      runDeferred();
      expect(ran).toEqual(["after"]);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/deferred recording task failed: hash failed/);
    } finally {
      warn.mockRestore();
    }
  });
});
