/**
 * Open interest of each contract, day by day, as the OCC reports it (contracts held at the end
 * of the previous trading day). Each contract drifts towards a target with persistence and
 * noisy flows, and the target carries the clustering of real data:
 * - round strikes: multiples of 5 (of $1 below $25) hold 10-25 times the strikes between,
 *   and multiples of 50 and 100 more still;
 * - monthly and quarterly expiries hold several times what weeklies do;
 * - it peaks a little out of the money (puts below spot, calls above), and positions are
 *   closed or rolled over the last days before expiry.
 * A new contract starts at 0; a contract of an adjusted root, closed to new positions, only
 * decays; an expired contract is gone.
 */
import type { Rng } from "../rng.ts";
import type { ExpiryKind } from "./expiries.ts";

/** Open interest of an at-the-money monthly round strike, per root tier (the index root's strikes are fewer per dollar but each is smaller). */
const BASE_OPEN_INTEREST: Readonly<Record<number, number>> = { 1: 40_000, 2: 9_000, 3: 2_500 };
const INDEX_BASE_OPEN_INTEREST = 12_000;
const EXPIRY_WEIGHT: Readonly<Record<ExpiryKind, number>> = { daily: 0.08, weekly: 0.2, monthly: 1, quarterly: 1.4 };
/** Put and call weights: index and ETF options are mostly hedges (puts), single-stock open interest leans to calls. */
const PUT_CALL_WEIGHT = { putHeavy: { put: 1.3, call: 0.75 }, callHeavy: { put: 0.8, call: 1.2 } } as const;
/** Chance that nobody opens or closes a position in a contract on a given day: its open interest stays put. */
const NO_CHANGE_PROBABILITY = 0.45;
/** Share of the gap to the target closed per day, and the daily decay of an adjusted contract. */
const PULL = 0.12;
const ADJUSTED_DECAY = 0.03;

/**
 * How much open interest a strike attracts for being round: multiples of 5 (of $1 under $25)
 * weigh 1, multiples of 50 and 100 more, the strikes between a tenth or less.
 *
 * @example
 * ```ts
 * [172.5, 173, 175, 150, 200].map(roundness); // [0.04, 0.1, 1, 2, 3]
 * ```
 */
function roundness(strike: number): number {
  const unit = strike >= 25 ? 5 : 1;
  const cents = Math.round(strike * 100);
  if (cents % (unit * 100) !== 0) return Number.isInteger(strike) ? 0.1 : 0.04;
  if (cents % 10000 === 0 && strike >= 100) return 3;
  if (cents % 5000 === 0 && strike >= 50) return 2;
  return 1;
}

/** What a contract's open interest tends to. */
export interface TargetInputs {
  tier: number;
  index: boolean;
  /** An index or ETF root, where puts outnumber calls. */
  putHeavy: boolean;
  call: boolean;
  strike: number;
  spot: number;
  kind: ExpiryKind;
  /** ATM volatility x sqrt(years), floored at a week. */
  sd: number;
  daysToExpiry: number;
}

/**
 * The open interest a contract tends to.
 *
 * @example
 * ```ts
 * targetOpenInterest({ tier: 1, index: false, putHeavy: false, call: false, strike: 185, spot: 190, kind: "monthly", sd: 0.06, daysToExpiry: 30 }); // about 32,000
 * ```
 */
export function targetOpenInterest(x: TargetInputs): number {
  const z = Math.log(x.strike / x.spot) / x.sd;
  const centre = x.call ? 0.4 : -0.4;
  const moneyness = Math.exp(-0.5 * ((z - centre) / 1.3) ** 2) + 0.01;
  const rolling = x.daysToExpiry >= 5 ? 1 : 0.6 + 0.08 * x.daysToExpiry;
  const base = x.index ? INDEX_BASE_OPEN_INTEREST : BASE_OPEN_INTEREST[x.tier] ?? 2_500;
  const side = PUT_CALL_WEIGHT[x.putHeavy ? "putHeavy" : "callHeavy"][x.call ? "call" : "put"];
  return base * roundness(x.strike) * EXPIRY_WEIGHT[x.kind] * moneyness * rolling * side;
}

/**
 * Tomorrow's open interest from today's: towards `target` (0 for an adjusted contract, which
 * only decays) with noisy flows and the odd block trade; a whole number, never negative.
 *
 * @example
 * ```ts
 * nextOpenInterest(Rng.for(42, "oi"), 12_000, 20_000, false); // about 13,000
 * ```
 */
export function nextOpenInterest(rng: Rng, current: number, target: number, adjusted: boolean): number {
  if (adjusted) return Math.max(0, Math.round(current * (1 - ADJUSTED_DECAY * rng.gammaUnitMean(2))));
  // Positions change on the days the contract trades; those days close the gap to the target faster.
  if (rng.chance(NO_CHANGE_PROBABILITY)) return current;
  const flow = (PULL / (1 - NO_CHANGE_PROBABILITY)) * (target - current) + 0.15 * Math.sqrt(Math.max(target, current) + 1) * rng.normal();
  const block = rng.chance(0.01) ? Math.round(target * 0.3 * rng.uniform()) : 0;
  return Math.max(0, Math.round(current + flow + block));
}

/**
 * Open interest of a contract already trading when the market starts: about its target,
 * built up over its first month.
 *
 * @example
 * ```ts
 * seasonedOpenInterest(Rng.for(42, "oi"), 20_000, 15); // about 10,000
 * ```
 */
export function seasonedOpenInterest(rng: Rng, target: number, ageDays: number): number {
  return Math.max(0, Math.round(target * Math.min(1, ageDays / 30) * rng.gammaUnitMean(8)));
}
