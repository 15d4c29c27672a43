/**
 * The implied-volatility term structure of an option chain, on a true time scale:
 *
 * - per expiry, the ATM-forward and 50-delta vols (smileVols.ts) at the forward from the carry
 *   the data implies (forward.ts), and the total implied variance w = σ²T (Gatheral, The
 *   Volatility Surface, 2006, ch. 1 and 3);
 * - constant-maturity vols, linear in total variance between the two expiries around the
 *   target: w(T) = w₁ + (w₂ − w₁)(T − T₁)/(T₂ − T₁), σ(T) = √(w(T)/T) (the Cboe VIX White
 *   Paper's interpolation; OptionMetrics' standardized maturities are 30, 60, 91 ... days);
 *   no extrapolation past the nearest or the farthest expiry;
 * - the calendar-arbitrage check: at a fixed log-moneyness total variance may not fall as the
 *   expiry lengthens (Gatheral and Jacquier 2014, "Arbitrage-free SVI volatility surfaces"), so
 *   the forward variance (w₂ − w₁)/(T₂ − T₁) between neighbouring expiries is never negative.
 */
import pl from "nodejs-polars";
import { QueryError } from "../errors/base.ts";
import { chainForward, type ForwardOptions } from "./forward.ts";
import { dateSeries, optionChains } from "./optionChains.ts";
import { isoDate } from "./securities.ts";
import { atmForwardVol, fiftyDeltaVol, nearestSpotStrikeVol, otmSmile } from "./smileVols.ts";

/**
 * Per trade date, root and expiry: TradeDate, Ticker, ExpirationDate, DaysToExpiry,
 * YearsToExpiry, SpotUsd, ForwardUsd, AtmForwardVolPct, FiftyDeltaVolPct,
 * NearestSpotStrikeVolPct (the call and put vols at the strike nearest the spot, for
 * comparison), AtmTotalVariance (σ²T of the ATM-forward vol, σ per √year and T in years),
 * SmileStrikes (strikes with a computed out-of-the-money vol) and Note (why a vol is null).
 *
 * @example
 * ```ts
 * const greeks = await wb.data.optGreeksDaily({ filters: { Ticker: "AAPL", TradeDate: "2024-01-10" } });
 * const term = volTermStructure(greeks, { rate: 0.053 });
 * term.select("DaysToExpiry", "AtmForwardVolPct", "FiftyDeltaVolPct");
 * ```
 */
export function volTermStructure(greeks: pl.DataFrame, options: ForwardOptions): pl.DataFrame {
  if (!Number.isFinite(options.rate)) {
    throw new QueryError(`volTermStructure needs a finite rate per year (0.053 is 5.3%), got ${options.rate}`);
  }
  const chains = optionChains(greeks);
  const rows = chains.map((chain) => {
    const f = chainForward(chain, options);
    const smile = f.forward === null ? [] : otmSmile(chain.contracts, f.forward);
    const atm = f.forward === null ? null : atmForwardVol(smile, f.forward);
    const fifty = f.forward === null ? null : fiftyDeltaVol(smile, f.forward, chain.years);
    const note = f.note ??
      (atm === null ? `the forward lies outside the ${smile.length} strikes with a computed out-of-the-money vol` : null);
    return {
      chain,
      forward: f.forward,
      atm,
      fifty,
      nearest: chain.days > 0 ? nearestSpotStrikeVol(chain.contracts, chain.spot) : null,
      strikes: smile.length,
      note,
    };
  });
  const pct = (v: number | null) => (v === null ? null : v * 100);
  return pl.DataFrame([
    dateSeries("TradeDate", rows.map((r) => r.chain.tradeDate)),
    pl.Series("Ticker", rows.map((r) => r.chain.ticker), pl.String),
    dateSeries("ExpirationDate", rows.map((r) => r.chain.expiration)),
    pl.Series("DaysToExpiry", rows.map((r) => r.chain.days), pl.Int32),
    pl.Series("YearsToExpiry", rows.map((r) => r.chain.years), pl.Float64),
    pl.Series("SpotUsd", rows.map((r) => r.chain.spot), pl.Float64),
    pl.Series("ForwardUsd", rows.map((r) => r.forward), pl.Float64),
    pl.Series("AtmForwardVolPct", rows.map((r) => pct(r.atm)), pl.Float64),
    pl.Series("FiftyDeltaVolPct", rows.map((r) => pct(r.fifty)), pl.Float64),
    pl.Series("NearestSpotStrikeVolPct", rows.map((r) => pct(r.nearest)), pl.Float64),
    pl.Series("AtmTotalVariance", rows.map((r) => (r.atm === null ? null : r.atm * r.atm * r.chain.years)), pl.Float64),
    pl.Series("SmileStrikes", rows.map((r) => r.strikes), pl.Int32),
    pl.Series("Note", rows.map((r) => r.note), pl.String),
  ]);
}

