/**
 * What this account may read, in one call: identity, data access rules and quotas, with
 * `may(dataset, { ticker, date })` answering "may I read X for ticker T on date D, and if not,
 * why" from the same rules the service enforces, without spending quota. Beside what is
 * allowed it keeps what each dataset holds as this key sees it (its dates and count from the
 * status, which the service scopes to the key's window and universe: "visible to you"; the
 * tickers the lookup files know, the option roots the security master knows), so an entitled
 * read that would find no row says so, and a date the key's window hides is never said to be
 * missing from the data.
 */
import { type Holding, holdingOf, missingData } from "../guard/holdings.ts";
import { type RootBook, rootBook } from "../guard/optionRoots.ts";
import { type TickerBook, tickerBook } from "../guard/tickers.ts";
import type { ServiceFacts } from "../service/facts.ts";
import type { AccessRule, Identity, Quotas } from "./account.ts";

export type { Holding } from "../guard/holdings.ts";

/** The answer of `ent.may(...)`: whether the read is allowed, and why (not). */
export interface Verdict {
  /** True when the service would serve the read. */
  allowed: boolean;
  /** One sentence: why, or what the limits are (every refusal reason, joined with "; "). */
  reason: string;
  /** Every reason the read is refused (empty when allowed). */
  reasons: string[];
  /**
   * Why the data would hold no row for the read, allowed or not (the date not in the data or
   * not a trading day, the ticker or option root unknown or not trading under that name then);
   * empty when it should; absent when what the dataset holds is not known (an Entitlements made
   * without it). A date outside the key's window is never here: the window hides whether the
   * data holds it (`reasons` says it is outside your window).
   */
  missing?: string[];
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
   * @param holdings what each entitled dataset holds as this key sees it, by dataset id (from its status)
   * @param book the lookup files' tickers, where the identity may read them
   * @param roots the options security master's roots, where the identity may read it
   */
  constructor(
    readonly identity: Identity,
    readonly rules: readonly AccessRule[],
    readonly quotas: Quotas,
    readonly holdings: Readonly<Record<string, Holding>> = {},
    private readonly book?: TickerBook,
    private readonly roots?: RootBook,
  ) {}

  /**
   * Whether a read is allowed, and why (not).
   *
   * @example
   * ```ts
   * const ent = await wb.entitlements();
   * ent.may("eq-taq-1min", { ticker: "TSLA", date: "2023-11-21" });
   * // { allowed: false, reason: "Ticker TSLA is outside your universe for eq-taq-1min (AAPL, MSFT)", ... }
   * ent.may("eq-taq-1min", { ticker: "AAPL", date: "2020-01-02" }).missing;
   * // ["2020-01-02 is not in the data of eq-taq-1min: the dates visible to you run 2023-11-01 to 2024-01-31"]
   * ```
   */
  may(dataset: string, options: { ticker?: string; date?: string | Date } = {}): Verdict {
    const rule = this.rules.find((r) => r.dataset_text_id === dataset);
    if (!rule) {
      const reason = `Your account is not entitled to ${dataset}; it may read ${
        this.rules.map((r) => r.dataset_text_id).join(", ") || "no dataset"
      }`;
      return { allowed: false, reason, reasons: [reason] };
    }
    const date = options.date instanceof Date ? options.date.toISOString().slice(0, 10) : options.date;
    const holding = this.holdings[dataset];
    const missing = holding ? { missing: missingData(holding, this.book, { ticker: options.ticker, date }, this.roots, rule) } : {};
    const window = `${rule.start_date} to ${rule.end_date ?? "today"}`;
    // Every reason, not the first: a user fixing the date should learn the ticker is out too.
    const reasons: string[] = [];
    if (date !== undefined && (date < rule.start_date || (rule.end_date !== null && date > rule.end_date))) {
      reasons.push(`${date} is outside your access window for ${dataset} (${window}): whether the data holds it, this key cannot see`);
    }
    const universe = rule.universe_identifiers;
    if (options.ticker !== undefined && universe.length > 0 && !universe.includes(options.ticker)) {
      reasons.push(`Ticker ${options.ticker} is outside your universe for ${dataset} (${universe.join(", ")})`);
    }
    const used = this.quotas.quotas_usage, limit = this.quotas.quotas_limit;
    if (used.monthly_requests >= limit.monthly_requests) {
      reasons.push(
        `Your monthly request quota is used up (${used.monthly_requests}/${limit.monthly_requests}); it resets on the 1st at 00:00 UTC`,
      );
    }
    if (used.monthly_data_returned >= limit.monthly_data_returned) {
      reasons.push(
        `Your monthly data quota is used up (${used.monthly_data_returned}/${limit.monthly_data_returned} bytes); it resets on the 1st at 00:00 UTC`,
      );
    }
    if (reasons.length > 0) return { allowed: false, reason: reasons.join("; "), reasons, ...missing };
    const scope = universe.length > 0 ? `tickers ${universe.join(", ")}` : "every ticker";
    const yes = `Yes: ${dataset} from ${window}, ${scope}`;
    if (missing.missing?.length) {
      return { allowed: true, reason: `${yes}, but the data holds no row for it: ${missing.missing.join("; ")}`, reasons: [], ...missing };
    }
    return { allowed: true, reason: yes, reasons: [], ...missing };
  }
}

/**
 * The entitlements with what each entitled dataset holds as this key sees it: its status (free,
 * read afresh) and, where the identity may read them, the tickers of `eq-lookup-files` and the
 * roots of `opt-sec-master` (one request each, once per session, shared with the data calls'
 * ticker and root checks). Used by `wb.entitlements()`.
 *
 * @example
 * ```ts
 * const ent = await readEntitlements(facts, identity, rules, quotas);
 * ent.holdings["eq-taq-1min"].first; // "2023-11-01"
 * ```
 */
export async function readEntitlements(
  facts: ServiceFacts,
  identity: Identity,
  rules: readonly AccessRule[],
  quotas: Quotas,
): Promise<Entitlements> {
  const [book, roots, ...statuses] = await Promise.all([
    tickerBook(facts),
    rootBook(facts),
    ...rules.map((r) => facts.status(r.dataset_text_id).then((s) => ({ s }), (e: unknown) => ({ e }))),
  ]);
  const holdings: Record<string, Holding> = {};
  rules.forEach((r, i) => {
    const read = statuses[i] as { s?: Parameters<typeof holdingOf>[0]; e?: unknown };
    holdings[r.dataset_text_id] = read.s
      ? holdingOf(read.s, book as TickerBook | undefined, roots as RootBook | undefined)
      : { dataset: r.dataset_text_id, first: null, last: null, unread: read.e instanceof Error ? read.e.message : String(read.e) };
  });
  return new Entitlements(identity, rules, quotas, holdings, book as TickerBook | undefined, roots as RootBook | undefined);
}
