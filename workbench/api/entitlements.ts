/**
 * What this account may read, in one call: identity, data access rules and quotas, with
 * `may(dataset, { ticker, date })` answering "may I read X for ticker T on date D, and if not,
 * why" from the same rules the service enforces, without spending quota.
 */
import type { AccessRule, Identity, Quotas } from "./account.ts";

/** The answer of `ent.may(...)`: whether the read is allowed, and why (not). */
export interface Verdict {
  /** True when the service would serve the read. */
  allowed: boolean;
  /** One sentence: why, or what the limits are (every refusal reason, joined with "; "). */
  reason: string;
  /** Every reason the read is refused (empty when allowed). */
  reasons: string[];
}

/**
 * What this account may read (`await wb.entitlements()`): its identity, data access rules and
 * quotas, read once, and `may(...)` to ask about one read. In a notebook it shows as a card.
 *
 * @example
 * ```ts
 * const ent = await wb.entitlements();
 * ent.rules.map((r) => r.dataset_text_id); // the datasets this key may read
 * ent.may("eq-daily-ohlc", { ticker: "AAPL", date: "2023-11-21" }).allowed;
 * ```
 */
export class Entitlements {
  /**
   * Made by `wb.entitlements()`, which reads the three from the service.
   *
   * @param identity who the key belongs to
   * @param rules the key's data access rules (the ones the service enforces)
   * @param quotas the quotas' usage and limits when read
   */
  constructor(readonly identity: Identity, readonly rules: readonly AccessRule[], readonly quotas: Quotas) {}

  /**
   * Whether a read is allowed, and why (not).
   *
   * @example
   * ```ts
   * const ent = await wb.entitlements();
   * ent.may("eq-taq-1min", { ticker: "TSLA", date: "2023-11-21" });
   * // { allowed: false, reason: "Ticker TSLA is outside your universe for eq-taq-1min (AAPL, MSFT)" }
   * ```
   */
  may(dataset: string, options: { ticker?: string; date?: string | Date } = {}): Verdict {
    const rule = this.rules.find((r) => r.dataset_text_id === dataset);
    if (!rule) {
      const reason = `Your account is not entitled to ${dataset}; it may read ${this.rules.map((r) => r.dataset_text_id).join(", ") || "no dataset"}`;
      return { allowed: false, reason, reasons: [reason] };
    }
    const date = options.date instanceof Date ? options.date.toISOString().slice(0, 10) : options.date;
    const window = `${rule.start_date} to ${rule.end_date ?? "today"}`;
    // Every reason, not the first: a user fixing the date should learn the ticker is out too.
    const reasons: string[] = [];
    if (date !== undefined && (date < rule.start_date || (rule.end_date !== null && date > rule.end_date))) {
      reasons.push(`${date} is outside your access window for ${dataset} (${window})`);
    }
    const universe = rule.universe_identifiers;
    if (options.ticker !== undefined && universe.length > 0 && !universe.includes(options.ticker)) {
      reasons.push(`Ticker ${options.ticker} is outside your universe for ${dataset} (${universe.join(", ")})`);
    }
    const used = this.quotas.quotas_usage, limit = this.quotas.quotas_limit;
    if (used.monthly_requests >= limit.monthly_requests) {
      reasons.push(`Your monthly request quota is used up (${used.monthly_requests}/${limit.monthly_requests}); it resets on the 1st at 00:00 UTC`);
    }
    if (used.monthly_data_returned >= limit.monthly_data_returned) {
      reasons.push(`Your monthly data quota is used up (${used.monthly_data_returned}/${limit.monthly_data_returned} bytes); it resets on the 1st at 00:00 UTC`);
    }
    if (reasons.length > 0) return { allowed: false, reason: reasons.join("; "), reasons };
    const scope = universe.length > 0 ? `tickers ${universe.join(", ")}` : "every ticker";
    return { allowed: true, reason: `Yes: ${dataset} from ${window}, ${scope}`, reasons: [] };
  }
}