/** One expiry of a term structure: days to expiry, years, and the vol (per √year). */
export interface TermPoint {
  /** Calendar days to expiry. */
  days: number;
  /** Years to expiry (days / 365). */
  years: number;
  /** Implied vol per √year. */
  vol: number;
}

/** A constant-maturity vol, the expiries it was read between, and why it is missing. */
export interface ConstantMaturity {
  /** The horizon, calendar days. */
  days: number;
  /** The vol there, per √year; null outside the expiries. */
  vol: number | null;
  /** Days to the expiry below the horizon (the horizon itself on an expiry). */
  fromDays: number | null;
  /** Days to the expiry above the horizon. */
  toDays: number | null;
  /** Why the vol is missing, or null. */
  note: string | null;
}

/**
 * The vol at `days` to expiry, linear in total variance between the expiries around it (exact
 * at an expiry); null, with a note, outside the expiries given.
 *
 * @example
 * ```ts
 * constantMaturityVol([{ days: 20, years: 20 / 365, vol: 0.2 }, { days: 40, years: 40 / 365, vol: 0.25 }], 30).vol; // 0.23452 = √(0.055)
 * ```
 */
export function constantMaturityVol(points: TermPoint[], days: number): ConstantMaturity {
  const ps = points.filter((p) => p.days > 0 && Number.isFinite(p.vol)).sort((a, b) => a.days - b.days);
  if (ps.length === 0) return { days, vol: null, fromDays: null, toDays: null, note: "no expiry has a vol" };
  const years = days / 365;
  const hit = ps.find((p) => p.days === days);
  if (hit) return { days, vol: hit.vol, fromDays: days, toDays: days, note: null };
  const upper = ps.findIndex((p) => p.days > days);
  if (upper <= 0) {
    const [first, last] = [ps[0].days, ps.at(-1)!.days];
    return {
      days,
      vol: null,
      fromDays: null,
      toDays: null,
      note: upper === 0
        ? `shorter than the nearest expiry with a vol (${first} days): not extrapolated`
        : `longer than the farthest expiry with a vol (${last} days): not extrapolated`,
    };
  }
  const [a, b] = [ps[upper - 1], ps[upper]];
  const [wa, wb] = [a.vol * a.vol * a.years, b.vol * b.vol * b.years];
  const w = wa + ((wb - wa) * (years - a.years)) / (b.years - a.years);
  return w > 0
    ? { days, vol: Math.sqrt(w / years), fromDays: a.days, toDays: b.days, note: null }
    : { days, vol: null, fromDays: a.days, toDays: b.days, note: "the interpolated total variance is not positive" };
}

/** The term points of one trade date and root of a `volTermStructure` frame, for a vol column in percent. */
function termPoints(term: pl.DataFrame, column: string): Map<string, TermPoint[]> {
  for (const c of ["TradeDate", "Ticker", "DaysToExpiry", "YearsToExpiry", column]) {
    if (!term.columns.includes(c)) {
      throw new QueryError(`The term-structure frame lacks ${c}: pass what volTermStructure returns (it has ${term.columns.join(", ")})`);
    }
  }
  const out = new Map<string, TermPoint[]>();
  for (const r of term.toRecords() as Record<string, unknown>[]) {
    const key = `${isoDate(r.TradeDate)} ${r.Ticker}`;
    const vol = r[column] as number | null;
    if (!out.has(key)) out.set(key, []);
    if (vol !== null && Number.isFinite(vol)) {
      out.get(key)!.push({ days: Number(r.DaysToExpiry), years: Number(r.YearsToExpiry), vol: vol / 100 });
    }
  }
  return out;
}

