/**
 * Strikes listed for an expiry. Increments follow the exchanges' price bands ($0.50 under $5,
 * $1 under $25, $2.50 under $200, $5 above; 5 index points for the index), and strikes cover a
 * band of standard deviations around spot that narrows as expiry nears. When the band would
 * hold more strikes than the root's liquidity allows, the increment steps up ($5, $10, $25 ...),
 * as exchanges list far expiries on coarser strikes. Strikes once listed stay until expiry, so
 * the chain grows new strikes as the underlying moves.
 */

const NICE_INCREMENTS = [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500];

/** Band width in standard deviations, and the most strikes one expiry lists, per liquidity tier. */
const TIER_BAND: Readonly<Record<number, { sd: number; maxStrikes: number }>> = {
  1: { sd: 2.4, maxStrikes: 30 },
  2: { sd: 2.0, maxStrikes: 22 },
  3: { sd: 1.8, maxStrikes: 16 },
};
/** At least this many strikes each side of spot, however narrow the band. */
const MIN_EACH_SIDE = 3;

/**
 * The smallest strike increment at a price level.
 *
 * @example
 * ```ts
 * baseIncrement(174, false); // 2.5
 * baseIncrement(4300, true); // 5
 * ```
 */
export function baseIncrement(spot: number, index: boolean): number {
  if (index) return 5;
  if (spot < 5) return 0.5;
  if (spot < 25) return 1;
  if (spot < 200) return 2.5;
  return 5;
}

/**
 * A strike as stored: rounded to 1/10000 so repeated arithmetic never makes near-duplicates.
 *
 * @example
 * ```ts
 * roundStrike(69 * 2.5); // 172.5
 * ```
 */
export const roundStrike = (k: number): number => Math.round(k * 1e4) / 1e4;

/**
 * Strikes to have listed for an expiry `years` away with the underlying at `spot` and an
 * at-the-money volatility `vol`.
 *
 * @example
 * ```ts
 * strikesToList(190, 0.22, 30 / 365, 1, false); // [165, 167.5, 170, ..., 217.5, 220]
 * strikesToList(450, 0.13, 2 / 365, 1, false, 1); // $5 strikes, and $1 ones within 4% of 450
 * ```
 */
export function strikesToList(spot: number, vol: number, years: number, tier: number, index: boolean, nearIncrement?: number): number[] {
  const band = TIER_BAND[tier] ?? TIER_BAND[3];
  const half = band.sd * vol * Math.sqrt(Math.max(years, 7 / 365));
  let low = spot * Math.exp(-half), high = spot * Math.exp(half);
  let k = NICE_INCREMENTS.indexOf(baseIncrement(spot, index));
  while (k < NICE_INCREMENTS.length - 1 && (high - low) / NICE_INCREMENTS[k] + 1 > band.maxStrikes) k++;
  const inc = NICE_INCREMENTS[k];
  low = Math.min(low, spot - MIN_EACH_SIDE * inc);
  high = Math.max(high, spot + MIN_EACH_SIDE * inc);
  const out: number[] = [];
  for (let i = Math.max(1, Math.ceil(low / inc)); i * inc <= high; i++) out.push(roundStrike(i * inc));
  if (nearIncrement) {
    // SPY's $1 and SPX's 5-point strikes near the money, within about a standard deviation (4% at most).
    const band = spot * Math.min(0.04, 1.2 * vol * Math.sqrt(Math.max(years, 7 / 365)));
    for (let k = Math.ceil((spot - band) / nearIncrement); k * nearIncrement <= spot + band; k++) out.push(roundStrike(k * nearIncrement));
    return [...new Set(out)].sort((a, b) => a - b);
  }
  return out;
}
