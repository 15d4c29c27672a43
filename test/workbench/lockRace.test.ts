/**
 * The download folder's lock under a race of real processes: four Deno processes (the kernel's
 * runtime, test/workbench/support/lockRacer.ts) try to lock the same folder within the same
 * millisecond, fifty times, on a free folder and on one whose lock was left by a holder killed
 * with SIGKILL: exactly one holds it every time, and the others are told who does. A lock whose
 * PID now belongs to another live process is taken over (the start time differs); a live
 * holder's, another host's or an unreadable lock never is, and the message names the holder.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FolderInUseError } from "../../workbench/mod.ts";
import { lockFolder } from "../../workbench/runtime/files.ts";
import { denoPath } from "../../scripts/paths.mjs";
import process from "node:process";

const CONTENDERS = 4;
const TRIALS = 50;

interface Racer {
  child: ChildProcess;
  send: (line: string) => void;
  next: () => Promise<string>;
}

function racer(): Racer {
  const child = spawn(denoPath(), ["run", "-A", "test/workbench/support/lockRacer.ts"], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => (waiting.length ? waiting.shift()!(line) : lines.push(line)));
  return {
    child,
    send: (line) => child.stdin!.write(`${line}\n`),
    next: () => (lines.length ? Promise.resolve(lines.shift()!) : new Promise((r) => waiting.push(r))),
  };
}

const exited = (child: ChildProcess) =>
  new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once("exit", resolve)));

let scratch: string;
let racers: Racer[];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "lock-race-"));
  racers = Array.from({ length: CONTENDERS }, racer);
  // Each answers once it runs (a release of nothing), so the first trial does not wait on start-ups.
  for (const r of racers) r.send("release");
  await Promise.all(racers.map((r) => r.next()));
}, 120_000);

afterAll(async () => {
  for (const r of racers ?? []) r.child.kill("SIGKILL");
  await Promise.all((racers ?? []).map((r) => exited(r.child)));
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the trials on `folders`: every racer tries each at the same instant; the answers per trial. */
async function race(folders: string[]): Promise<string[][]> {
  const trials: string[][] = [];
  for (const folder of folders) {
    const at = Date.now() + 60;
    for (const r of racers) r.send(`try ${folder} ${at}`);
    trials.push(await Promise.all(racers.map((r) => r.next())));
    for (const r of racers) r.send("release");
    await Promise.all(racers.map((r) => r.next()));
  }
  return trials;
}

function folders(name: string): string[] {
  return Array.from({ length: TRIALS }, (_, i) => {
    const folder = join(scratch, `${name}-${i}`);
    mkdirSync(folder);
    return folder;
  });
}

/** Trials by how many held the folder, and every answer that was neither a hold nor a refusal naming a racer as holder. */
function judge(trials: string[][]): { holders: Record<number, number>; odd: string[] } {
  const pids = racers.map((r) => r.child.pid);
  const holders: Record<number, number> = {};
  const odd: string[] = [];
  for (const answers of trials) {
    const held = answers.filter((a) => a.startsWith("held "));
    holders[held.length] = (holders[held.length] ?? 0) + 1;
    const holder = pids[answers.findIndex((a) => a.startsWith("held "))];
    for (const a of answers) {
      if (a.startsWith("held ")) continue;
      if (
        !(a.startsWith("busy ") && a.includes(`being written by another download: process ${holder} (started `) &&
          a.includes(`on host ${hostname()}`))
      ) odd.push(a);
    }
  }
  return { holders, odd };
}

describe(`${CONTENDERS} processes race for a folder, ${TRIALS} times`, () => {
  it("a free folder: one holder in every trial, the others told its PID, start time and host", async () => {
    const { holders, odd } = judge(await race(folders("free")));
    expect(holders).toEqual({ 1: TRIALS });
    expect(odd).toEqual([]);
  });

  it("a folder whose lock a killed holder left: one holder in every trial", async () => {
    const stale = folders("stale");
    const holder = racer();
    holder.send(`hold ${stale.join(" ")}`);
    expect(await holder.next()).toBe("holding");
    holder.child.kill("SIGKILL");
    await exited(holder.child);
    expect(JSON.parse(readFileSync(join(stale[0], "_download.lock"), "utf8")).pid).toBe(holder.child.pid);
    const { holders, odd } = judge(await race(stale));
    expect(holders).toEqual({ 1: TRIALS });
    expect(odd).toEqual([]);
  });
});

