/**
 * Errors of the files the workbench writes and reads back (lake folders, the cache): each names
 * the path and the cause in words, whatever layer raised it (Node's fs, Polars' Parquet writer).
 */
import { accessSync, constants, existsSync, statfsSync } from "node:fs";
import { dirname } from "node:path";
import { type CallState, WorkbenchError } from "./base.ts";

/** `path` itself, or the nearest folder above it that exists. */
function nearestFolder(path: string): string {
  let folder = path;
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  return folder;
}

/**
 * The real code behind Node's recursive `mkdirSync`, which reports ENOENT whatever stopped it (a
 * read-only file system, a folder not writable): the nearest existing folder's write access
 * tells (a check, nothing created). Deno reports the real code itself.
 */
function mkdirCode(path: string): string | undefined {
  try {
    accessSync(nearestFolder(path), constants.W_OK);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

/** Below this many bytes free, a write that failed without a system code failed for want of space. */
const NEARLY_FULL_BYTES = 1 << 20;

/**
 * ENOSPC when the file system holding `path` is all but full. Polars' writer, failing as the
 * disk fills, may report only what it was doing ("Invalid thrift: transport error"), without
 * the system's error: the free space is what tells. Undefined where it cannot be read.
 */
function fullDiskCode(path: string): string | undefined {
  try {
    const { bavail, bsize } = statfsSync(nearestFolder(path));
    return Number(bavail) * Number(bsize) < NEARLY_FULL_BYTES ? "ENOSPC" : undefined;
  } catch {
    return undefined;
  }
}

/** Why a file operation failed, in words, from a system error code or an `os error N` in a message. */
function causeOf(error: unknown, path: string): { code?: string; cause: string } {
  const e = error as { code?: string; message?: string; syscall?: string; path?: string };
  const osError = /os error (\d+)/.exec(e?.message ?? "")?.[1];
  // Native Polars errors carry napi's code ("GenericFailure"), the system's only in their message.
  const systemCode = /^E[A-Z]+$/.test(e?.code ?? "") ? e.code : undefined;
  let code: string | undefined = systemCode ??
    ({ "28": "ENOSPC", "13": "EACCES", "1": "EPERM", "30": "EROFS", "2": "ENOENT", "122": "EDQUOT" } as Record<string, string>)[
      osError ?? ""
    ];
  if (code === "ENOENT" && e?.syscall === "mkdir" && e.path) code = mkdirCode(e.path) ?? code;
  code ??= fullDiskCode(path);
  const words: Record<string, string> = {
    ENOSPC: "no space left on the device",
    EACCES: "permission denied",
    EPERM: "permission denied",
    EROFS: "the file system is read-only",
    ENOENT: "no such file or folder",
    EDQUOT: "the disk quota is used up",
  };
  return { code, cause: (code && words[code]) ?? (e?.message ?? String(error)) };
}

/**
 * A file could not be written or read: `path` says which, `cause` why (`code` the system's).
 *
 * @example
 * ```ts
 * try {
 *   await wb.download("eq-taq-1min", { tickers: ["AAPL"] }, "/full-disk/lake");
 * } catch (e) {
 *   if (e instanceof StorageError) console.log(e.path, e.cause);
 * }
 * ```
 */
export class StorageError extends WorkbenchError {
  /** The file or folder. */
  readonly path: string;
  /** Why, in words ("no space left on the device"). */
  override readonly cause: string;
  /** The system's code (ENOSPC, EACCES, EROFS), when known. */
  readonly code?: string;

  /**
   * A failed file operation, with its path and cause.
   *
   * @param message what failed, naming the path
   * @param path the file or folder
   * @param cause why, in words
   * @param code the system's error code
   * @param state what the call it stopped keeps
   */
  constructor(message: string, path: string, cause: string, code?: string, state: CallState = {}) {
    super(message, state);
    this.path = path;
    this.cause = cause;
    this.code = code;
  }

  /** The same failure, made again with what its call keeps. */
  override keeping(state: CallState): StorageError {
    const Made = this.constructor as new (message: string, path: string, cause: string, code?: string, state?: CallState) => StorageError;
    return new Made(this.message, this.path, this.cause, this.code, { partial: this.partial, resume: this.resume, ...state });
  }

  /**
   * The StorageError of a failed file operation: `doing` says what ("write the partition").
   *
   * @example
   * ```ts
   * const file = "/lake/Ticker=AAPL/part.parquet";
   * try {
   *   Deno.writeFileSync(file, new Uint8Array());
   * } catch (error) {
   *   throw StorageError.of(error, "write the partition", file); // "Cannot write the partition '…': no space left on the device (ENOSPC)"
   * }
   * ```
   */
  static of(error: unknown, doing: string, path: string): StorageError {
    if (error instanceof StorageError) return error;
    const { code, cause } = causeOf(error, path);
    return new StorageError(`Cannot ${doing} '${path}': ${cause}${code ? ` (${code})` : ""}`, path, cause, code);
  }
}

/**
 * A lake folder's file does not hold what its manifest records (truncated, replaced, missing):
 * `path` names the file.
 *
 * @example
 * ```ts
 * try { wb.scan("lake/bars").collectSync(); } catch (e) { if (e instanceof LakeDamagedError) console.log(e.path); }
 * ```
 */
export class LakeDamagedError extends StorageError {}

/** The process a folder's lock names (what its lock file records). */
export interface LockHolder {
  /** Its process id, when the lock file could be read. */
  pid?: number;
  /** When it started (ISO), when known. */
  startedAt?: string;
  /** The host it runs on. */
  host?: string;
  /** When it took the lock (ISO), when known. */
  lockedAt?: string;
  /** The lock file. */
  file: string;
  /** Why the holder is in doubt, when it is: "other-host" (cannot be checked from here), "unreadable" (the lock file holds no record), "this-process" (a download of this process holds it). */
  doubt?: "other-host" | "unreadable" | "this-process";
}

/** The holder in words: "process 4711 (started …) on host lab-1, holding it since …". */
function holderText(h: LockHolder): string {
  if (h.doubt === "unreadable") return `a lock file this workbench cannot read ('${h.file}')`;
  const who = h.doubt === "this-process"
    ? `a download of this process (${h.pid}) still running`
    : `process ${h.pid}${h.startedAt ? ` (started ${h.startedAt})` : ""}`;
  return `${who}${h.host ? ` on host ${h.host}` : ""}${h.lockedAt ? `, holding it since ${h.lockedAt}` : ""}`;
}

/**
 * A lake folder's manifest is missing, unreadable or not a manifest (truncated, garbled, deleted
 * while its files stayed): nothing says what the files hold, so nothing is served. `path` is the
 * manifest; the message says how to repair (`repair: "rebuild"`, from the files, or
 * `repair: "refetch"`, in the download's options).
 *
 * @example
 * ```ts
 * try { wb.scan("lake/bars"); } catch (e) {
 *   if (e instanceof LakeManifestError) await wb.download("eq-taq-1min", { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-24" }, "lake/bars", { repair: "rebuild" });
 * }
 * ```
 */
export class LakeManifestError extends StorageError {}

/**
 * Another download is writing into the folder (across processes): `path` is the folder, `pid`
 * the process holding it and `holder` what its lock records (PID, start time, host).
 *
 * @example
 * ```ts
 * // while another kernel downloads into lake/bars:
 * try {
 *   await wb.download("eq-taq-1min", { tickers: ["AAPL"] }, "lake/bars");
 * } catch (e) {
 *   if (e instanceof FolderInUseError) console.log(e.holder.pid, e.holder.startedAt, e.holder.host);
 * }
 * ```
 */
export class FolderInUseError extends StorageError {
  /** The process writing into the folder (NaN when its lock file cannot be read). */
  readonly pid: number;
  /** What the folder's lock records about its holder. */
  readonly holder: LockHolder;

  /**
   * A folder another process is downloading into.
   *
   * @param folder the folder
   * @param holder what its lock file records
   */
  constructor(folder: string, holder: LockHolder) {
    const ending = holder.doubt === "other-host" || holder.doubt === "unreadable"
      ? `; if no download writes into it any more, delete '${holder.file}'${
        holder.doubt === "other-host" ? " (that host's processes cannot be checked from here)" : ""
      }, or choose another folder`
      : "; run this one when it ends (it then reuses what that one wrote), or choose another folder";
    super(`Folder '${folder}' is being written by another download: ${holderText(holder)}${ending}`, folder, "in use by another download");
    this.pid = holder.pid ?? Number.NaN;
    this.holder = holder;
  }

  /** Refused before any request: it keeps no rows (the same error). */
  override keeping(_state: CallState): FolderInUseError {
    return this;
  }
}
