/**
 * The service's warning that a monthly quota is nearly spent (`X-Quota-Warning`, sent past 90%
 * of any monthly quota), turned into a notebook warning: printed once per quota per session,
 * so a long fetch does not print it on every page, and kept for whoever wants the latest text.
 */

/** The header the sandbox (and a service that follows its OpenAPI description) sends. */
const QUOTA_WARNING_HEADER = "X-Quota-Warning";

/** The quota warnings of one workbench: each printed once, the latest kept. */
export class QuotaWarnings {
  /** The latest warning text, e.g. "monthly requests 95% used (19 of 20); resets ...". */
  latest: string | undefined;
  private readonly warned = new Set<string>();

  /** Prints with `warn` (default: `console.warn`). */
  constructor(private readonly warn: (text: string) => void = (text) => console.warn(text)) {}

  /** Reads one answer's headers; warns the first time each quota is reported. */
  observe(headers: Headers): void {
    const text = headers.get(QUOTA_WARNING_HEADER);
    if (!text) return;
    this.latest = text;
    // "monthly requests 95% used (...)": the quota's name is what comes before the percentage.
    const quota = text.split(/\s\d/)[0];
    if (this.warned.has(quota)) return;
    this.warned.add(quota);
    this.warn(`Quota warning from the service: ${text}. Check wb.account.quotas() before large calls.`);
  }
}
