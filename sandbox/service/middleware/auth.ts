/**
 * Authenticates `X-API-KEY`: missing is 401 Not authenticated; malformed, unknown or revoked
 * is 401 Invalid API key; an expired key or a deactivated account is 410. The key itself is
 * never logged or echoed.
 */
import type { MiddlewareHandler } from "hono";
import type { Env } from "../context.ts";
import { accountDeactivated, invalidApiKey, keyExpired, notAuthenticated } from "../errors.ts";
import { getIdentity } from "../state/accounts.ts";
import { findKey } from "../state/keys.ts";

export const auth: MiddlewareHandler<Env> = async (c, next) => {
  const presented = c.req.header("X-API-KEY");
  if (presented === undefined || presented === "") throw notAuthenticated();
  const { db, now } = c.get("services");
  const key = findKey(db, presented);
  if (!key || key.revoked_at !== null) throw invalidApiKey();
  if (key.expires_at !== null && key.expires_at <= now().toISOString()) throw keyExpired();
  const identity = getIdentity(db, key.identity_id);
  if (identity.deactivated) throw accountDeactivated();
  c.set("identity", identity);
  await next();
};
