/** `wb.account`: GET /api/v1/account/my, /my/quotas and /my/data-access-rules. */
import pl from "nodejs-polars";
import * as contract from "../../contract/account.ts";
import { ACCOUNT } from "../query/endpoints.ts";
import type { Transport } from "../http/transport.ts";

/** The records as the contract (contract/account.ts) describes them. */
export type Identity = contract.Identity;
export type Quotas = contract.Quotas;
export type QuotaValues = contract.QuotaValues;
export type AccessRule = contract.MetaDatasetAccessRuleOut;

export class AccountApi {
  private rulesCache?: Promise<AccessRule[]>;
  constructor(private readonly transport: Transport) {}

  /**
   * The identity behind the API key (sends GET /api/v1/account/my).
   *
   * @example
   * ```ts
   * const me = await wb.account.identity(); // { identity_id, name, max_active_api_keys, ip_subnets }
   * ```
   */
  identity(): Promise<Identity> {
    return this.transport.getJson(ACCOUNT.identity, contract.Identity);
  }

  /**
   * Usage against limits, one row per quota (sends GET /api/v1/account/my/quotas).
   *
   * @example
   * ```ts
   * const q = await wb.account.quotas(); // columns quota, used, limit, remaining
   * ```
   */
  async quotas(): Promise<pl.DataFrame> {
    return quotasFrame(await this.quotasRaw());
  }

  /** The quotas as the service sends them. */
  quotasRaw(): Promise<Quotas> {
    return this.transport.getJson(ACCOUNT.quotas, contract.Quotas);
  }

  /**
   * The identity's data access rules, one row per dataset (sends GET .../data-access-rules).
   *
   * @example
   * ```ts
   * const rules = await wb.account.dataAccessRules(); // dataset_text_id, start_date, end_date, universe_identifiers
   * ```
   */
  async dataAccessRules(): Promise<pl.DataFrame> {
    return rulesFrame(await this.rules(true));
  }

  /** The rules as records, fetched once per session unless `refresh`. */
  rules(refresh = false): Promise<AccessRule[]> {
    if (refresh || !this.rulesCache) {
      this.rulesCache = this.transport.getJson(ACCOUNT.dataAccessRules, contract.AccessRules);
      this.rulesCache.catch(() => (this.rulesCache = undefined));
    }
    return this.rulesCache;
  }
}

export function quotasFrame(q: Quotas): pl.DataFrame {
  const names = Object.keys(q.quotas_limit) as (keyof QuotaValues)[];
  return pl.DataFrame({
    quota: names,
    used: names.map((n) => q.quotas_usage[n]),
    limit: names.map((n) => q.quotas_limit[n]),
    remaining: names.map((n) => Math.max(0, q.quotas_limit[n] - q.quotas_usage[n])),
  }).withColumns(pl.col("used").cast(pl.Int64), pl.col("limit").cast(pl.Int64), pl.col("remaining").cast(pl.Int64));
}

export function rulesFrame(rules: AccessRule[]): pl.DataFrame {
  if (rules.length === 0) {
    return pl.DataFrame([
      pl.Series("dataset_text_id", [], pl.String), pl.Series("dataset_id", [], pl.String), pl.Series("dataset_name", [], pl.String),
      pl.Series("dataset_version", [], pl.String), pl.Series("start_date", [], pl.Date), pl.Series("end_date", [], pl.Date),
      pl.Series("universe_identifiers", [], pl.List(pl.String)),
    ]);
  }
  return pl.DataFrame({
    dataset_text_id: rules.map((r) => r.dataset_text_id),
    dataset_id: rules.map((r) => r.dataset_id),
    dataset_name: rules.map((r) => r.dataset_name),
    dataset_version: rules.map((r) => r.dataset_version),
    start_date: rules.map((r) => r.start_date),
    end_date: rules.map((r) => r.end_date),
    universe_identifiers: pl.Series("universe_identifiers", rules.map((r) => r.universe_identifiers), pl.List(pl.String)),
  }).withColumns(
    pl.col("start_date").str.strptime(pl.Date, "%Y-%m-%d"),
    pl.col("end_date").cast(pl.String).str.strptime(pl.Date, "%Y-%m-%d"),
    // Polars types a column of only empty lists as List(Null), whatever the Series was given.
    pl.col("universe_identifiers").cast(pl.List(pl.String)),
  );
}
