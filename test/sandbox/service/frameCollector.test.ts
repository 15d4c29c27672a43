/**
 * The collections paced by let-go frames (sandbox/service/query/frameCollector.ts): when a
 * worker asks V8 for one, and the start-up line about them (memoryBudget.test.ts sees the
 * sandbox command say it). What they save in megabytes is measured by bench/sandbox.ts against
 * the sandbox as it was.
 */
import { describe, expect, it } from "vitest";
import {
  type Collect,
  CollectionPacer,
  collectionReport,
  collectPaceMb,
  DEFAULT_COLLECT_MB,
} from "../../../sandbox/service/query/frameCollector.ts";

const MB = 2 ** 20;
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

function recorder(): { collect: Collect; asked: string[] } {
  const asked: string[] = [];
  return { asked, collect: (options) => asked.push(options.type) };
}

describe("collections paced by the frames a worker lets go", () => {
  it("asks for one young-generation collection once the let-go frames reach the pace, on a later turn", async () => {
    const { collect, asked } = recorder();
    const pacer = new CollectionPacer(8 * MB, collect);
    pacer.letGo(3 * MB);
    pacer.letGo(3 * MB);
    await nextTurn();
    expect(asked).toEqual([]);
    pacer.letGo(3 * MB);
    expect(asked).toEqual([]); // never inside the caller's own code
    await nextTurn();
    expect(asked).toEqual(["minor"]);
    // The count starts again: 9 MB were let go, one collection covers them.
    pacer.letGo(7 * MB);
    await nextTurn();
    expect(asked).toEqual(["minor"]);
    pacer.letGo(1 * MB);
    await nextTurn();
    expect(asked).toEqual(["minor", "minor"]);
    expect(pacer.collections).toBe(2);
  });

  it("asks for one at a time however much is let go before it runs", async () => {
    const { collect, asked } = recorder();
    const pacer = new CollectionPacer(1 * MB, collect);
    for (let i = 0; i < 10; i++) pacer.letGo(2 * MB);
    await nextTurn();
    expect(asked).toEqual(["minor"]);
  });

  it("does nothing with a pace of 0, without V8's gc, or for nothing let go", async () => {
    const { collect, asked } = recorder();
    for (const pacer of [new CollectionPacer(0, collect), new CollectionPacer(1 * MB, undefined)]) {
      pacer.letGo(100 * MB);
      expect(pacer.active).toBe(false);
    }
    const pacer = new CollectionPacer(1 * MB, collect);
    for (const bytes of [0, -5 * MB, Number.NaN]) pacer.letGo(bytes);
    await nextTurn();
    expect(asked).toEqual([]);
  });

  it("reads the pace: the default when unset, 0 for off, a typed error otherwise", () => {
    expect(collectPaceMb(undefined)).toBe(DEFAULT_COLLECT_MB);
    expect(collectPaceMb("")).toBe(DEFAULT_COLLECT_MB);
    expect(collectPaceMb("0")).toBe(0);
    expect(collectPaceMb("2.5")).toBe(2.5);
    expect(() => collectPaceMb("often")).toThrow("SANDBOX_COLLECT_MB 'often' is not a number of megabytes (0 leaves collections to V8)");
  });

  it("says at start how frames are collected, or why they are left to V8", () => {
    const { collect } = recorder();
    expect(collectionReport(8, collect)).toBe("memory: a young-generation collection every 8 MB of frames let go (SANDBOX_COLLECT_MB)");
    expect(collectionReport(0, collect)).toBe("memory: frames let go wait for V8's own collections (SANDBOX_COLLECT_MB=0)");
    expect(collectionReport(8, undefined)).toMatch(/V8's gc is not exposed: run with --v8-flags=--expose-gc/);
  });
});
