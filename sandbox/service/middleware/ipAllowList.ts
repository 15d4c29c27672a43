/**
 * Refuses requests from outside the identity's subnets (403). The address is the socket's;
 * `X-Forwarded-For` counts only when the socket is a configured trusted proxy. An identity
 * with no subnets may call from anywhere.
 */
import type { MiddlewareHandler } from "hono";
import type { Env } from "../context.ts";
import { ipNotAllowed } from "../errors.ts";
import { inCidr } from "../net/cidr.ts";
import { requestAddress } from "./requestAddress.ts";

export const ipAllowList: MiddlewareHandler<Env> = async (c, next) => {
  const subnets = c.get("identity").ip_subnets;
  if (subnets.length > 0) {
    const address = requestAddress(c);
    if (!subnets.some((cidr) => inCidr(address, cidr))) throw ipNotAllowed();
  }
  await next();
};
