/**
 * The sandbox's state in SQLite (`node:sqlite`): teams and their quotas, identities, hashed
 * API keys, data access rules, usage counters, settings, and the invalid keys each address
 * presented. One file, WAL mode, so counters
 * survive a restart and the admin command can change things while the service runs.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { prepareStateFiles } from "./privateFiles.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS teams (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  per_minute_requests INTEGER NOT NULL,
  monthly_requests INTEGER NOT NULL,
  monthly_data_scanned INTEGER NOT NULL,
  monthly_data_returned INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS identities (
  id INTEGER PRIMARY KEY,
  team_id INTEGER NOT NULL REFERENCES teams(id),
  name TEXT NOT NULL,
  max_active_api_keys INTEGER NOT NULL,
  ip_subnets TEXT NOT NULL DEFAULT '[]',
  deactivated INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS api_keys (
  id INTEGER PRIMARY KEY,
  identity_id INTEGER NOT NULL REFERENCES identities(id),
  key_hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS access_rules (
  identity_id INTEGER NOT NULL REFERENCES identities(id),
  dataset_text_id TEXT NOT NULL,
  start_date TEXT NOT NULL,
  end_date TEXT,
  universe TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (identity_id, dataset_text_id)
);
CREATE TABLE IF NOT EXISTS usage (
  team_id INTEGER NOT NULL REFERENCES teams(id),
  period TEXT NOT NULL,
  requests INTEGER NOT NULL DEFAULT 0,
  data_scanned INTEGER NOT NULL DEFAULT 0,
  data_returned INTEGER NOT NULL DEFAULT 0,
  -- Requests admitted and not yet answered: they hold a place under the limits (so quotas stay
  -- exact under concurrency) but count only once their answer is committed (state/usage.ts).
  in_flight INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (team_id, period)
);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- Invalid keys presented per client address, as a token bucket (state/keyGuesses.ts).
CREATE TABLE IF NOT EXISTS key_guesses (address TEXT PRIMARY KEY, tokens REAL NOT NULL, updated_ms INTEGER NOT NULL);
-- Keys that authenticated from an address: they are not slowed when others guess from there.
CREATE TABLE IF NOT EXISTS known_keys (address TEXT NOT NULL, key_id INTEGER NOT NULL, PRIMARY KEY (address, key_id));
`;

/**
 * Opens (creating when needed, with its folder) the state database at `path` (`:memory:` for a
 * throwaway one), private to the user: the file and its `-wal` and `-shm` 0600, a folder made
 * for it 0700 (see privateFiles.ts).
 */
export function openState(path: string): DatabaseSync {
  prepareStateFiles(path);
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;");
  db.exec(SCHEMA);
  // State files written before in_flight existed.
  const columns = db.prepare("PRAGMA table_info(usage)").all() as { name: string }[];
  if (!columns.some((c) => c.name === "in_flight")) db.exec("ALTER TABLE usage ADD COLUMN in_flight INTEGER NOT NULL DEFAULT 0");
  return db;
}

const statements = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/**
 * The prepared statement for `sql` on `db`, prepared once and reused: preparing costs more
 * than running the small statements of a request (and preparing on every request stalled the
 * service under load).
 *
 * @example
 * ```ts
 * statement(db, "SELECT id FROM teams WHERE name = ?").get("Demo");
 * ```
 */
export function statement(db: DatabaseSync, sql: string): StatementSync {
  let cache = statements.get(db);
  if (!cache) statements.set(db, cache = new Map());
  let prepared = cache.get(sql);
  if (!prepared) cache.set(sql, prepared = db.prepare(sql));
  return prepared;
}

/** 0 free, 1 held: the write lock the sandbox's workers take before SQLite's (see shareWriteLock). */
let writeLock: Int32Array | undefined;

/**
 * Makes this thread take the in-process write lock in `buffer` (4 bytes, shared by every
 * worker of one sandbox) around each transaction. SQLite's own lock, met busy, makes the loser
 * sleep 1 ms or more (its busy handler) with its whole event loop; with the workers queueing
 * here first, a transaction waits only for the few microseconds another one holds the lock.
 * SQLite's lock and busy timeout still guard against other processes (sandbox-admin).
 *
 * @example
 * ```ts
 * shareWriteLock(options.stateLock); // in each worker, before serving
 * ```
 */
export function shareWriteLock(buffer: SharedArrayBuffer): void {
  writeLock = new Int32Array(buffer);
}

function lockWrites(): void {
  if (!writeLock) return;
  // A short timed wait: a wake-up missed between the exchange and the wait costs 1 ms, not a hang.
  while (Atomics.compareExchange(writeLock, 0, 0, 1) !== 0) Atomics.wait(writeLock, 0, 1, 1);
}

function unlockWrites(): void {
  if (!writeLock) return;
  Atomics.store(writeLock, 0, 0);
  Atomics.notify(writeLock, 0, 1);
}

/** Runs `fn` in one transaction: all of it or none of it. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  lockWrites();
  try {
    statement(db, "BEGIN IMMEDIATE").run();
    try {
      const result = fn();
      statement(db, "COMMIT").run();
      return result;
    } catch (e) {
      statement(db, "ROLLBACK").run();
      throw e;
    }
  } finally {
    unlockWrites();
  }
}