describe("who holds a lock", () => {
  let live: ChildProcess;
  beforeAll(() => {
    live = spawn("sleep", ["600"], { stdio: "ignore" });
  });
  afterAll(async () => {
    live.kill("SIGKILL");
    await exited(live);
  });

  /** A lock as a holder killed with SIGKILL left it, in a new folder. */
  async function leftByKilledHolder(name: string): Promise<{ folder: string; record: Record<string, unknown> }> {
    const folder = join(scratch, name);
    mkdirSync(folder);
    const holder = racer();
    holder.send(`hold ${folder}`);
    await holder.next();
    holder.child.kill("SIGKILL");
    await exited(holder.child);
    return { folder, record: JSON.parse(readFileSync(join(folder, "_download.lock"), "utf8")) };
  }

  it("a lock whose PID now belongs to another live process is not that process's: taken over", async () => {
    const { folder, record } = await leftByKilledHolder("reused-pid");
    writeFileSync(join(folder, "_download.lock"), JSON.stringify({ ...record, pid: live.pid })); // the PID reused by `sleep`
    const release = lockFolder(folder);
    expect(JSON.parse(readFileSync(join(folder, "_download.lock"), "utf8")).pid).toBe(process.pid);
    release();
  });

  it("an older workbench's lock (a bare PID) of a live process written before it started is taken over; one written after it started is not", () => {
    const folder = join(scratch, "legacy");
    mkdirSync(folder);
    const lock = join(folder, "_download.lock");
    writeFileSync(lock, String(live.pid));
    expect(() => lockFolder(folder)).toThrow(new RegExp(`being written by another download: process ${live.pid} on host ${hostname()}`));
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(lock, hourAgo, hourAgo); // written before `sleep` started: another process had the PID then
    lockFolder(folder)();
  });

  it("a live holder's lock is never taken: the message names its PID, start time and host, and what to do", async () => {
    const folder = join(scratch, "live");
    mkdirSync(folder);
    const holder = racer();
    try {
      holder.send(`hold ${folder}`);
      await holder.next();
      let error: unknown;
      try {
        lockFolder(folder);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(FolderInUseError);
      const e = error as FolderInUseError;
      expect(e.pid).toBe(holder.child.pid);
      expect(e.holder).toMatchObject({ pid: holder.child.pid, host: hostname(), file: join(folder, "_download.lock") });
      expect(Date.parse(e.holder.startedAt!)).toBeGreaterThan(Date.now() - 600_000);
      expect(e.message).toBe(
        `Folder '${folder}' is being written by another download: process ${holder.child.pid} (started ${e.holder.startedAt}) on host ${hostname()}, holding it since ${e.holder.lockedAt}; run this one when it ends (it then reuses what that one wrote), or choose another folder`,
      );
    } finally {
      holder.child.kill("SIGKILL");
      await exited(holder.child);
    }
    lockFolder(folder)(); // the holder gone, the lock is taken over
  });

  it("another host's lock is never taken, and a lock of this host before its last boot always is", async () => {
    const { folder, record } = await leftByKilledHolder("other-host");
    const lock = join(folder, "_download.lock");
    writeFileSync(lock, JSON.stringify({ ...record, host: "lab-2" }));
    expect(() => lockFolder(folder)).toThrow(
      `process ${record.pid} (started ${record.startedAt}) on host lab-2, holding it since ${record.lockedAt}; if no download writes into it any more, delete '${lock}' (that host's processes cannot be checked from here), or choose another folder`,
    );
    if (record.boot) {
      writeFileSync(lock, JSON.stringify({ ...record, pid: live.pid, boot: "another-boot" }));
      lockFolder(folder)();
    }
  });

  it("this process's own lock refuses a second download into the folder; an unreadable lock is never taken", () => {
    const folder = join(scratch, "own");
    mkdirSync(folder);
    const release = lockFolder(folder);
    expect(() => lockFolder(folder)).toThrow(`a download of this process (${process.pid}) still running`);
    release();
    writeFileSync(join(folder, "_download.lock"), "not a lock record");
    const lock = join(folder, "_download.lock");
    expect(() => lockFolder(folder)).toThrow(
      `a lock file this workbench cannot read ('${lock}'); if no download writes into it any more, delete '${lock}', or choose another folder`,
    );
  });
});
