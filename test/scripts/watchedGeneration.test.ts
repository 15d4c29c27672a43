/**
 * The demo's generation watchdog (scripts/watchedGeneration.ts), driven with stand-in children
 * written in plain Node: one that finishes, one that stops making progress (as the generator
 * once did inside the Deno binary), one that stalls once and then finishes, one that fails.
 * The real generator runs under it in the demo test.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type DayProgress, generateWatched, GenerationFailed } from "../../scripts/watchedGeneration.ts";
import process from "node:process";

const dir = mkdtempSync(join(tmpdir(), "watched-generation-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Node child running `source`, with the market folder as its first argument. */
const child = (source: string, outDir: string) => [process.execPath, "-e", source, outDir];
const day = (n: number) => `console.log(JSON.stringify({ day: ${n}, days: 3, date: "2023-11-2${n}" }));`;
/** Makes the work folder the generator would make, then spins without a word, like the hang. */
const hang = `require("fs").mkdirSync(process.argv[1] + ".partial-" + process.pid); ${day(1)} for (;;) {}`;
const base = { profile: "demo", seed: 42, workers: 2 };

describe("generateWatched", () => {
  it("relays every day's progress and resolves when the generator finishes", async () => {
    const outDir = join(dir, "finishes");
    const seen: DayProgress[] = [];
    await generateWatched({
      ...base,
      outDir,
      stallSeconds: 30,
      attempts: 1,
      command: child(`${day(1)} console.log("a summary line"); ${day(2)}`, outDir),
      onProgress: (p) => seen.push(p),
    });
    expect(seen).toEqual([{ day: 1, days: 3, date: "2023-11-21" }, { day: 2, days: 3, date: "2023-11-22" }]);
  });

  it("kills a generation that stops making progress, removes its work folder, and gives up after the last attempt", async () => {
    const outDir = join(dir, "hangs");
    const restarts: number[] = [];
    const started = performance.now();
    const failure = await generateWatched({
      ...base,
      outDir,
      stallSeconds: 0.5,
      attempts: 2,
      command: child(hang, outDir),
      onRestart: (attempt) => restarts.push(attempt),
    }).catch((e) => e);
    expect(failure).toBeInstanceOf(GenerationFailed);
    expect(failure.message).toMatch(/made no progress for \d+ s in each of 2 attempts/);
    expect(restarts).toEqual([2]);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(readdirSync(dir).filter((name) => name.startsWith("hangs.partial-"))).toEqual([]);
  });

  it("starts a stalled generation again, which then finishes", async () => {
    const outDir = join(dir, "recovers");
    const marker = join(dir, "stalled-once");
    const source = `const fs = require("fs"); if (!fs.existsSync(${JSON.stringify(marker)})) { fs.writeFileSync(${
      JSON.stringify(marker)
    }, ""); ${hang} } ${day(1)} ${day(2)} ${day(3)}`;
    const restarts: number[] = [];
    const seen: number[] = [];
    await generateWatched({
      ...base,
      outDir,
      stallSeconds: 0.5,
      attempts: 3,
      command: child(source, outDir),
      onRestart: (attempt) => restarts.push(attempt),
      onProgress: (p) => seen.push(p.day),
    });
    expect(restarts).toEqual([2]);
    expect(seen).toEqual([1, 1, 2, 3]);
    expect(existsSync(marker)).toBe(true);
  });

  it("does not retry a generator that fails, and says what it printed", async () => {
    const outDir = join(dir, "fails");
    const restarts: number[] = [];
    const failure = await generateWatched({
      ...base,
      outDir,
      stallSeconds: 30,
      attempts: 3,
      command: child(`console.error("Seed -1 is not a non-negative integer"); process.exit(2)`, outDir),
      onRestart: (a) => restarts.push(a),
    }).catch((e) => e);
    expect(failure).toBeInstanceOf(GenerationFailed);
    expect(failure.message).toContain("exit code 2");
    expect(failure.message).toContain("Seed -1 is not a non-negative integer");
    expect(restarts).toEqual([]);
  });

  it("refuses no attempts or no stall limit, before starting anything", async () => {
    const outDir = join(dir, "refused");
    const command = child(`require("fs").mkdirSync(${JSON.stringify(outDir)})`, outDir);
    await expect(generateWatched({ ...base, outDir, stallSeconds: 30, attempts: 0, command })).rejects.toThrow(
      /attempts 0 is not a whole number of 1 or more/,
    );
    await expect(generateWatched({ ...base, outDir, stallSeconds: 0, attempts: 3, command })).rejects.toThrow(
      /stallSeconds 0 is not a number of seconds above 0/,
    );
    expect(existsSync(outDir)).toBe(false);
  });

  it("says so when the generator cannot be started at all", async () => {
    const failure = await generateWatched({
      ...base,
      outDir: join(dir, "missing"),
      stallSeconds: 30,
      attempts: 3,
      command: [join(dir, "no-such-deno")],
    }).catch((e) => e);
    expect(failure).toBeInstanceOf(GenerationFailed);
    expect(failure.message).toMatch(/could not start: .*ENOENT/);
  });
});
