/**
 * Recording's deferred tasks: run later, in order; never more than a few waiting (each holds a
 * frame: a busy main thread must not pile them up); all run by `runDeferred()`; a failing task
 * is told and does not stop the others. And the journal, where records land as they complete
 * rather than as their calls started, read back in starting order.
 */
import { describe, expect, it, vi } from "vitest";
import { defer, runDeferred } from "../../../workbench/provenance/deferred.ts";
import { manifestsOfJournal } from "../../../workbench/provenance/recorder.ts";

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

describe("the journal a failed notebook's manifest is built from", () => {
  it("gives calls and downloads in the order they started, however their records completed", () => {
    const line = (entry: Record<string, unknown>) =>
      JSON.stringify({ recorder: "r1", service: "http://127.0.0.1:1/", hash: { scheme: "rows/1", nodejsPolars: "x" }, ...entry });
    const journal = [
      line({ download: { seq: 3, dataset: "eq-taq-1min" } }),
      line({ call: { seq: 2, dataset: "eq-daily-ohlc" } }),
      line({ download: { seq: 1, dataset: "eq-taq-1min" } }),
      line({ call: { seq: 4, dataset: "eq-taq" } }),
      '{"recorder": "r1", "torn',
    ].join("\n");
    const [m] = manifestsOfJournal(journal);
    expect(m.calls.map((c) => c.seq)).toEqual([2, 4]);
    expect(m.downloads!.map((d) => d.seq)).toEqual([1, 3]);
  });
});
