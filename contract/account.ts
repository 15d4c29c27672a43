/** Records of /api/v1/account/my, /my/quotas and /my/data-access-rules. */
import { z } from "zod";
import { WireDate, WireInteger } from "./wire.ts";

/** GET /api/v1/account/my. */
export const Identity = z.object({
  identity_id: WireInteger.meta({ description: "The identity's id" }),
  name: z.string().meta({ description: "The identity's name" }),
  max_active_api_keys: WireInteger.meta({ description: "How many API keys may be active at once" }),
  ip_subnets: z.array(z.string()).meta({ description: "CIDR subnets requests may come from (empty: any)" }),
}).meta({ id: "Identity", description: "The identity behind the API key" });

/** The four quota counters, as usage or as limits. */
export const QuotaValues = z.object({
  per_minute_requests: WireInteger,
  monthly_requests: WireInteger,
  monthly_data_scanned: WireInteger.meta({ description: "Bytes" }),
  monthly_data_returned: WireInteger.meta({ description: "Bytes" }),
}).meta({ id: "QuotaValues", description: "Requests this minute and month; bytes scanned and returned this month" });

/** GET /api/v1/account/my/quotas. */
export const Quotas = z.object({
  quotas_usage: QuotaValues,
  quotas_limit: QuotaValues,
}).meta({ id: "Quotas", description: "Usage this minute and month against limits (summed over the team)" });

/** One entry of GET /api/v1/account/my/data-access-rules. */
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
export const AccessRules = z.array(MetaDatasetAccessRuleOut).meta({ id: "AccessRules", description: "The identity's data access rules" });

export type Identity = z.infer<typeof Identity>;
export type QuotaValues = z.infer<typeof QuotaValues>;
export type Quotas = z.infer<typeof Quotas>;
export type MetaDatasetAccessRuleOut = z.infer<typeof MetaDatasetAccessRuleOut>;
