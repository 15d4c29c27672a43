/**
 * How the workbench writes files: atomically (a hidden temporary file renamed into place, removed
 * again when the write fails), with the user's umask (Deno's `appendFileSync` creates files 0666
 * whatever the umask), failures as StorageErrors naming the path, and one writer per lake folder
 * across processes (a lock file holding the writer's pid).
 */
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { rename } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import process from "node:process";
import { FolderInUseError, StorageError } from "../errors/storage.ts";

/**
 * Appends `text` to `path`, creating it with the umask's mode when missing.
 *
 * @example
 * ```ts
 * appendLine("lake/_partitions.jsonl", '{"path":"Ticker=AAPL/TradeDate=2023-11-21","rows":390}\n');
 * ```
 */
export function appendLine(path: string, text: string): void {
  try {
    if (existsSync(path)) appendFileSync(path, text);
    else writeFileSync(path, text, { flag: "a" }); // writeFileSync honours the umask
  } catch (error) {
    throw StorageError.of(error, "append to", path);
  }
}

/**
 * Writes a file atomically through `write(tmp)`: a hidden temporary file beside it, renamed into
 * place; on failure the temporary file is removed and a StorageError names the file and cause.
 *
 * @example
 * ```ts
 * writeAtomically("lake/Ticker=AAPL/TradeDate=2023-11-21/part.parquet", (tmp) => frame.writeParquet(tmp));
 * ```
 */
export function writeAtomically(file: string, write: (tmp: string) => void): void {
  const tmp = temporaryBeside(file);
  try {
    write(tmp);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
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
export async function writeAtomicallyAsync(file: string, write: (tmp: string) => Promise<void>, tmp = temporaryBeside(file)): Promise<void> {
  try {
    await write(tmp);
    await rename(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
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

const LOCK = "_download.lock";

/** Whether process `pid` is alive (a lock left by a killed download is not held). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/**
 * Takes the folder for one download, across processes: throws FolderInUseError while another
 * live process holds it; a lock whose process is gone is taken over. Returns the release.
 *
 * @example
 * ```ts
 * const release = lockFolder("lake/bars");
 * try { … } finally { release(); }
 * ```
 */
export function lockFolder(folder: string): () => void {
  const path = join(folder, LOCK);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw StorageError.of(error, "lock the folder", folder);
      let holder: number;
      try {
        holder = Number(readFileSync(path, "utf8").trim());
      } catch {
        continue; // released in between: try again
      }
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) throw new FolderInUseError(folder, holder);
      if (holder === process.pid) throw new FolderInUseError(folder, holder); // this process is already downloading into it
      rmSync(path, { force: true }); // left by a download that died
    }
  }
  throw new StorageError(`Cannot lock the folder '${folder}': its lock file keeps changing`, folder, "lock contention");
}
