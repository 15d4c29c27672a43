/**
 * Key guessing, slowed: each client address may present INVALID_KEY_BURST invalid keys at once,
 * then one every INVALID_KEY_EVERY_MS (a token bucket per address, kept in the state so every
 * worker counts the same guesses, spent in one transaction so concurrent guesses cannot
 * overdraw it). An address with no token left is refused 429 with Retry-After before its key
 * is judged (middleware/auth.ts), unless the key is valid and has authenticated from that
 * address before: its owner keeps working while someone on the same address guesses. A valid
 * key never seen from the address waits like a guess, so a refusal says nothing about whether
 * the key exists. Addresses whose bucket has filled up again are forgotten.
 */
import type { DatabaseSync } from "node:sqlite";
import { statement, transaction } from "./db.ts";

/** Invalid keys an address may present at once. */
const INVALID_KEY_BURST = 20;
/** After the burst, one more invalid key each this many milliseconds (20 a minute). */
const INVALID_KEY_EVERY_MS = 3000;

interface Bucket {
  tokens: number;
  updated_ms: number;
}

/** Tokens of a bucket at `nowMs`, refilled since it was last written. */
function tokensAt(bucket: Bucket | undefined, nowMs: number): number {
  if (!bucket) return INVALID_KEY_BURST;
  return Math.min(INVALID_KEY_BURST, bucket.tokens + Math.max(0, nowMs - bucket.updated_ms) / INVALID_KEY_EVERY_MS);
}

/** Whole seconds until a bucket of `tokens` holds one again (at least 1; the wait is rounded to the millisecond first, so float dust does not add a second). */
const secondsToToken = (tokens: number) => Math.max(1, Math.ceil(Math.round((1 - tokens) * INVALID_KEY_EVERY_MS) / 1000));

const bucketOf = (db: DatabaseSync, address: string) =>
  statement(db, "SELECT tokens, updated_ms FROM key_guesses WHERE address = ?").get(address) as Bucket | undefined;

/**
 * Seconds `address` must wait before presenting a key it has not used from there (0: none).
 *
 * @example
 * ```ts
 * if (guessWait(db, "203.0.113.7", Date.now()) > 0) throw tooManyInvalidKeys(wait);
 * ```
 */
export function guessWait(db: DatabaseSync, address: string, nowMs: number): number {
  const tokens = tokensAt(bucketOf(db, address), nowMs);
  return tokens >= 1 ? 0 : secondsToToken(tokens);
}

/**
 * Counts an invalid key presented from `address`, when the address has a token for it: returns
 * 0 (counted), or the seconds to wait (nothing counted: the key is refused unjudged).
 *
 * @example
 * ```ts
 * const wait = spendGuess(db, address, now.getTime());
 * throw wait > 0 ? tooManyInvalidKeys(wait) : invalidApiKey();
 * ```
 */
export function spendGuess(db: DatabaseSync, address: string, nowMs: number): number {
  return transaction(db, () => {
    const tokens = tokensAt(bucketOf(db, address), nowMs);
    if (tokens < 1) return secondsToToken(tokens);
    statement(
      db,
      "INSERT INTO key_guesses (address, tokens, updated_ms) VALUES (?, ?, ?) ON CONFLICT (address) DO UPDATE SET tokens = excluded.tokens, updated_ms = excluded.updated_ms",
    )
      .run(address, tokens - 1, nowMs);
    // A bucket untouched for as long as a full refill takes is full: nothing to remember.
    statement(db, "DELETE FROM key_guesses WHERE updated_ms < ?").run(nowMs - INVALID_KEY_BURST * INVALID_KEY_EVERY_MS);
    return 0;
  });
}

/** Pairs known in this thread (address, key id), so most requests ask the state nothing more. */
const knownHere = new WeakMap<DatabaseSync, Set<string>>();
const KNOWN_HERE_MAX = 10_000;

/**
 * Whether key `keyId` has authenticated from `address` before.
 *
 * @example
 * ```ts
 * if (!isKnownFrom(db, address, key.id) && guessWait(db, address, now) > 0) throw tooManyInvalidKeys(wait);
 * ```
 */
export function isKnownFrom(db: DatabaseSync, address: string, keyId: number): boolean {
  const pair = `${address}\u0000${keyId}`;
  let here = knownHere.get(db);
  if (here?.has(pair)) return true;
  if (!statement(db, "SELECT 1 FROM known_keys WHERE address = ? AND key_id = ?").get(address, keyId)) return false;
  if (!here || here.size >= KNOWN_HERE_MAX) knownHere.set(db, here = new Set());
  here.add(pair);
  return true;
}

/** Remembers that key `keyId` authenticated from `address`. */
export function rememberKnownFrom(db: DatabaseSync, address: string, keyId: number): void {
  transaction(db, () => statement(db, "INSERT OR IGNORE INTO known_keys (address, key_id) VALUES (?, ?)").run(address, keyId));
  isKnownFrom(db, address, keyId);
}
