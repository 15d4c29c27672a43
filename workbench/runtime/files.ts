/**
 * How the workbench writes files: atomically (a hidden temporary file renamed into place, removed
 * again when the write fails), failures as StorageErrors naming the path, one writer per lake
 * folder across processes (folderLock.ts), and modes it chooses itself, whatever the umask
 * allows and on every append and rewrite: `PRIVATE_FILE` (0600) for what only the user should
 * read, `SHARED_FILE` (0644, the default) for what others may read but never write. A stricter
 * umask narrows either; an existing file with wider bits is narrowed on its next append. Node's
 * `appendFileSync` under Deno chmods its file to 0666 on every append, so appends go through a
 * file descriptor opened with the mode instead.
 */
import { chmodSync, closeSync, fchmodSync, fstatSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { rename } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import process from "node:process";
import { StorageError } from "../errors/storage.ts";

export { lockFolder } from "./folderLock.ts";

/**
 * The mode of files only their owner may read and write: the provenance journal, the result
 * cache's frames and records, the cache's secret.
 */
export const PRIVATE_FILE = 0o600;
/**
 * The mode of files others may read but never write (the default): a lake folder's files, made
 * to be read by colleagues and by other tools (DuckDB, Spark) on a shared machine.
 */
export const SHARED_FILE = 0o644;

/** Narrows an open file's mode to `mode` when it allows more (never widens it). */
function narrow(fd: number, mode: number, path: string): void {
  const now = fstatSync(fd).mode & 0o777;
  if ((now & ~mode) === 0) return;
  try {
    fchmodSync(fd, now & mode);
  } catch (error) {
    if ((error as { code?: string }).code !== "EPERM") throw error; // another user's file: left as it is
    console.warn(
      `Warning: '${path}' allows others to ${now & 0o022 ? "write" : "read"} it (mode ${
        now.toString(8)
      }), and this user may not change that`,
    );
  }
}

/**
 * Appends `text` to `path`: created with `mode` (default `SHARED_FILE`) when missing, narrowed
 * to it when it allows more.
 *
 * @example
 * ```ts
 * appendLine("lake/_partitions.jsonl", '{"path":"Ticker=AAPL/TradeDate=2023-11-21","rows":390}\n');
 * appendLine("journal.jsonl", "{}\n", PRIVATE_FILE);
 * ```
 */
export function appendLine(path: string, text: string, mode: number = SHARED_FILE): void {
  try {
    const fd = openSync(path, "a", mode);
    try {
      narrow(fd, mode, path);
      const bytes = new TextEncoder().encode(text);
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw StorageError.of(error, "append to", path);
  }
}

/** Creates the temporary file of `file` empty with `mode`, so that no writer's default mode ever applies. */
function createTemporary(tmp: string, mode: number): string {
  rmSync(tmp, { force: true }); // left by a killed process whose PID this one reuses
  closeSync(openSync(tmp, "wx", mode));
  return tmp;
}

/** After the writer: the mode it was created with, should the writer have widened it. */
function keepMode(tmp: string, mode: number): void {
  const now = statSync(tmp).mode & 0o777;
  if ((now & ~mode) !== 0) chmodSync(tmp, now & mode);
}

/**
 * Writes a file atomically through `write(tmp)`: a hidden temporary file beside it, renamed into
 * place; on failure the temporary file is removed and a StorageError names the file and cause.
 *
 * @example
 * ```ts
 * writeAtomically("lake/Ticker=AAPL/TradeDate=2023-11-21/part.parquet", (tmp) => frame.writeParquet(tmp));
 * writeAtomically(".cache/frames/entry.json", (tmp) => writeFileSync(tmp, "{}"), PRIVATE_FILE);
 * ```
 */
export function writeAtomically(file: string, write: (tmp: string) => void, mode: number = SHARED_FILE): void {
  let tmp: string | undefined;
  try {
    tmp = createTemporary(temporaryBeside(file), mode);
    write(tmp);
    keepMode(tmp, mode);
    renameSync(tmp, file);
  } catch (error) {
    if (tmp) rmSync(tmp, { force: true });
    throw StorageError.of(error, "write", file);
  }
}

/**
 * `writeAtomically` for a write that does not block the event loop (Polars writing on its own
 * threads): the file is renamed into place (off the event loop too) once `write(tmp)` resolves.
 * `tmp` chooses the temporary file (on the same file system), e.g. outside a folder that
 * readers list while it is written; by default a hidden file beside `file`.
 *
 * @example
 * ```ts
 * await writeAtomicallyAsync("lake/Ticker=AAPL/TradeDate=2023-11-21/part.parquet", (tmp) => frame.lazy().sinkParquet(tmp).collect().then(() => {}));
 * ```
 */
export async function writeAtomicallyAsync(
  file: string,
  write: (tmp: string) => Promise<void>,
  mode: number = SHARED_FILE,
  tmpPath: string = temporaryBeside(file),
): Promise<void> {
  let tmp: string | undefined;
  try {
    tmp = createTemporary(tmpPath, mode);
    await write(tmp);
    keepMode(tmp, mode);
    await rename(tmp, file);
  } catch (error) {
    if (tmp) rmSync(tmp, { force: true });
    throw StorageError.of(error, "write", file);
  }
}

/**
 * Hidden until renamed: engines (Spark, DuckDB globs) skip dot files left by a killed run.
 * Named after the file, so files of one folder can be written at once.
 */
function temporaryBeside(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
}
