/** Records of /api/v1/account/my, /my/quotas and /my/data-access-rules. */
import { z } from "zod";
import { WireDate, WireInteger } from "./wire.ts";

/**
 * GET /api/v1/account/my.
 *
 * @ignore the schema itself stays out of the workbench's docs (deno doc cannot type a zod
 * schema); the type of the same name documents the record.
 */
export const Identity = z.object({
  identity_id: WireInteger.meta({ description: "The identity's id" }),
  name: z.string().meta({ description: "The identity's name" }),
  max_active_api_keys: WireInteger.meta({ description: "How many API keys may be active at once" }),
  ip_subnets: z.array(z.string()).meta({ description: "CIDR subnets requests may come from (empty: any)" }),
}).meta({ id: "Identity", description: "The identity behind the API key" });

/**
 * The four quota counters, as usage or as limits.
 *
 * @ignore the schema itself stays out of the workbench's docs (deno doc cannot type a zod
 * schema); the type of the same name documents the record.
 */
export const QuotaValues = z.object({
  per_minute_requests: WireInteger,
  monthly_requests: WireInteger,
  monthly_data_scanned: WireInteger.meta({ description: "Bytes" }),
  monthly_data_returned: WireInteger.meta({ description: "Bytes" }),
}).meta({ id: "QuotaValues", description: "Requests this minute and month; bytes scanned and returned this month" });

/**
 * GET /api/v1/account/my/quotas.
 *
 * @ignore the schema itself stays out of the workbench's docs (deno doc cannot type a zod
 * schema); the type of the same name documents the record.
 */
export const Quotas = z.object({
  quotas_usage: QuotaValues,
  quotas_limit: QuotaValues,
}).meta({ id: "Quotas", description: "Usage this minute and month against limits (summed over the team)" });

/**
 * One entry of GET /api/v1/account/my/data-access-rules.
 *
 * @ignore the schema itself stays out of the workbench's docs (deno doc cannot type a zod
 * schema); the type of the same name documents the record.
 */
export const MetaDatasetAccessRuleOut = z.object({
  dataset_text_id: z.string().meta({ description: "e.g. eq-taq-1min" }),
  dataset_id: z.string(),
  dataset_name: z.string(),
  dataset_version: z.string().meta({ description: "e.g. latest" }),
  start_date: WireDate.meta({ description: "First date the identity may read" }),
  end_date: WireDate.nullable().meta({ description: "Last date the identity may read; null: no end" }),
  universe_identifiers: z.array(z.string()).meta({ description: "Tickers the identity may read (empty: all)" }),
}).meta({ id: "MetaDatasetAccessRuleOut", description: "A data access rule: dataset, date window, ticker universe" });

/** GET /api/v1/account/my/data-access-rules. */
export const AccessRules: z.ZodArray<typeof MetaDatasetAccessRuleOut> = z.array(MetaDatasetAccessRuleOut).meta({
  id: "AccessRules",
  description: "The identity's data access rules",
});

/**
 * The identity behind an API key (GET /api/v1/account/my): `identity_id`, `name`,
 * `max_active_api_keys` and `ip_subnets` (CIDR subnets requests may come from; empty: any).
 */
export type Identity = z.infer<typeof Identity>;
/**
 * One value per quota: `per_minute_requests` and `monthly_requests` (requests),
 * `monthly_data_scanned` and `monthly_data_returned` (bytes).
 */
export type QuotaValues = z.infer<typeof QuotaValues>;
/** Quota usage and limits (GET /api/v1/account/my/quotas): `quotas_usage` and `quotas_limit`, each a `QuotaValues`, summed over the team. */
export type Quotas = z.infer<typeof Quotas>;
/**
 * A data access rule (one entry of GET /api/v1/account/my/data-access-rules): the dataset
 * (`dataset_text_id`, e.g. `eq-taq-1min`, `dataset_id`, `dataset_name`, `dataset_version`),
 * the dates it may read (`start_date`, `end_date`; null: no end) and its ticker universe
 * (`universe_identifiers`; empty: every ticker).
 */
export type MetaDatasetAccessRuleOut = z.infer<typeof MetaDatasetAccessRuleOut>;
