/** `wb.account`: GET /api/v1/account/my, /my/quotas and /my/data-access-rules. */
import pl from "nodejs-polars";
import type { Identity, MetaDatasetAccessRuleOut as AccessRule, Quotas, QuotaValues } from "../../contract/account.ts";
import type { ServiceFacts } from "../service/facts.ts";

// The records' types are the contract's own (documented there) and re-exported as they are,
// so that `wb.account`'s signatures name types a notebook can import.
export type { AccessRule, Identity, Quotas, QuotaValues };

/**
 * `wb.account`: who the key belongs to, what it may read, and its quotas. Account reads spend
 * no quota.
 *
 * @example
 * ```ts
 * const me = await wb.account.identity();
 * const quotas = await wb.account.quotas();
 * ```
 */
export class AccountApi {
  readonly #facts: ServiceFacts;

  /**
   * Made by `connect()`; a notebook uses `wb.account`.
   *
   * @param facts the session's service facts (the rules read here are the ones the checks use)
   * @internal
   */
  constructor(facts: ServiceFacts) {
    this.#facts = facts;
  }

  /**
   * The identity behind the API key (sends GET /api/v1/account/my).
   *
   * @example
   * ```ts
   * const me = await wb.account.identity(); // { identity_id, name, max_active_api_keys, ip_subnets }
   * ```
   */
  identity(): Promise<Identity> {
    return this.#facts.identity();
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

  /**
   * The quotas as the service sends them (limits and usage).
   *
   * @example
   * ```ts
   * const { quotas_limit, quotas_usage } = await wb.account.quotasRaw();
   * ```
   */
  quotasRaw(): Promise<Quotas> {
    return this.#facts.quotas();
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

  /**
   * The rules as records, fetched once per session unless `refresh`.
   *
   * @example
   * ```ts
   * const rules = await wb.account.rules(true); // read afresh
   * ```
   */
  rules(refresh = false): Promise<AccessRule[]> {
    return this.#facts.rules(refresh);
  }
}

/** The quotas as a frame, one row per quota: quota, used, limit, remaining. */
function quotasFrame(q: Quotas): pl.DataFrame {
  const names = Object.keys(q.quotas_limit) as (keyof QuotaValues)[];
  return pl.DataFrame({
    quota: names,
    used: names.map((n) => q.quotas_usage[n]),
    limit: names.map((n) => q.quotas_limit[n]),
    remaining: names.map((n) => Math.max(0, q.quotas_limit[n] - q.quotas_usage[n])),
  }).withColumns(pl.col("used").cast(pl.Int64), pl.col("limit").cast(pl.Int64), pl.col("remaining").cast(pl.Int64));
}

/** The rules as a frame, one row per dataset, dates typed. */
function rulesFrame(rules: AccessRule[]): pl.DataFrame {
  if (rules.length === 0) {
    return pl.DataFrame([
      pl.Series("dataset_text_id", [], pl.String),
      pl.Series("dataset_id", [], pl.String),
      pl.Series("dataset_name", [], pl.String),
      pl.Series("dataset_version", [], pl.String),
      pl.Series("start_date", [], pl.Date),
      pl.Series("end_date", [], pl.Date),
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
