/**
 * Refuses requests from outside the identity's subnets (403). The address is the socket's;
 * `X-Forwarded-For` counts only when the socket is a configured trusted proxy. An identity
 * with no subnets may call from anywhere.
 */
import type { MiddlewareHandler } from "hono";
import type { Env } from "../context.ts";
import { ipNotAllowed } from "../errors.ts";
import { clientAddress, inCidr } from "../net/cidr.ts";

export const ipAllowList: MiddlewareHandler<Env> = async (c, next) => {
  const subnets = c.get("identity").ip_subnets;
  if (subnets.length > 0) {
    const socket = c.get("services").socketAddress(c.req.raw, c.env?.info);
    const address = clientAddress(socket, c.req.header("X-Forwarded-For"), c.get("settings").trustedProxies);
    if (!subnets.some((cidr) => inCidr(address, cidr))) throw ipNotAllowed();
  }
  await next();
};
