/**
 * GET /api/v1/meta/datasets (the datasets this identity may reach), /{id}/status (dates, row
 * count, ticker count within the identity's access rule; last update) and /{id}/columns (the
 * catalog's column schema). `{id}` is the text id or the short `dataset_id`. Free: no quota spent.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { META_ROUTES } from "../api/routes.ts";
import type { Env } from "../context.ts";
import { entitledDataset } from "../entitlements.ts";
import { datasetStatus } from "../query/status.ts";
import { getAccessRules } from "../state/accounts.ts";

function entitled(c: Context<Env>) {
  const { db, market } = c.get("services");
  return entitledDataset(market, getAccessRules(db, c.get("identity").identity_id), c.req.param("id")!, c.get("settings"), {
    acceptShortId: true,
  });
}

export function registerMetaRoutes(app: OpenAPIHono<Env>): void {
  app.openapi(
    META_ROUTES.datasets,
    ((c: Context<Env>) => {
      const { db, market } = c.get("services");
      const rules = getAccessRules(db, c.get("identity").identity_id);
      return c.json(
        market.datasets.filter((d) => rules.some((r) => r.dataset_text_id === d.textId)).map((d) => ({
          dataset_id: d.id,
          dataset_text_id: d.textId,
          dataset_name: d.name,
          data_group: d.dataGroup,
          vendor: d.vendor,
        })),
      );
    }) as never,
  );
  app.openapi(
    META_ROUTES.status,
    (async (c: Context<Env>) => {
      const { dataset, rule } = entitled(c);
      return c.json(await datasetStatus(c.get("services").market, dataset, rule));
    }) as never,
  );
  app.openapi(
    META_ROUTES.columns,
    ((c: Context<Env>) => {
      const { dataset } = entitled(c);
      return c.json(dataset.columns.map((col) => ({
        name: col.name,
        data_type: col.type,
        description: col.description,
        nullable: col.nullable,
        ...(col.type.startsWith("datetime") ? { time_zone: "America/New_York" } : {}),
      })));
    }) as never,
  );
}
