/**
 * The state database holds hashed API keys, access rules, quotas and usage: it is private to
 * the user who runs the sandbox. SQLite creates a new database file 0644 (less the umask: the
 * usual 022 leaves it readable by all) and gives its `-wal` and `-shm` files the database
 * file's mode, so the file is created (or set) 0600 before SQLite opens it, which makes the
 * other two 0600 as well; a folder made for it is 0700. A folder that already exists is the
 * user's own choice and is left as it is.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";

/** The mode of the state database and its `-wal` and `-shm` files. */
const PRIVATE_FILE_MODE = 0o600;
/** The mode of a folder the sandbox makes for its state. */
const PRIVATE_FOLDER_MODE = 0o700;

/** Folders from the first missing ancestor of `folder` down to it, outermost first. */
function missingFolders(folder: string): string[] {
  const missing: string[] = [];
  for (let at = folder; !existsSync(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  return missing;
}

/**
 * Readies the state database's path before SQLite opens it: makes its missing folders 0700,
 * creates the file 0600 when it does not exist, and sets it and any `-wal` and `-shm` left
 * beside it to 0600 (state files written before this rule were 0644). An in-memory database
 * (`:memory:`) has no files.
 *
 * @example
 * ```ts
 * prepareStateFiles("/home/me/.sandbox/state.sqlite"); // folder 0700, file 0600
 * const db = new DatabaseSync("/home/me/.sandbox/state.sqlite");
 * ```
 */
export function prepareStateFiles(path: string): void {
  if (path === ":memory:" || path === "") return;
  for (const folder of missingFolders(dirname(path))) {
    mkdirSync(folder, { mode: PRIVATE_FOLDER_MODE });
    // The mode given to mkdir is less the umask (or, under Deno, ignores it): set it exactly.
    chmodSync(folder, PRIVATE_FOLDER_MODE);
  }
  // Only a new file is opened here: closing any descriptor of a file drops every POSIX lock
  // this process holds on it, SQLite's included (another worker's connection), and another
  // process could then take the database as its alone and remove the WAL in use.
  try {
    closeSync(openSync(path, "wx", PRIVATE_FILE_MODE));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
}