/**
 * Constant-maturity vols of every trade date and root of a `volTermStructure` frame, from the
 * vol column `column` (default `AtmForwardVolPct`): TradeDate, Ticker, TargetDays, VolPct,
 * FromExpiryDays, ToExpiryDays (the expiries interpolated between) and Note.
 *
 * @example
 * ```ts
 * const greeks = await wb.data.optGreeksDaily({ filters: { Ticker: "AAPL", TradeDate: "2024-01-10" } });
 * constantMaturityVols(volTermStructure(greeks, { rate: 0.053 }), [30, 60, 91]);
 * ```
 */
export function constantMaturityVols(term: pl.DataFrame, targetDays: number[], column = "AtmForwardVolPct"): pl.DataFrame {
  const bad = targetDays.filter((d) => !(Number.isInteger(d) && d > 0));
  if (bad.length > 0) throw new QueryError(`Target maturities are whole numbers of calendar days above 0; got ${bad.join(", ")}`);
  const rows = [...termPoints(term, column)].flatMap(([key, points]) =>
    targetDays.map((d) => ({ key, ...constantMaturityVol(points, d) }))
  );
  return pl.DataFrame([
    dateSeries("TradeDate", rows.map((r) => r.key.split(" ")[0])),
    pl.Series("Ticker", rows.map((r) => r.key.split(" ")[1]), pl.String),
    pl.Series("TargetDays", rows.map((r) => r.days), pl.Int32),
    pl.Series("VolPct", rows.map((r) => (r.vol === null ? null : r.vol * 100)), pl.Float64),
    pl.Series("FromExpiryDays", rows.map((r) => r.fromDays), pl.Float64),
    pl.Series("ToExpiryDays", rows.map((r) => r.toDays), pl.Float64),
    pl.Series("Note", rows.map((r) => r.note), pl.String),
  ]);
}

/**
 * The calendar-arbitrage check of a `volTermStructure` frame, one row per pair of neighbouring
 * expiries with a vol in `column` (default `AtmForwardVolPct`): TradeDate, Ticker,
 * FromDays, ToDays, FromTotalVariance, ToTotalVariance, ForwardVolPct (the vol between the two
 * expiries, √((w₂ − w₁)/(T₂ − T₁)); null where negative) and Arbitrage (true where total
 * variance falls).
 *
 * @example
 * ```ts
 * const greeks = await wb.data.optGreeksDaily({ filters: { Ticker: "SPY", TradeDate: "2024-01-10" } });
 * calendarArbitrage(volTermStructure(greeks, { rate: 0.053 })).filter(pl.col("Arbitrage"));
 * ```
 */
export function calendarArbitrage(term: pl.DataFrame, column = "AtmForwardVolPct"): pl.DataFrame {
  const rows = [...termPoints(term, column)].flatMap(([key, points]) => {
    const ps = points.filter((p) => p.days > 0).sort((a, b) => a.days - b.days);
    return ps.slice(1).map((b, i) => {
      const a = ps[i];
      const [wa, wb] = [a.vol * a.vol * a.years, b.vol * b.vol * b.years];
      const forwardVariance = (wb - wa) / (b.years - a.years);
      return { key, a, b, wa, wb, forwardVol: forwardVariance >= 0 ? Math.sqrt(forwardVariance) * 100 : null, arbitrage: wb < wa };
    });
  });
  return pl.DataFrame([
    dateSeries("TradeDate", rows.map((r) => r.key.split(" ")[0])),
    pl.Series("Ticker", rows.map((r) => r.key.split(" ")[1]), pl.String),
    pl.Series("FromDays", rows.map((r) => r.a.days), pl.Int32),
    pl.Series("ToDays", rows.map((r) => r.b.days), pl.Int32),
    pl.Series("FromTotalVariance", rows.map((r) => r.wa), pl.Float64),
    pl.Series("ToTotalVariance", rows.map((r) => r.wb), pl.Float64),
    pl.Series("ForwardVolPct", rows.map((r) => r.forwardVol), pl.Float64),
    pl.Series("Arbitrage", rows.map((r) => r.arbitrage), pl.Bool),
  ]);
}
