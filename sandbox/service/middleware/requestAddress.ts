/**
 * The address a request comes from: its socket's, or, when the socket is a configured trusted
 * proxy, the client's address in `X-Forwarded-For` (net/cidr.ts). The IP allow-list and the
 * invalid-key throttle judge this address.
 */
import type { Context } from "hono";
import type { Env } from "../context.ts";
import { clientAddress } from "../net/cidr.ts";

/**
 * The client address of the request in `c`.
 *
 * @example
 * ```ts
 * const address = requestAddress(c); // "127.0.0.1"
 * ```
 */
export function requestAddress(c: Context<Env>): string {
  const socket = c.get("services").socketAddress(c.req.raw, c.env?.info);
  return clientAddress(socket, c.req.header("X-Forwarded-For"), c.get("settings").trustedProxies);
}
