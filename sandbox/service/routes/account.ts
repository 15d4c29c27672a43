/** GET /api/v1/account/my, /my/quotas and /my/data-access-rules. Free: they spend no quota. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ACCOUNT_ROUTES } from "../api/routes.ts";
import type { Env } from "../context.ts";
import { getAccessRules, getQuotaLimits } from "../state/accounts.ts";
import { readUsage } from "../state/usage.ts";

export function registerAccountRoutes(app: OpenAPIHono<Env>): void {
  app.openapi(
    ACCOUNT_ROUTES.identity,
    ((c: Context<Env>) => {
      const { identity_id, name, max_active_api_keys, ip_subnets } = c.get("identity");
      return c.json({ identity_id, name, max_active_api_keys, ip_subnets });
    }) as never,
  );
  app.openapi(
    ACCOUNT_ROUTES.quotas,
    ((c: Context<Env>) => {
      const { db, now } = c.get("services");
      const teamId = c.get("identity").team_id;
      return c.json({ quotas_usage: readUsage(db, teamId, now()), quotas_limit: getQuotaLimits(db, teamId) });
    }) as never,
  );
  app.openapi(
    ACCOUNT_ROUTES.rules,
    ((c: Context<Env>) => {
      const { db, market } = c.get("services");
      const rules = getAccessRules(db, c.get("identity").identity_id);
      return c.json(rules.flatMap((r) => {
        const dataset = market.datasets.find((d) => d.textId === r.dataset_text_id);
        if (!dataset) return [];
        return [{
          dataset_text_id: dataset.textId,
          dataset_id: dataset.id,
          dataset_name: dataset.name,
          dataset_version: "latest",
          start_date: r.start_date,
          end_date: r.end_date,
          universe_identifiers: r.universe_identifiers,
        }];
      }));
    }) as never,
  );
}
