/**
 * Dividends of the underlyings as a continuous yield, rough 2023 levels: the equity drops by a
 * quarter of it on each ex-dividend day (events.ts) and the option models price with it, so
 * American calls on dividend payers carry a small early-exercise premium as they should.
 */

/** Continuous dividend yield by underlying SecId (ASID for equities; 100100 is the S&P 500 index). */
const DIVIDEND_YIELDS: Readonly<Record<number, number>> = {
  100001: 0.005, // AAPL
  100002: 0.008, // MSFT
  100003: 0.028, // JPM
  100004: 0.014, // SPY
  100005: 0.006, // QQQ
  100006: 0.018, // TSM
  100009: 0.004, // ODFL
  100010: 0.02, // SIRI
  100011: 0.012, // HES
  100012: 0.04, // CVX
  100013: 0, // SQ, pays none
  100100: 0.014, // the S&P 500 index, as SPY
};

/**
 * The dividend yield of an underlying by its SecId (`UnderSecId` in opt-sec-master); 0 for one
 * without a dividend.
 *
 * @example
 * ```ts
 * dividendYield(100012); // 0.04 (CVX)
 * ```
 */
export function dividendYield(asid: number): number {
  return DIVIDEND_YIELDS[asid] ?? 0;
}
