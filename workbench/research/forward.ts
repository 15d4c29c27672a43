/**
 * The forward price of each expiry, two ways:
 *
 * - **from put-call parity** (Cboe VIX White Paper, 2019, step 1): C − P = e^(−rT)(F − K) for
 *   European options, so at the strike K* where the call and put mids differ least,
 *   F = K* + e^(rT)(C − P). For American options parity is only a pair of bounds (Hull, ch. 11):
 *   the put's early-exercise value makes C − P too small, and this F falls below the true
 *   forward as the expiry lengthens.
 * - **from the carry the data implies**: the dividend yield q at which the Black-Scholes-Merton
 *   value of each call near the spot, at the dataset's own implied vol, equals its mid
 *   (`impliedDividendYield`), the median over those calls; then F = S·e^((r − q)T). This holds
 *   for American calls too while the yield is below the rate, as the dataset's model priced them.
 */
import pl from "nodejs-polars";
import { QueryError } from "../errors/base.ts";
import { impliedDividendYield } from "./blackScholes.ts";
import { dateSeries, median, type OptionChain, optionChains } from "./optionChains.ts";

/** A call and a put mid at one strike, $. */
export interface ParityPair {
  /** Strike, $. */
  strike: number;
  /** The call's mid, $. */
  call: number;
  /** The put's mid, $. */
  put: number;
}

/**
 * The Cboe forward: F = K* + e^(rT)(C − P) at the strike where |C − P| is least. Null with no
 * pair.
 *
 * @example
 * ```ts
 * parityForward([{ strike: 95, call: 7.1, put: 1.1 }, { strike: 100, call: 3.6, put: 2.4 }], 0.25, 0.05); // { forward: 101.2150941..., strike: 100 }
 * ```
 */
export function parityForward(pairs: ParityPair[], years: number, rate: number): { forward: number; strike: number } | null {
  const usable = pairs.filter((p) => [p.strike, p.call, p.put].every(Number.isFinite));
  if (usable.length === 0) return null;
  const best = usable.reduce((a, b) => (Math.abs(b.call - b.put) < Math.abs(a.call - a.put) ? b : a));
  return { forward: best.strike + Math.exp(rate * years) * (best.call - best.put), strike: best.strike };
}

/** Options of `expiryForwards`. */
export interface ForwardOptions {
  /** Continuously compounded risk-free rate per year (0.053 is 5.3%). */
  rate: number;
  /** How many calls nearest the spot the implied carry is the median of (default 3). */
  strikesNearSpot?: number;
}

/** One chain's forward, both ways, and why a value is missing. */
export interface ChainForward {
  /** The dividend yield the calls near the spot imply, per year (0.005 is 0.5%). */
  dividendYield: number | null;
  /** S·e^((r − q)T) from that yield, $. */
  forward: number | null;
  /** Put-call parity's forward and the strike it was read at, $. */
  parity: { forward: number; strike: number } | null;
  /** Why the forward is missing, or null. */
  note: string | null;
}

/** The forward of one chain (see the module's documentation). */
export function chainForward(chain: OptionChain, options: ForwardOptions): ChainForward {
  const { rate, strikesNearSpot = 3 } = options;
  if (chain.days <= 0) {
    return { dividendYield: null, forward: null, parity: null, note: "expires on the trade date: no time value left to imply a forward" };
  }
  const calls = chain.contracts.filter((c) => c.call && c.computed && c.mid !== null && c.mid > 0)
    .sort((a, b) => Math.abs(a.strike - chain.spot) - Math.abs(b.strike - chain.spot)).slice(0, strikesNearSpot);
  const yields = calls.map((c) => impliedDividendYield({ spot: chain.spot, strike: c.strike, years: chain.years, rate }, c.mid!, c.vol!))
    .filter((q): q is number => q !== null);
  const q = median(yields);
  const puts = new Map(chain.contracts.filter((c) => !c.call && c.mid !== null).map((c) => [c.strike, c.mid!]));
  const pairs = chain.contracts.filter((c) => c.call && c.mid !== null && puts.has(c.strike)).map((c) => ({
    strike: c.strike,
    call: c.mid!,
    put: puts.get(c.strike)!,
  }));
  const parity = parityForward(pairs, chain.years, rate);
  const note = q === null ? "no call near the spot with a computed implied vol: no carry, no forward" : null;
  return { dividendYield: q, forward: q === null ? null : chain.spot * Math.exp((rate - q) * chain.years), parity, note };
}

/**
 * The forward of every expiry in a greeks frame (`wb.data.optGreeksDaily`), one row per trade
 * date, root and expiry: TradeDate, Ticker, ExpirationDate, DaysToExpiry, YearsToExpiry
 * (days / 365), SpotUsd, DividendYieldPct (the carry's yield), ForwardUsd (from that carry),
 * ParityForwardUsd and ParityStrikeUsd (Cboe's rule), ParityGapBps (parity against carry, in
 * basis points of the forward) and Note (why a value is null).
 *
 * @example
 * ```ts
 * const greeks = await wb.data.optGreeksDaily({ filters: { Ticker: "AAPL", TradeDate: "2024-01-10" } });
 * expiryForwards(greeks, { rate: 0.053 }).select("ExpirationDate", "ForwardUsd", "ParityForwardUsd");
 * ```
 */
export function expiryForwards(greeks: pl.DataFrame, options: ForwardOptions): pl.DataFrame {
  if (!Number.isFinite(options.rate)) {
    throw new QueryError(`expiryForwards needs a finite rate per year (0.053 is 5.3%), got ${options.rate}`);
  }
  const chains = optionChains(greeks);
  const forwards = chains.map((c) => chainForward(c, options));
  const pct = (v: number | null) => (v === null ? null : v * 100);
  return pl.DataFrame([
    dateSeries("TradeDate", chains.map((c) => c.tradeDate)),
    pl.Series("Ticker", chains.map((c) => c.ticker), pl.String),
    dateSeries("ExpirationDate", chains.map((c) => c.expiration)),
    pl.Series("DaysToExpiry", chains.map((c) => c.days), pl.Int32),
    pl.Series("YearsToExpiry", chains.map((c) => c.years), pl.Float64),
    pl.Series("SpotUsd", chains.map((c) => c.spot), pl.Float64),
    pl.Series("DividendYieldPct", forwards.map((f) => pct(f.dividendYield)), pl.Float64),
    pl.Series("ForwardUsd", forwards.map((f) => f.forward), pl.Float64),
    pl.Series("ParityForwardUsd", forwards.map((f) => f.parity?.forward ?? null), pl.Float64),
    pl.Series("ParityStrikeUsd", forwards.map((f) => f.parity?.strike ?? null), pl.Float64),
    pl.Series(
      "ParityGapBps",
      forwards.map((f) => (f.forward !== null && f.parity ? (f.parity.forward / f.forward - 1) * 1e4 : null)),
      pl.Float64,
    ),
    pl.Series("Note", forwards.map((f) => f.note), pl.String),
  ]);
}
