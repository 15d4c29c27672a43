/**
 * Authenticates `X-API-KEY`: missing is 401 Not authenticated; malformed, unknown or revoked
 * is 401 Invalid API key; an expired key or a deactivated account is 410. The key itself is
 * never logged or echoed. Guessing is slowed (state/keyGuesses.ts): an address that presented
 * too many invalid keys gets 429 with Retry-After, whatever key it presents, except a valid key
 * that authenticated from that address before.
 */
import type { MiddlewareHandler } from "hono";
import type { Env } from "../context.ts";
import { accountDeactivated, invalidApiKey, keyExpired, notAuthenticated, tooManyInvalidKeys } from "../errors.ts";
import { getIdentity } from "../state/accounts.ts";
import { guessWait, isKnownFrom, rememberKnownFrom, spendGuess } from "../state/keyGuesses.ts";
import { findKey } from "../state/keys.ts";
import { requestAddress } from "./requestAddress.ts";

export const auth: MiddlewareHandler<Env> = async (c, next) => {
  const presented = c.req.header("X-API-KEY");
  if (presented === undefined || presented === "") throw notAuthenticated();
  const { db, now } = c.get("services");
  const key = findKey(db, presented);
  const valid = key !== undefined && key.revoked_at === null;
  // The common case, a valid key its owner used from here before, asks nothing more.
  if (!valid || !isKnownFrom(db, requestAddress(c), key.id)) {
    const address = requestAddress(c);
    const nowMs = now().getTime();
    if (!valid) {
      const wait = spendGuess(db, address, nowMs);
      throw wait > 0 ? tooManyInvalidKeys(wait) : invalidApiKey();
    }
    const wait = guessWait(db, address, nowMs);
    if (wait > 0) throw tooManyInvalidKeys(wait);
    rememberKnownFrom(db, address, key.id);
  }
  if (key.expires_at !== null && key.expires_at <= now().toISOString()) throw keyExpired();
  const identity = getIdentity(db, key.identity_id);
  if (identity.deactivated) throw accountDeactivated();
  c.set("identity", identity);
  await next();
};
