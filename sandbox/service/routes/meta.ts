/**
 * GET /api/v1/meta/datasets (the datasets this identity may reach), /{id}/status (dates, row
 * count, last update) and /{id}/columns (the catalog's column schema). Free: no quota spent.
 */
import { Hono } from "hono";
import type { Env } from "../context.ts";
import { entitledDataset } from "../entitlements.ts";
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
  .get("/datasets/:id/status", (c) => {
    const { db, market } = c.get("services");
    const { dataset } = entitledDataset(market, getAccessRules(db, c.get("identity").identity_id), c.req.param("id"), c.get("settings"));
    const counts = Object.entries(market.manifest.datasets).filter(([k]) => k === dataset.textId || k.startsWith(`${dataset.textId}:`));
    const rows = dataset.variant ? counts.find(([k]) => k.endsWith(`:${dataset.variant!.values[0]}`))?.[1].rows ?? 0 : counts.reduce((s, [, v]) => s + v.rows, 0);
    const days = market.manifest.tradingDays;
    return c.json({
      dataset_id: dataset.id,
      dataset_text_id: dataset.textId,
      status: "available",
      first_available_date: days[0]?.date ?? null,
      last_available_date: days.at(-1)?.date ?? null,
      last_updated: market.updatedAt,
      row_count: rows,
      ticker_count: new Set(market.manifest.securities.map((s) => s.ticker)).size + market.manifest.corporateActions.filter((a) => a.kind === "ticker-change").length,
      variants: dataset.variant ? { [dataset.variant.param]: dataset.variant.values } : {},
    });
  })
  .get("/datasets/:id/columns", (c) => {
    const { db, market } = c.get("services");
    const { dataset } = entitledDataset(market, getAccessRules(db, c.get("identity").identity_id), c.req.param("id"), c.get("settings"));
    return c.json(dataset.columns.map((col) => ({
      name: col.name,
      data_type: col.type,
      description: col.description,
      nullable: col.nullable,
      ...(col.type.startsWith("datetime") ? { time_zone: "America/New_York" } : {}),
    })));
  });
