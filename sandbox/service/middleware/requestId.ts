/** Gives every response an `X-Request-ID`: the caller's, when it sent a sane one, else a new one. */
import type { MiddlewareHandler } from "hono";
import type { Env } from "../context.ts";

const SANE = /^[A-Za-z0-9._\-]{1,64}$/;

export const requestId: MiddlewareHandler<Env> = async (c, next) => {
  const incoming = c.req.header("X-Request-ID");
  const id = incoming && SANE.test(incoming) ? incoming : crypto.randomUUID();
  c.set("requestId", id);
  c.header("X-Request-ID", id);
  await next();
  // Error answers are built after the first header was set; a handler's own Response may carry it already.
  if (c.res.headers.get("X-Request-ID") !== id) c.header("X-Request-ID", id);
};
