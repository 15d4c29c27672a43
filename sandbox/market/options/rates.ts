/**
 * Rates the option models use. A flat risk-free rate is close to late-2023 reality (Fed funds
 * 5.25-5.50%, T-bills near 5.3% along the whole curve out to a year) and keeps the data easy
 * to check. Dividends are a continuous yield per underlying (ticks/dividends.ts), which the
 * equity's ex-dividend drops share.
 */

/** Continuously compounded risk-free rate for every maturity and date. */
export const RISK_FREE_RATE = 0.053;
