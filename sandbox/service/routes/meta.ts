/**
 * GET /api/v1/meta/datasets (the datasets this identity may reach), /{id}/status (dates, row
 * count, ticker count within the identity's access rule; last update) and /{id}/columns (the
 * catalog's column schema). `{id}` is the text id or the short `dataset_id`. Free: no quota spent.
 */
import { Hono } from "hono";
import type { Env } from "../context.ts";
import { entitledDataset } from "../entitlements.ts";
import { datasetStatus } from "../query/status.ts";
import { getAccessRules } from "../state/accounts.ts";

export const metaRoutes = new Hono<Env>()
  .get("/datasets", (c) => {
    const { db, market } = c.get("services");
    const rules = getAccessRules(db, c.get("identity").identity_id);
    return c.json(market.datasets.filter((d) => rules.some((r) => r.dataset_text_id === d.textId)).map((d) => ({
      dataset_id: d.id,
      dataset_text_id: d.textId,
      dataset_name: d.name,
      data_group: d.dataGroup,
      vendor: d.vendor,
    })));
  })
  .get("/datasets/:id/status", async (c) => {
    const { db, market } = c.get("services");
    const { dataset, rule } = entitledDataset(market, getAccessRules(db, c.get("identity").identity_id), c.req.param("id"), c.get("settings"), { acceptShortId: true });
    return c.json(await datasetStatus(market, dataset, rule));
  })
  .get("/datasets/:id/columns", (c) => {
    const { db, market } = c.get("services");
    const { dataset } = entitledDataset(market, getAccessRules(db, c.get("identity").identity_id), c.req.param("id"), c.get("settings"), { acceptShortId: true });
    return c.json(dataset.columns.map((col) => ({
      name: col.name,
      data_type: col.type,
      description: col.description,
      nullable: col.nullable,
      ...(col.type.startsWith("datetime") ? { time_zone: "America/New_York" } : {}),
    })));
  });
