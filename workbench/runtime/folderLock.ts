/**
 * One download per lake folder, across processes: the folder's `_download.lock` names its
 * holder (PID, start time, host, boot; see processIdentity.ts).
 *
 * - Taken atomically and whole: the record is written to a file of the taker's own, then
 *   hard-linked to the lock's name, which fails when the lock exists (`link` is atomic like
 *   O_EXCL, and a reader never sees a lock still empty). Where hard links are not supported,
 *   the lock is created with O_EXCL and written at once; an empty lock younger than a few
 *   seconds counts as held.
 * - Stale only when its holder is gone (no process with its PID and start time on this host; a
 *   reused PID is not the holder); a lock of another host is never taken.
 * - Never another process's lock removed: a stale lock is removed only under a second lock
 *   (`_download.lock.break`, held for microseconds), after reading it again and finding it
 *   unchanged, so two contenders cannot both remove a lock and one of them the other's new
 *   one. A stale break lock is removed only by the one contender that renames its holder's
 *   own file away (a rename succeeds once).
 */
import { randomBytes } from "node:crypto";
import { closeSync, linkSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { FolderInUseError, type LockHolder, StorageError } from "../errors/storage.ts";
import { processGone, type ProcessIdentity, thisProcess } from "./processIdentity.ts";

const LOCK = "_download.lock";
const BREAK = `${LOCK}.break`;
/** Readable by others (who is writing a shared lake), never writable by them. */
const MODE = 0o644;
/** An empty lock younger than this is being written (file systems without hard links). */
const YOUNG_MS = 5_000;

/** What a lock file records. */
interface LockRecord extends ProcessIdentity {
  /** The holder's own file beside the lock (`<lock>.<token>`), unique to this taking. */
  token: string;
  /** When the lock was taken (ISO). */
  lockedAt: string;
}

/** A lock as read: its text, and its record (or an older workbench's bare PID). */
interface ReadLock {
  text: string;
  record?: LockRecord;
  legacyPid?: number;
  writtenAt: Date;
}

const code = (error: unknown) => (error as { code?: string })?.code;
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function readLock(path: string): ReadLock | undefined {
  let text: string;
  let writtenAt: Date;
  try {
    text = readFileSync(path, "utf8");
    writtenAt = statSync(path).mtime;
  } catch (error) {
    if (code(error) === "ENOENT") return undefined;
    throw StorageError.of(error, "read the lock", path);
  }
  if (/^\s*\d+\s*$/.test(text)) return { text, legacyPid: Number(text), writtenAt };
  try {
    const record = JSON.parse(text) as LockRecord;
    return Number.isInteger(record?.pid) && typeof record.token === "string" ? { text, record, writtenAt } : { text, writtenAt };
  } catch {
    return { text, writtenAt };
  }
}

/** "held", "gone" (stale), "young" (empty, being written) or "unreadable". */
function judge(lock: ReadLock): "held" | "gone" | "young" | "unreadable" {
  if (lock.record) return processGone(lock.record) ? "gone" : "held";
  if (lock.legacyPid !== undefined) return processGone({ pid: lock.legacyPid, host: thisProcess().host }, lock.writtenAt) ? "gone" : "held";
  if (lock.text.trim() !== "") return "unreadable";
  return Date.now() - lock.writtenAt.getTime() < YOUNG_MS ? "young" : "gone";
}

/**
 * Creates the lock at `path` with this process's record, or returns undefined when it exists.
 * `keepToken`: the holder's own file stays until release (the break lock's stale check needs it).
 */
function create(path: string, keepToken: boolean): { text: string; token: string } | undefined {
  const me = thisProcess();
  const id = `${me.pid}-${randomBytes(6).toString("hex")}`;
  const token = `${path}.${id}`;
  const text = `${JSON.stringify({ ...me, token: id, lockedAt: new Date().toISOString() } satisfies LockRecord)}\n`;
  writeNew(token, text);
  try {
    linkSync(token, path);
  } catch (error) {
    if (code(error) === "EEXIST") return void rmSync(token, { force: true });
    if (!["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"].includes(code(error) ?? "")) {
      rmSync(token, { force: true });
      throw error;
    }
    try {
      writeNew(path, text); // no hard links here: O_EXCL, then the record
    } catch (error) {
      rmSync(token, { force: true });
      if (code(error) === "EEXIST") return undefined;
      throw error;
    }
  }
  if (!keepToken) rmSync(token, { force: true });
  return { text, token };
}

/** Creates `path` (O_EXCL) holding `text`; nothing is left when writing fails. */
function writeNew(path: string, text: string): void {
  const fd = openSync(path, "wx", MODE);
  try {
    writeSync(fd, text);
  } catch (error) {
    rmSync(path, { force: true });
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** Removes the lock at `path` if it still holds `text` (what this process wrote). */
function removeIfStill(path: string, text: string): void {
  if (readLock(path)?.text === text) rmSync(path, { force: true });
}

/** Takes the break lock of `folder` (waiting out a live holder: it holds it for microseconds). */
function takeBreakLock(folder: string): () => void {
  const path = join(folder, BREAK);
  for (const deadline = Date.now() + 2_000; Date.now() < deadline;) {
    const mine = create(path, true);
    if (mine) {
      return () => {
        removeIfStill(path, mine.text);
        rmSync(mine.token, { force: true });
      };
    }
    const held = readLock(path);
    if (!held) continue;
    const verdict = judge(held);
    if (verdict === "gone" && held.record) {
      // Only the contender whose rename of the holder's own file succeeds may remove the lock.
      const token = `${path}.${held.record.token}`;
      try {
        renameSync(token, `${token}.broken`);
      } catch (error) {
        if (code(error) !== "ENOENT") throw StorageError.of(error, "take over the lock", path);
        pause(1);
        continue;
      }
      removeIfStill(path, held.text);
      rmSync(`${token}.broken`, { force: true });
    } else if (verdict === "unreadable" || (verdict === "gone" && !held.record)) {
      throw new StorageError(
        `Cannot lock the folder '${folder}': '${path}' holds no lock record; if no download writes into the folder, delete it`,
        path,
        "unreadable lock",
      );
    } else pause(1);
  }
  throw new StorageError(
    `Cannot lock the folder '${folder}': its break lock '${path}' stayed taken for 2 s; if no download writes into the folder, delete it`,
    path,
    "lock contention",
  );
}

/** Removes the stale lock `text` at `path`, under the break lock, if it is still there and still stale. */
function removeStale(folder: string, path: string, text: string): void {
  const release = takeBreakLock(folder);
  try {
    const now = readLock(path);
    if (now?.text === text && judge(now) === "gone") rmSync(path, { force: true });
  } finally {
    release();
  }
}

/** The holder a lock names, for FolderInUseError. */
function holderOf(lock: ReadLock, file: string): LockHolder {
  const me = thisProcess();
  if (lock.legacyPid !== undefined) return { pid: lock.legacyPid, host: me.host, lockedAt: lock.writtenAt.toISOString(), file };
  const r = lock.record;
  if (!r) return { file, doubt: "unreadable" };
  const doubt = r.host !== me.host ? "other-host" : r.pid === me.pid && r.start === me.start ? "this-process" : undefined;
  return { pid: r.pid, startedAt: r.startedAt, host: r.host, lockedAt: r.lockedAt, file, ...(doubt ? { doubt } : {}) };
}

/** Removes files of takers that died between writing their record and linking it. */
function removeOrphanTokens(folder: string): void {
  for (const name of readdirSync(folder)) {
    if (!/^_download\.lock\.\d+-[0-9a-f]{12}$/.test(name)) continue;
    const file = join(folder, name);
    const lock = readLock(file);
    if (lock && judge(lock) === "gone") rmSync(file, { force: true });
  }
}

/**
 * Takes the folder for one download, across processes: throws FolderInUseError (naming the
 * holder's PID, start time and host) while another live process holds it, or a download of
 * this process does; a lock whose process is gone is taken over. Returns the release.
 *
 * @example
 * ```ts
 * const release = lockFolder("lake/bars");
 * try { … } finally { release(); }
 * ```
 */
export function lockFolder(folder: string): () => void {
  try {
    return take(folder);
  } catch (error) {
    throw StorageError.of(error, "lock the folder", folder); // a FolderInUseError (a StorageError) as it is
  }
}

function take(folder: string): () => void {
  const path = join(folder, LOCK);
  for (let attempt = 0; attempt < 200; attempt++) {
    const mine = create(path, false);
    if (mine) {
      const text = mine.text;
      removeOrphanTokens(folder);
      return () => removeIfStill(path, text);
    }
    const held = readLock(path);
    if (!held) continue; // released in between
    const verdict = judge(held);
    if (verdict === "held" || verdict === "unreadable") throw new FolderInUseError(folder, holderOf(held, path));
    if (verdict === "young") pause(5);
    else removeStale(folder, path, held.text);
  }
  throw new StorageError(`Cannot lock the folder '${folder}': its lock file keeps changing`, folder, "lock contention");
}
