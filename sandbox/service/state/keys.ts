/**
 * API keys: only a SHA-256 digest of each key is stored; a presented key is hashed, looked up
 * by digest and then compared in constant time. Keys are never logged or stored in clear.
 */
import { Buffer } from "node:buffer";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import { HttpError, tooManyKeys } from "../errors.ts";
import { statement, transaction } from "./db.ts";

/** What a well-formed key looks like; anything else is refused before any lookup. */
const KEY_SHAPE = /^[A-Za-z0-9_\-]{8,128}$/;

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The stored row of a presented key, or undefined for a malformed or unknown key. */
export interface StoredKey {
  id: number;
  identity_id: number;
  expires_at: string | null;
  revoked_at: string | null;
}

export function findKey(db: DatabaseSync, presented: string): StoredKey | undefined {
  if (!KEY_SHAPE.test(presented)) return undefined;
  const digest = hashKey(presented);
  const row = statement(db, "SELECT id, identity_id, key_hash, expires_at, revoked_at FROM api_keys WHERE key_hash = ?").get(digest) as
    | (StoredKey & { key_hash: string })
    | undefined;
  if (!row) return undefined;
  // The index lookup already matched; the constant-time comparison keeps the check itself free of timing leaks.
  if (!timingSafeEqual(Buffer.from(row.key_hash, "hex"), Buffer.from(digest, "hex"))) return undefined;
  return { id: row.id, identity_id: row.identity_id, expires_at: row.expires_at, revoked_at: row.revoked_at };
}

export interface KeyListing {
  id: number;
  identity_id: number;
  hint: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

function activeKeyCount(db: DatabaseSync, identityId: number, now: Date): number {
  const row = statement(
    db,
    "SELECT COUNT(*) AS n FROM api_keys WHERE identity_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
  ).get(identityId, now.toISOString()) as { n: number };
  return row.n;
}

/**
 * Stores a key for an identity; `key` is generated when not given. Returns the clear key,
 * the only time it is ever seen. Throws 409 past the identity's `max_active_api_keys`.
 */
export function createKey(
  db: DatabaseSync,
  identityId: number,
  options: { key?: string; expiresAt?: string; now?: Date } = {},
): { id: number; key: string } {
  const now = options.now ?? new Date();
  const key = options.key ?? `mk_${randomBytes(24).toString("base64url")}`;
  if (!KEY_SHAPE.test(key)) throw new HttpError(422, `Key '${key.slice(0, 4)}...' is malformed: use 8 to 128 letters, digits, '_' or '-'`);
  return transaction(db, () => {
    const identity = statement(db, "SELECT max_active_api_keys FROM identities WHERE id = ?").get(identityId) as {
      max_active_api_keys: number;
    } | undefined;
    if (!identity) throw new HttpError(404, `Identity ${identityId} is not found`);
    if (activeKeyCount(db, identityId, now) >= identity.max_active_api_keys) throw tooManyKeys(identity.max_active_api_keys);
    const result = statement(db, "INSERT INTO api_keys (identity_id, key_hash, hint, created_at, expires_at) VALUES (?, ?, ?, ?, ?)")
      .run(identityId, hashKey(key), `${key.slice(0, 4)}...${key.slice(-2)}`, now.toISOString(), options.expiresAt ?? null);
    return { id: Number(result.lastInsertRowid), key };
  });
}

export function listKeys(db: DatabaseSync, identityId?: number): KeyListing[] {
  const sql = "SELECT id, identity_id, hint, created_at, expires_at, revoked_at FROM api_keys" +
    (identityId === undefined ? "" : " WHERE identity_id = ?") + " ORDER BY id";
  return (identityId === undefined ? statement(db, sql).all() : statement(db, sql).all(identityId)) as unknown as KeyListing[];
}

/** Revokes a key by id; revoking twice is harmless. */
export function revokeKey(db: DatabaseSync, keyId: number, now = new Date()): void {
  const result = statement(db, "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?").run(now.toISOString(), keyId);
  if (result.changes === 0) throw new HttpError(404, `API key ${keyId} is not found`);
}
