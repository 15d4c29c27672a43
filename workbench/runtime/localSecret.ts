/**
 * A secret of this user on this machine (32 random bytes), made once and kept in a private file:
 * `$XDG_CONFIG_HOME/market-workbench/secret` (else `~/.config/…`; `%APPDATA%\…` on Windows),
 * 0600 in a 0700 folder. The result cache keys its entries with an HMAC under it, so a cache
 * entry tells nothing about the API key to anyone without this file (a digest of the key alone
 * would let anyone who reads the cache confirm a guess of a weak key offline).
 */
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { envVar } from "./env.ts";

const BYTES = 32;
let secret: Uint8Array | undefined;

/**
 * Where the secret is kept.
 *
 * @example
 * ```ts
 * localSecretPath(); // "/home/me/.config/market-workbench/secret"
 * ```
 */
export function localSecretPath(): string {
  const base = envVar("XDG_CONFIG_HOME") || (process.platform === "win32" ? envVar("APPDATA") : undefined) || join(homedir(), ".config");
  return join(base, "market-workbench", "secret");
}

function readSecret(path: string): Uint8Array | undefined {
  try {
    const bytes = readFileSync(path);
    if (bytes.length < BYTES) return undefined;
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600); // made readable by others since: private again
    return new Uint8Array(bytes);
  } catch {
    return undefined;
  }
}

/** Writes a new secret whole (a private file of its own, linked into place: a reader never sees it half-written). */
function createSecret(path: string): Uint8Array {
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  const bytes = new Uint8Array(randomBytes(BYTES));
  const own = `${path}.${process.pid}.tmp`;
  rmSync(own, { force: true });
  const fd = openSync(own, "wx", 0o600);
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(own, path);
    return bytes;
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") return readSecret(path) ?? bytes; // another process made it first
    throw error;
  } finally {
    rmSync(own, { force: true });
  }
}

/**
 * This user's local secret (read once a process; made on first use). When it can be neither
 * read nor made, a secret of this process only, said once through `warn`: cached frames are then
 * found by this session only.
 *
 * @example
 * ```ts
 * const scope = createHmac("sha256", localSecret()).update("…").digest("hex");
 * ```
 */
export function localSecret(warn: (message: string) => void = console.warn): Uint8Array {
  if (secret) return secret;
  const path = localSecretPath();
  try {
    secret = readSecret(path) ?? createSecret(path);
  } catch (error) {
    secret = new Uint8Array(randomBytes(BYTES));
    warn(
      `Warning: cannot keep the workbench's local secret in '${path}' (${
        (error as Error).message
      }): cached frames are keyed for this session only, and the next session fetches them again. Set XDG_CONFIG_HOME to a writable folder to keep them.`,
    );
  }
  return secret;
}
