/** Answers 503 to every API request while the maintenance setting is on. */
import type { MiddlewareHandler } from "hono";
import type { Env } from "../context.ts";
import { serviceUnavailable } from "../errors.ts";

export const maintenance: MiddlewareHandler<Env> = async (c, next) => {
  if (c.get("settings").maintenance) throw serviceUnavailable();
  await next();
};
